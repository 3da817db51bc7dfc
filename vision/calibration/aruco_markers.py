"""The four ArUco corner markers: what they are, finding them, printing them.

Markers come from the DICT_4X4_50 dictionary, ids 0 to 3. The centre of each marker
marks one corner of the play area in table millimetres (origin top-left, x right,
y down): 0 top-left (0, 0), 1 top-right (W, 0), 2 bottom-right (W, H), 3 bottom-left
(0, H).
"""

from __future__ import annotations

import logging
import struct
import zlib
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import VisionError

log = logging.getLogger(__name__)

DICTIONARY: Final = cv2.aruco.DICT_4X4_50
MODULES: Final = 6  # a 4x4 marker is 6 modules wide with its black border
DEFAULT_MARKER_MM: Final = 40.0  # printed side of the black square
MM_PER_INCH: Final = 25.4
HERSHEY_CAP_PX: Final = 22.0  # capital height of FONT_HERSHEY_SIMPLEX at scale 1

Points = npt.NDArray[np.float64]


class Corner(IntEnum):
    """A corner of the play area; the value is the id of the marker placed there."""

    TOP_LEFT = 0
    TOP_RIGHT = 1
    BOTTOM_RIGHT = 2
    BOTTOM_LEFT = 3

    @property
    def label(self) -> str:
        return self.name.lower().replace("_", "-")

    def position_mm(self, width_mm: float, height_mm: float) -> tuple[float, float]:
        """Where this marker's centre lies on a play area of the given size."""
        x = width_mm if self in (Corner.TOP_RIGHT, Corner.BOTTOM_RIGHT) else 0.0
        y = height_mm if self in (Corner.BOTTOM_RIGHT, Corner.BOTTOM_LEFT) else 0.0
        return (x, y)


MARKER_IDS: Final = tuple(int(c) for c in Corner)


@dataclass(frozen=True, slots=True)
class MarkerSighting:
    """One marker found in an image: its four corners (clockwise from the marker's
    own top-left, as ArUco returns them) and its centre, in pixels."""

    marker_id: int
    corners: tuple[tuple[float, float], ...]

    @property
    def centre(self) -> tuple[float, float]:
        """The intersection of the diagonals: the true centre under perspective."""
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = self.corners
        d1 = np.array([x2 - x0, y2 - y0])
        d2 = np.array([x3 - x1, y3 - y1])
        m = np.array([[d1[0], -d2[0]], [d1[1], -d2[1]]])
        rhs = np.array([x1 - x0, y1 - y0])
        if abs(float(np.linalg.det(m))) < 1e-9:
            return (float(np.mean([x0, x1, x2, x3])), float(np.mean([y0, y1, y2, y3])))
        t = float(np.linalg.solve(m, rhs)[0])
        return (x0 + t * float(d1[0]), y0 + t * float(d1[1]))

    @property
    def side_px(self) -> float:
        pts = np.array(self.corners, dtype=np.float64)
        return float(np.mean(np.linalg.norm(pts - np.roll(pts, 1, axis=0), axis=1)))


def _dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(DICTIONARY)


def marker_image(marker_id: int, side_px: int) -> npt.NDArray[np.uint8]:
    """The marker's black-and-white square (no white margin), `side_px` wide."""
    if side_px < MODULES:
        raise VisionError(f"a marker needs at least {MODULES} pixels a side, not {side_px}")
    img = cv2.aruco.generateImageMarker(_dictionary(), marker_id, side_px)
    return np.asarray(img, dtype=np.uint8)


