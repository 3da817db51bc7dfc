"""The printable marker sheet and the corner markers."""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.calibration.aruco_markers import (
    MARKER_IDS,
    Corner,
    MarkerSighting,
    detect_markers,
    marker_image,
    render_marker_sheet,
    write_marker_sheet,
)
from vision.errors import VisionError


def test_corner_positions_follow_the_marker_ids() -> None:
    assert MARKER_IDS == (0, 1, 2, 3)
    assert Corner.TOP_LEFT.position_mm(900, 600) == (0, 0)
    assert Corner(1).position_mm(900, 600) == (900, 0)
    assert Corner(2).position_mm(900, 600) == (900, 600)
    assert Corner(3).position_mm(900, 600) == (0, 600)
    assert Corner.BOTTOM_RIGHT.label == "bottom-right"


def test_written_sheet_is_detected_with_all_four_ids(tmp_path: Path) -> None:
    out = write_marker_sheet(tmp_path / "markers.png", (210, 297), 40, 200)
    read = cv2.imread(str(out), cv2.IMREAD_GRAYSCALE)
    assert read is not None
    image = np.asarray(read, dtype=np.uint8)
    assert image.shape == (round(297 / 25.4 * 200), round(210 / 25.4 * 200))
    found = detect_markers(image)
    assert sorted(found) == [0, 1, 2, 3]
    # 40 mm at 200 dpi is 315 px a side; top-left marker sits in the top-left quarter
    assert found[0].side_px == pytest.approx(40 / 25.4 * 200, abs=3)
    x0, y0 = found[0].centre
    x2, y2 = found[2].centre
    assert x0 < image.shape[1] / 2 < x2
    assert y0 < image.shape[0] / 2 < y2


def test_sheet_png_carries_its_dpi(tmp_path: Path) -> None:
    data = write_marker_sheet(tmp_path / "m.png", dpi=150).read_bytes()
    at = data.index(b"pHYs")
    ppm_x, ppm_y, unit = struct.unpack(">IIB", data[at + 4 : at + 13])
    assert unit == 1
    assert ppm_x == ppm_y == round(150 / 0.0254)


def test_sheet_photographed_small_and_tilted_is_still_read() -> None:
    sheet = render_marker_sheet((210, 297), 40, 100)
    h, w = sheet.shape
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    dst = np.array([[40, 30], [560, 60], [540, 760], [20, 720]], dtype=np.float32)
    warped = np.asarray(
        cv2.warpPerspective(
            sheet, cv2.getPerspectiveTransform(src, dst), (600, 800), borderValue=90
        ),
        dtype=np.uint8,
    )
    assert sorted(detect_markers(warped)) == [0, 1, 2, 3]


def test_markers_too_big_for_the_sheet_are_refused() -> None:
    with pytest.raises(VisionError, match="do not fit"):
        render_marker_sheet((100, 100), 60, 100)


def test_marker_centre_is_the_diagonals_crossing() -> None:
    square = MarkerSighting(0, ((0, 0), (10, 0), (10, 10), (0, 10)))
    assert square.centre == pytest.approx((5, 5))
    # a keystoned quad: the centre is not the mean of the corners
    quad = MarkerSighting(1, ((0, 0), (10, 0), (12, 10), (-2, 10)))
    cx, cy = quad.centre
    assert cx == pytest.approx(5)
    assert cy == pytest.approx(10 * 10 / (10 + 14))


def test_marker_image_is_black_bordered() -> None:
    img = marker_image(3, 60)
    assert img.shape == (60, 60)
    assert img[:10].max() == 0
    assert img[:, :10].max() == 0
    with pytest.raises(VisionError):
        marker_image(0, 4)
