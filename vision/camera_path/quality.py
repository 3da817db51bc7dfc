"""How well the camera sees the table: measurements of one frame, and their warnings.

`measure(image, ...)` looks at one still frame the camera path read and returns `Looks`:

- the corner markers in view (ArUco ids 0-3);
- glare: the share of the play area washed out by a lamp's reflection: brighter than
  the surface around it by far more than the light's own fall-off (a top-hat of the
  frame's brightness with the tiles, the markers and anything smaller than a tile
  taken out), or clipped to white;
- dark: how bright the brightest one per cent of the play area is (the markers'
  white paper, the tiles' faces);
- blur: how wide a sharp edge is drawn, in pixels (the standard deviation of the
  blur that would draw a step as the frame shows it), measured on the markers'
  black-and-white edges, else on the frame's strongest edges;
- tile scale: how long the tiles are, in mm, against the configured size (from the
  detector's tile width).

`judge(looks, limits, ...)` turns them into `CameraWarning`s (spec/mqtt.md's
`camera/status` codes). `SLOW` is not a frame's: the service judges it from its times.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

import cv2
import numpy as np
import numpy.typing as npt

from engine.surface import Snapshot
from vision.calibration.aruco_markers import MarkerSighting, detect_markers
from vision.calibration.homography import Calibration, CalibrationMethod
from vision.camera_path.outlines import Outlines, Polygon
from vision.detector.results import Detection

__all__ = ["CameraWarning", "Limits", "Looks", "judge", "measure"]

Grey = npt.NDArray[np.uint8]
Point = tuple[float, float]
THUMB_PX = 200  # glare and brightness are measured on a thumbnail about this wide
MARKER_IDS = (0, 1, 2, 3)


class CameraWarning(StrEnum):
    """What can be wrong with what the camera sees (`camera/status` `warnings[].code`)."""

    MARKERS_MISSING = "MARKERS_MISSING"
    GLARE = "GLARE"
    BLUR = "BLUR"
    DARK = "DARK"
    TILE_SCALE = "TILE_SCALE"
    SLOW = "SLOW"


@dataclass(frozen=True, slots=True)
class Limits:
    """Where a measurement becomes a warning.

    `glare_share`: washed-out share of the play area; `dark_level`: grey level (0-255)
    the brightest one per cent of the play area must reach; `blur_of_tile`: an edge's
    blur, as a share of a tile's width in pixels (at 1280x960 over a 900 mm table, a
    tile 24 mm wide is about 28 px: 1.8 px; the detector stops reading pips at about
    2 px there); `blur_px`: the same limit without a calibration; `tile_scale`: how far
    the tiles' measured length may stray from the configured one (a share of it).
    """

    glare_share: float = 0.005
    dark_level: float = 60.0
    blur_of_tile: float = 0.065
    blur_px: float = 1.8
    tile_scale: float = 0.15


@dataclass(frozen=True, slots=True)
class Looks:
    """What one frame shows of the camera's set-up (positions in the reading's unit:
    mm on a calibrated frame, else pixels)."""

    size: tuple[int, int]  # the frame's width and height
    markers: tuple[MarkerSighting, ...]  # the corner markers in view, by id
    glare_share: float  # of the play area
    glare_at: Point | None  # the middle of the largest glare
    white_level: float  # grey level of the brightest 1 % of the play area
    blur_px: float | None  # None: no edge to measure
    blur_limit_px: float
    tile_length_mm: float | None  # None: uncalibrated, or no tile seen

    @property
    def markers_seen(self) -> tuple[int, ...]:
        return tuple(sorted(m.marker_id for m in self.markers))

    @property
    def markers_missing(self) -> tuple[int, ...]:
        return tuple(i for i in MARKER_IDS if i not in self.markers_seen)


def measure(
    image: npt.NDArray[np.uint8],
    *,
    calibration: Calibration | None,
    reading: Snapshot | None = None,
    detection: Detection | None = None,
    tile_mm: tuple[float, float] = (48.0, 24.0),
    marker_mm: float = 40.0,
    limits: Limits | None = None,
) -> Looks:
    """Measure one frame (BGR). `reading` and `detection` are what the camera path made
    of it (None: not read); the calibration maps the reading back onto the frame."""
    limits = limits or Limits()
    grey = np.asarray(
        image if image.ndim == 2 else cv2.cvtColor(image[:, :, :3], cv2.COLOR_BGR2GRAY),
        dtype=np.uint8,
    )
    h, w = grey.shape[:2]
    markers = _markers(image, calibration, marker_mm)
    width = _tile_width(calibration, detection, tile_mm)
    outlines = Outlines(calibration, tile_mm[1] if calibration is not None else width)
    covered = _covered(markers, calibration, marker_mm, reading, outlines)
    scale = max(1, round(w / THUMB_PX))
    thumb = np.asarray(
        cv2.resize(grey, (w // scale, h // scale), interpolation=cv2.INTER_AREA), dtype=np.uint8
    )
    area = _area_mask(thumb.shape, calibration, scale)
    share, at_px = _glare(thumb, area & ~_mask(thumb.shape, covered, scale), 2 * width / scale)
    glare_at = None
    if at_px is not None:
        glare_at = _to_reading((at_px[0] * scale, at_px[1] * scale), calibration)
    return Looks(
        size=(w, h),
        markers=markers,
        glare_share=share,
        glare_at=glare_at,
        white_level=float(np.percentile(thumb[area], 99)) if area.any() else 0.0,
        blur_px=_edge_blur(grey, markers),
        blur_limit_px=limits.blur_of_tile * width if calibration else limits.blur_px,
        tile_length_mm=_tile_length(reading, detection, calibration, tile_mm),
    )


def judge(
    looks: Looks,
    limits: Limits | None = None,
    *,
    tile_mm: tuple[float, float] = (48.0, 24.0),
    calibration: CalibrationMethod | None = None,
) -> tuple[CameraWarning, ...]:
    """The warnings `looks` gives, in `CameraWarning` order. Missing markers are no
    warning on a table calibrated by corners set by hand (it needs none)."""
    limits = limits or Limits()
    out: list[CameraWarning] = []
    if looks.markers_missing and calibration is not CalibrationMethod.MANUAL:
        out.append(CameraWarning.MARKERS_MISSING)
    if looks.glare_share > limits.glare_share:
        out.append(CameraWarning.GLARE)
    if looks.blur_px is not None and looks.blur_px > looks.blur_limit_px:
        out.append(CameraWarning.BLUR)
    if looks.white_level < limits.dark_level:
        out.append(CameraWarning.DARK)
    length = looks.tile_length_mm
    if length is not None and abs(length / tile_mm[0] - 1) > limits.tile_scale:
        out.append(CameraWarning.TILE_SCALE)
    return tuple(out)


# --- the parts --------------------------------------------------------------------------


def _markers(
    image: npt.NDArray[np.uint8], calibration: Calibration | None, marker_mm: float
) -> tuple[MarkerSighting, ...]:
    """The corner markers in view, by id: looked for around the play area's corners on a
    calibrated frame (a marker moved further than a marker's width is not found there),
    else in the whole frame."""
    if calibration is None:
        found = detect_markers(image)
    else:
        found = {}
        for corner in _corner_boxes(image.shape, calibration, marker_mm):
            x0, y0, x1, y1 = corner
            for m in detect_markers(image[y0:y1, x0:x1]).values():
                found.setdefault(m.marker_id, _moved(m, x0, y0))
    return tuple(sorted(found.values(), key=lambda m: m.marker_id))


def _corner_boxes(
    shape: tuple[int, ...], calibration: Calibration, marker_mm: float
) -> list[tuple[int, int, int, int]]:
    h, w = shape[:2]
    size_w, size_h = calibration.size_mm
    r = 2.0 * marker_mm
    boxes = []
    for cx, cy in ((0.0, 0.0), (size_w, 0.0), (size_w, size_h), (0.0, size_h)):
        pts = np.asarray(
            calibration.mm_to_px(
                [(cx - r, cy - r), (cx + r, cy + r), (cx - r, cy + r), (cx + r, cy - r)]
            )
        )
        x0, y0 = (max(0, int(v)) for v in pts.min(axis=0))
        x1, y1 = int(min(w, pts[:, 0].max() + 1)), int(min(h, pts[:, 1].max() + 1))
        if x1 - x0 > 8 and y1 - y0 > 8:
            boxes.append((x0, y0, x1, y1))
    return boxes


def _moved(m: MarkerSighting, dx: int, dy: int) -> MarkerSighting:
    return MarkerSighting(m.marker_id, tuple((x + dx, y + dy) for x, y in m.corners))


def _tile_width(
    calibration: Calibration | None, detection: Detection | None, tile_mm: tuple[float, float]
) -> float:
    """A tile's width in pixels: from the calibration, else the detector's estimate."""
    if calibration is not None:
        return tile_mm[1] / calibration.mm_per_px()
    if detection is not None and detection.tile_width_px > 0:
        return detection.tile_width_px
    return 30.0


def _covered(
    markers: Sequence[MarkerSighting],
    calibration: Calibration | None,
    marker_mm: float,
    reading: Snapshot | None,
    outlines: Outlines,
) -> list[Polygon]:
    """What is not the table's surface: the markers with their paper, the tiles read."""
    out: list[Polygon] = []
    for m in markers:  # the paper reaches half a side beyond the black square
        c = np.asarray(m.corners, dtype=np.float64)
        centre = c.mean(axis=0)
        out.append(tuple((float(x), float(y)) for x, y in centre + (c - centre) * 2.0))
    if calibration is not None:
        side = Outlines(calibration, marker_mm)
        size_w, size_h = calibration.size_mm
        for cx, cy in ((0.0, 0.0), (size_w, 0.0), (size_w, size_h), (0.0, size_h)):
            r = marker_mm
            out.append(side.rectangle(cx - r, cy - r, cx + r, cy + r))
    if reading is not None:
        grow = outlines.tile_width / 6
        out.extend(outlines.tile(t, grow) for t in reading.tiles)
    return out


def _mask(shape: tuple[int, ...], polygons: Sequence[Polygon], scale: int) -> npt.NDArray[np.bool_]:
    mask = np.zeros(shape[:2], dtype=np.uint8)
    for polygon in polygons:
        pts = np.rint(np.asarray(polygon, dtype=np.float64) / scale).astype(np.int32)
        cv2.fillPoly(mask, [pts], 1)
    return mask > 0


def _area_mask(
    shape: tuple[int, ...], calibration: Calibration | None, scale: int
) -> npt.NDArray[np.bool_]:
    """The play area on the thumbnail (the whole frame when uncalibrated)."""
    if calibration is None:
        return np.ones(shape[:2], dtype=bool)
    return _mask(shape, [tuple(calibration.corners_px)], scale)


def _glare(
    thumb: Grey, surface: npt.NDArray[np.bool_], tile_len: float
) -> tuple[float, Point | None]:
    """The share of `surface` (a mask of the thumbnail) washed out, and the middle of
    the largest washed-out region (thumbnail pixels)."""
    if surface.sum() < 50:
        return 0.0, None
    level = float(np.median(thumb[surface]))
    filled = np.where(surface, thumb, level).astype(np.float32)
    k = max(3, 2 * round(0.75 * tile_len) + 1)  # wider than a tile: tiles go, glare stays
    opened = cv2.morphologyEx(filled, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    background = cv2.GaussianBlur(opened, (0, 0), thumb.shape[1] / 6)
    excess = opened - background
    clipped = cv2.erode(filled, np.ones((3, 3), np.uint8)) >= 250
    spot = ((excess > np.maximum(30.0, 0.25 * background)) | clipped) & surface
    share = float(spot.sum()) / float(surface.sum())
    if not spot.any():
        return share, None
    count, _, stats, centres = cv2.connectedComponentsWithStats(spot.astype(np.uint8))
    largest = 1 + int(np.argmax(stats[1:count, cv2.CC_STAT_AREA]))
    return share, (float(centres[largest][0]), float(centres[largest][1]))


def _edge_blur(grey: Grey, markers: Sequence[MarkerSighting]) -> float | None:
    """The blur of the sharpest edges: the markers' when any is seen, else the frame's."""
    if not markers:
        return _blur_of(grey)
    h, w = grey.shape[:2]
    found: list[float] = []
    for m in markers:
        c = np.asarray(m.corners, dtype=np.float64)
        pad = 0.5 * m.side_px
        x0, y0 = (max(0, int(v - pad)) for v in c.min(axis=0))
        x1, y1 = int(min(w, c[:, 0].max() + pad)), int(min(h, c[:, 1].max() + pad))
        sigma = _blur_of(grey[y0:y1, x0:x1])
        if sigma is not None:
            found.append(sigma)
    return statistics.median(found) if found else _blur_of(grey)


PRE_BLUR = 1.0  # smoothing before the gradient (noise), taken out again after
WINDOW = 17  # px: an edge's two sides are looked for this far around it


def _blur_of(grey: Grey) -> float | None:
    """The blur (Gaussian sigma, px) of a patch's step edges, or None with too few.

    A step of height c blurred by sigma has its steepest slope c / (sigma sqrt(2 pi)):
    at each of the patch's strongest edge points, c is the range of grey around it and
    the slope the gradient there."""
    if grey.shape[0] < WINDOW or grey.shape[1] < WINDOW:
        return None
    g = grey.astype(np.float32)
    smooth = cv2.GaussianBlur(g, (0, 0), PRE_BLUR)
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3) / 8
    slope = cv2.magnitude(gx, gy)
    box = np.ones((WINDOW, WINDOW), np.uint8)
    contrast = cv2.dilate(g, box) - cv2.erode(g, box)
    flat = slope.ravel()
    rank = max(0, flat.size - max(300, flat.size // 200))  # the top 0.5 %, at least 300
    strong = slope >= np.partition(flat, rank)[rank]
    peaks = strong & (slope >= cv2.dilate(slope, np.ones((3, 3), np.uint8))) & (contrast > 24)
    if int(peaks.sum()) < 20:
        return None
    total = contrast[peaks] / (slope[peaks] * math.sqrt(2 * math.pi))
    sigma = np.sqrt(np.maximum(total**2 - PRE_BLUR**2, 0.0))
    return float(np.median(sigma))


def _tile_length(
    reading: Snapshot | None,
    detection: Detection | None,
    calibration: Calibration | None,
    tile_mm: tuple[float, float],
) -> float | None:
    """The tiles' length in mm, None when uncalibrated or no tile is seen: from the
    detector's own tile width where it saw any tile (read or not: tiles much larger or
    smaller than configured are often left unsure), else from the tiles read (twice
    their half centres' distance; those read by the configured size measure it)."""
    if calibration is None:
        return None
    if (
        detection is not None
        and detection.tile_width_px > 0
        and (detection.tiles or detection.unsure)
    ):
        return detection.tile_width_px * calibration.mm_per_px() * tile_mm[0] / tile_mm[1]
    if reading is not None and reading.tiles:
        return statistics.median(2 * math.hypot(t.xb - t.xa, t.yb - t.ya) for t in reading.tiles)
    return None


def _to_reading(p: Point, calibration: Calibration | None) -> Point:
    if calibration is None:
        return p
    x, y = np.asarray(calibration.px_to_mm(p), dtype=np.float64).reshape(2)
    return (float(x), float(y))