def detect_markers(image: npt.NDArray[np.uint8]) -> dict[int, MarkerSighting]:
    """Find the corner markers (ids 0-3) in a BGR or grey image, by id.

    Other ids of the dictionary are ignored; when an id is seen twice, the larger
    sighting wins (the smaller one is most likely a reflection or a stray print).
    """
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(_dictionary(), params)
    corners, ids, _rejected = detector.detectMarkers(gray)
    found: dict[int, MarkerSighting] = {}
    if len(corners) == 0:
        return found
    for quad, raw_id in zip(corners, np.asarray(ids).ravel(), strict=True):
        marker_id = int(raw_id)
        if marker_id not in MARKER_IDS:
            continue
        pts = np.asarray(quad, dtype=np.float64).reshape(4, 2)
        sighting = MarkerSighting(marker_id, tuple((float(x), float(y)) for x, y in pts))
        old = found.get(marker_id)
        if old is not None:
            log.warning("markers: id %d seen twice, keeping the larger", marker_id)
            if old.side_px >= sighting.side_px:
                continue
        found[marker_id] = sighting
    return found


def write_marker_sheet(
    path: str | Path,
    size_mm: tuple[float, float] = (210.0, 297.0),
    marker_mm: float = DEFAULT_MARKER_MM,
    dpi: int = 300,
) -> Path:
    """Write a printable PNG with the four corner markers, each labelled.

    `size_mm` is the paper (width, height), A4 portrait by default; `marker_mm` the
    side of each black square; `dpi` the print resolution, stored in the PNG so that
    printing at 100 % gives true sizes. Each marker sits in its own dashed cut-out box
    with its id and corner written under it, and a 100 mm scale bar lets the user
    check the print. Returns the path written.
    """
    out = Path(path)
    sheet = render_marker_sheet(size_mm, marker_mm, dpi)
    ok, encoded = cv2.imencode(".png", sheet)
    if not ok:
        raise VisionError(f"could not encode the marker sheet for {out}")
    try:
        out.write_bytes(_with_dpi(bytes(encoded.tobytes()), dpi))
    except OSError as exc:
        raise VisionError(f"could not write the marker sheet to {out}: {exc}") from exc
    log.info("markers: sheet %s written (%gx%g mm, %d dpi)", out, *size_mm, dpi)
    return out


def render_marker_sheet(
    size_mm: tuple[float, float], marker_mm: float, dpi: int
) -> npt.NDArray[np.uint8]:
    """The marker sheet as a grey image (what `write_marker_sheet` saves)."""
    px_per_mm = dpi / MM_PER_INCH
    cell_w, cell_h = size_mm[0] / 2, size_mm[1] / 2
    if marker_mm * 1.4 > min(cell_w, cell_h - 20):
        raise VisionError(
            f"{marker_mm:g} mm markers do not fit four to a {size_mm[0]:g}x{size_mm[1]:g} mm "
            "sheet: use smaller markers or a larger sheet"
        )
    sheet = np.full(
        (round(size_mm[1] * px_per_mm), round(size_mm[0] * px_per_mm)), 255, dtype=np.uint8
    )
    for corner in Corner:
        col, row = corner.position_mm(1, 1)
        _draw_cell(
            sheet,
            corner,
            origin_mm=(col * cell_w, row * cell_h),
            cell_mm=(cell_w, cell_h),
            marker_mm=marker_mm,
            dpi=dpi,
        )
    _draw_title(sheet, px_per_mm, marker_mm)
    _draw_scale_bar(sheet, px_per_mm, size_mm)
    return sheet


def _draw_cell(
    sheet: npt.NDArray[np.uint8],
    corner: Corner,
    *,
    origin_mm: tuple[float, float],
    cell_mm: tuple[float, float],
    marker_mm: float,
    dpi: int,
) -> None:
    k = dpi / MM_PER_INCH
    side = round(marker_mm * k)
    cx = (origin_mm[0] + cell_mm[0] / 2) * k
    cy = (origin_mm[1] + cell_mm[1] / 2 - 8) * k
    x0, y0 = round(cx - side / 2), round(cy - side / 2)
    sheet[y0 : y0 + side, x0 : x0 + side] = marker_image(int(corner), side)
    pad = round(marker_mm * 0.2 * k)
    _dashed_rect(sheet, (x0 - pad, y0 - pad), (x0 + side + pad, y0 + side + pad), k)
    below = y0 + side + pad
    _text(sheet, f"id {int(corner)}: {corner.label}", (cx, below + 8 * k), 4.0, k)
    formula = f"centre = play-area corner {_corner_formula(corner)}"
    _text(sheet, formula, (cx, below + 14 * k), 2.5, k)


