"""Camera calibration from the corner markers or four points, and its JSON file."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.surface import SeenTile
from tablesim.render import Camera, Rendered, RenderStyle, Scene, render_frame
from tablesim.render.styles import Lighting, Surface, TileStyle
from vision.calibration.homography import (
    CALIBRATION_FILE,
    Calibration,
    CalibrationMethod,
    calibrate_if_markers,
    calibrate_manual,
    calibrate_markers,
)
from vision.errors import (
    CalibrationError,
    CalibrationNotFoundError,
    MarkersMissingError,
    VisionError,
)

SIZE = (900.0, 600.0)
TILES = (
    SeenTile(6, 6, 450, 288, 450, 312),
    SeenTile(6, 3, 474, 300, 498, 300),
    SeenTile(5, 1, 100, 80, 124, 80),
    SeenTile(4, 2, 820, 520, 820, 544),
    SeenTile(0, 0, 60, 560, 84, 560),
    SeenTile(3, 3, 860, 40, 860, 64),
)
TILTED = Camera.overhead(SIZE, (1280, 960), keystone=0.07, rotation_deg=-4)


def _frame(camera: Camera = TILTED, style: RenderStyle | None = None, seed: int = 0) -> Rendered:
    return render_frame(Scene(TILES, size_mm=SIZE), camera, style, seed)


def _assert_tiles_map_back(calibration: Calibration, out: Rendered, tolerance_mm: float) -> None:
    for t in out.truth.tiles:
        got = calibration.px_to_mm(np.array([t.a_px, t.b_px]))
        want = np.array([[t.tile.xa, t.tile.ya], [t.tile.xb, t.tile.yb]])
        assert np.abs(got - want).max() < tolerance_mm, f"{t.tile}: {got} != {want}"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("camera", "style"),
    [
        (TILTED, RenderStyle()),
        (TILTED, RenderStyle.harsh(TileStyle.BLACK)),
        (
            Camera.overhead(SIZE, (1536, 2040), rotation_deg=88, keystone=0.05),
            RenderStyle(TileStyle.WOOD, Surface.WOOD, Lighting.LAMP, glare=0.3, noise=4),
        ),
    ],
    ids=["tilted", "harsh", "portrait"],
)
def test_markers_calibrate_so_tile_centres_map_back_within_a_millimetre(
    camera: Camera, style: RenderStyle
) -> None:
    out = _frame(camera, style, seed=11)
    calibration = calibrate_markers(out.image, SIZE)
    assert calibration.method is CalibrationMethod.MARKERS
    assert calibration.image_size == (camera.width, camera.height)
    assert calibration.reprojection_px < 1.0
    _assert_tiles_map_back(calibration, out, 1.0)
    # and the other way round
    back = calibration.mm_to_px([TILES[0].xa, TILES[0].ya])
    assert back == pytest.approx(out.truth.tiles[0].a_px, abs=1.5)


def test_manual_calibration_from_four_points() -> None:
    out = _frame()
    corners = [m.centre_px for m in out.truth.markers]
    calibration = calibrate_manual(corners, SIZE, (1280, 960))
    assert calibration.method is CalibrationMethod.MANUAL
    assert calibration.reprojection_px == 0.0
    _assert_tiles_map_back(calibration, out, 0.01)
    assert calibration.px_to_mm(corners[2]) == pytest.approx(SIZE)


def test_mappings_are_vectorised_and_keep_the_shape() -> None:
    calibration = calibrate_manual(
        [(100, 50), (1100, 80), (1150, 900), (60, 880)], SIZE, (1280, 960)
    )
    one = calibration.px_to_mm((600, 480))
    many = calibration.px_to_mm(np.zeros((5, 2)))
    grid = calibration.mm_to_px(np.zeros((3, 4, 2)))
    assert one.shape == (2,)
    assert many.shape == (5, 2)
    assert grid.shape == (3, 4, 2)
    pts = np.array([[0, 0], [900, 0], [450, 300], [12.5, 577]])
    assert calibration.px_to_mm(calibration.mm_to_px(pts)) == pytest.approx(pts)
    assert calibration.mm_to_px([0, 0]) == pytest.approx((100, 50))
    with pytest.raises(CalibrationError, match="shape"):
        calibration.px_to_mm([1, 2, 3])


def _hide(image: npt.NDArray[np.uint8], out: Rendered, ids: tuple[int, ...]) -> None:
    for m in out.truth.markers:
        if m.marker_id in ids:
            quad = np.array(m.corners_px)
            centre = quad.mean(axis=0)
            big = np.round(centre + (quad - centre) * 1.3).astype(np.int32)
            cv2.fillPoly(image, [big], (40, 110, 35))


def test_missing_markers_are_named() -> None:
    out = _frame()
    image = out.image.copy()
    _hide(image, out, (1, 3))
    with pytest.raises(MarkersMissingError) as caught:
        calibrate_markers(image, SIZE)
    assert caught.value.missing == (1, 3)
    assert caught.value.found == (0, 2)
    assert "marker(s) 1, 3 not found" in str(caught.value)
    assert isinstance(caught.value, VisionError)


def test_a_frame_without_markers_names_all_four() -> None:
    out = render_frame(Scene(TILES, markers=False), seed=0)
    with pytest.raises(MarkersMissingError, match=r"0, 1, 2, 3 not found \(seen: none\)"):
        calibrate_markers(out.image, SIZE)


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    calibration = calibrate_markers(_frame().image, SIZE)
    path = calibration.save(tmp_path / "state")
    assert path == tmp_path / "state" / CALIBRATION_FILE
    data = json.loads(path.read_text())
    assert data["version"] == 1
    assert data["method"] == "markers"
    assert data["size_mm"] == [900.0, 600.0]
    loaded = Calibration.load(tmp_path / "state")
    assert loaded == calibration
    assert np.allclose(loaded.homography, calibration.homography)


def test_loading_without_a_file_or_from_a_damaged_one(tmp_path: Path) -> None:
    with pytest.raises(CalibrationNotFoundError, match="no camera calibration"):
        Calibration.load(tmp_path)
    with pytest.raises(FileNotFoundError):
        Calibration.load(tmp_path)
    (tmp_path / CALIBRATION_FILE).write_text("{not json")
    with pytest.raises(CalibrationError, match="not valid JSON"):
        Calibration.load(tmp_path)
    (tmp_path / CALIBRATION_FILE).write_text('{"version": 1, "size_mm": [1, 2]}')
    with pytest.raises(CalibrationError, match="damaged"):
        Calibration.load(tmp_path)
    (tmp_path / CALIBRATION_FILE).write_text('{"version": 7}')
    with pytest.raises(CalibrationError, match="format 7"):
        Calibration.load(tmp_path)


def test_recalibrates_only_when_all_markers_show_and_something_moved() -> None:
    out = _frame(seed=1)
    first = calibrate_if_markers(out.image, SIZE, None)
    assert first is not None
    # the same view again (other noise): nothing meaningful changed
    again = render_frame(Scene(TILES, size_mm=SIZE), TILTED, None, 1, frame=5)
    assert calibrate_if_markers(again.image, SIZE, first) is None
    # the camera was knocked: a few degrees and a few millimetres
    knocked = Camera.overhead(SIZE, (1280, 960), keystone=0.07, rotation_deg=-2)
    moved = calibrate_if_markers(_frame(knocked, seed=1).image, SIZE, first)
    assert moved is not None
    assert first.moved_mm(moved) > 2.0
    # a hand over a marker: keep what we have
    hidden = out.image.copy()
    _hide(hidden, out, (2,))
    assert calibrate_if_markers(hidden, SIZE, None) is None


def test_moved_mm_is_zero_for_the_same_calibration() -> None:
    calibration = calibrate_markers(_frame().image, SIZE)
    assert calibration.moved_mm(calibration) == pytest.approx(0.0, abs=1e-9)


def test_wrong_marker_size_shows_as_reprojection_error(caplog: pytest.LogCaptureFixture) -> None:
    image = _frame().image
    right = calibrate_markers(image, SIZE, marker_mm=40)
    with caplog.at_level(logging.WARNING, logger="vision.calibration.homography"):
        wrong = calibrate_markers(image, SIZE, marker_mm=60)
    assert wrong.reprojection_px > 5 * right.reprojection_px
    assert any("fit badly" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize(
    "points",
    [
        [(100, 50), (1100, 80), (60, 880), (1150, 900)],  # crossed: not in marker order
        [(100, 100), (101, 100), (101, 101), (100, 101)],  # a speck
    ],
)
def test_bad_manual_points_are_refused(points: list[tuple[int, int]]) -> None:
    with pytest.raises(CalibrationError):
        calibrate_manual(points, SIZE, (1280, 960))


def test_manual_calibration_needs_four_points_and_a_real_area() -> None:
    with pytest.raises(CalibrationError, match="four"):
        calibrate_manual([(0, 0), (10, 0), (10, 10)], SIZE, (1280, 960))
    with pytest.raises(CalibrationError, match="positive"):
        calibrate_manual([(100, 50), (1100, 80), (1150, 900), (60, 880)], (0, 600), (1280, 960))


@settings(max_examples=60, deadline=None)
@given(
    jitter=st.lists(st.floats(-60, 60), min_size=8, max_size=8),
    x=st.floats(-50, 950),
    y=st.floats(-50, 650),
)
def test_px_and_mm_are_inverse_for_any_reasonable_view(
    jitter: list[float], x: float, y: float
) -> None:
    base = np.array([[150, 100], [1130, 100], [1130, 860], [150, 860]], dtype=np.float64)
    corners = base + np.array(jitter).reshape(4, 2)
    calibration = calibrate_manual(corners, SIZE, (1280, 960))
    assert calibration.mm_to_px([0, 0]) == pytest.approx(corners[0], abs=1e-6)
    assert calibration.px_to_mm(calibration.mm_to_px([x, y])) == pytest.approx((x, y), abs=1e-6)