def _corner_formula(corner: Corner) -> str:
    x, y = corner.position_mm(1, 1)
    return f"({'W' if x else '0'}, {'H' if y else '0'})"


def _dashed_rect(
    sheet: npt.NDArray[np.uint8], p0: tuple[int, int], p1: tuple[int, int], k: float
) -> None:
    dash = max(2, round(2 * k))
    (x0, y0), (x1, y1) = p0, p1
    for x in range(x0, x1, 2 * dash):
        sheet[y0, x : min(x + dash, x1)] = 150
        sheet[y1, x : min(x + dash, x1)] = 150
    for y in range(y0, y1, 2 * dash):
        sheet[y : min(y + dash, y1), x0] = 150
        sheet[y : min(y + dash, y1), x1] = 150


def _draw_title(sheet: npt.NDArray[np.uint8], k: float, marker_mm: float) -> None:
    middle = sheet.shape[1] / 2
    title = f"Corner markers (ArUco 4x4, ids 0-3), black square {marker_mm:g} mm"
    _text(sheet, title, (middle, 10 * k), 3.5, k)
    hint = "Put each marker's centre on its play-area corner; W x H is between centres"
    _text(sheet, hint, (middle, 16 * k), 2.5, k)


def _text(
    sheet: npt.NDArray[np.uint8],
    text: str,
    at: tuple[float, float],
    height_mm: float,
    k: float,
) -> None:
    """`text` centred on `at` (x centre, baseline y, pixels), `height_mm` tall capitals,
    shrunk if needed to fit 90 % of the sheet's width."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = height_mm * k / HERSHEY_CAP_PX
    thick = max(1, round(scale * 1.6))
    (tw, _th), _ = cv2.getTextSize(text, font, scale, thick)
    if tw > 0.9 * sheet.shape[1]:
        scale *= 0.9 * sheet.shape[1] / tw
        thick = max(1, round(scale * 1.6))
        (tw, _th), _ = cv2.getTextSize(text, font, scale, thick)
    origin = (round(at[0] - tw / 2), round(at[1]))
    cv2.putText(sheet, text, origin, font, scale, 0, thick, cv2.LINE_AA)


def _draw_scale_bar(sheet: npt.NDArray[np.uint8], k: float, size_mm: tuple[float, float]) -> None:
    length = min(100.0, size_mm[0] - 20)
    x0 = round((size_mm[0] - length) / 2 * k)
    y = round((size_mm[1] - 6) * k)
    x1 = x0 + round(length * k)
    thick = max(1, round(k / 4))
    cv2.line(sheet, (x0, y), (x1, y), 0, thick)
    for x in (x0, x1):
        cv2.line(sheet, (x, y - round(2 * k)), (x, y + round(2 * k)), 0, thick)
    label = f"{length:g} mm: print at 100 % (actual size)"
    _text(sheet, label, ((x0 + x1) / 2, y - 3 * k), 2.5, k)


def _with_dpi(png: bytes, dpi: int) -> bytes:
    """Insert a pHYs chunk (pixels per metre) after the IHDR chunk."""
    ppm = round(dpi / 0.0254)
    data = struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", len(data)) + b"pHYs" + data
    chunk += struct.pack(">I", zlib.crc32(b"pHYs" + data) & 0xFFFFFFFF)
    ihdr_end = 8 + 4 + 4 + 13 + 4  # signature, length, type, IHDR data, CRC
    return png[:ihdr_end] + chunk + png[ihdr_end:]
