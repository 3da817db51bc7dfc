"""Camera calibration: image pixels <-> table millimetres.

The play area is the rectangle whose corners are the centres of the four ArUco corner
markers: 0 = (0, 0), 1 = (W, 0), 2 = (W, H), 3 = (0, H), with W x H in millimetres from
the configuration. A homography maps the table plane to the image; it is found from
the markers, or from four pixel points picked by hand when the markers cannot be used.
A calibration is a frozen value saved as JSON in the service's state directory.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from vision.calibration.aruco_markers import (
    DEFAULT_MARKER_MM,
    MARKER_IDS,
    Corner,
    MarkerSighting,
    detect_markers,
)
from vision.errors import CalibrationError, CalibrationNotFoundError, MarkersMissingError
from vision.state_file import write_json

log = logging.getLogger(__name__)

CALIBRATION_FILE: Final = "calibration.json"
FORMAT_VERSION: Final = 1
DEFAULT_TOLERANCE_MM: Final = 2.0

Matrix = npt.NDArray[np.float64]
Points = npt.NDArray[np.float64]


class CalibrationMethod(StrEnum):
    MARKERS = "markers"
    MANUAL = "manual"


@dataclass(frozen=True, slots=True)
class Calibration:
    """The table plane as the camera sees it.

    `corners_px` are the play area's corners in the image, in marker order (top-left,
    top-right, bottom-right, bottom-left); `reprojection_px` is the RMS distance between
    the detected marker corners and where this calibration puts them (0 for a manual
    calibration, which has exactly four points).
    """

    size_mm: tuple[float, float]
    image_size: tuple[int, int]  # (width, height) in pixels
    corners_px: tuple[tuple[float, float], ...]
    method: CalibrationMethod = CalibrationMethod.MANUAL
    reprojection_px: float = 0.0
    _to_px: Matrix = field(init=False, repr=False, compare=False)
    _to_mm: Matrix = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        w, h = self.size_mm
        if not (w > 0 and h > 0):
            raise CalibrationError(f"play area {w}x{h} mm: both sides must be positive")
        if len(self.corners_px) != 4:
            raise CalibrationError(f"need the play area's 4 corners, got {len(self.corners_px)}")
        quad = np.array(self.corners_px, dtype=np.float64)
        _check_convex(quad)
        to_px = _four_point_homography(_rect_mm(w, h), quad)
        object.__setattr__(self, "_to_px", to_px)
        object.__setattr__(self, "_to_mm", np.linalg.inv(to_px))

    @property
    def homography(self) -> Matrix:
        """The 3x3 matrix from table mm to image pixels (a copy)."""
        return self._to_px.copy()

    def mm_to_px(self, points: npt.ArrayLike) -> Points:
        """Table mm to pixels; `points` is one (x, y) or an array of them, shape (..., 2)."""
        return _apply(self._to_px, points)

    def px_to_mm(self, points: npt.ArrayLike) -> Points:
        """Pixels to table mm; `points` is one (x, y) or an array of them, shape (..., 2)."""
        return _apply(self._to_mm, points)

    def mm_per_px(self) -> float:
        """The mean size of one pixel on the table at the play area's centre."""
        w, h = self.size_mm
        c = self.mm_to_px([[w / 2, h / 2], [w / 2 + 1, h / 2], [w / 2, h / 2 + 1]])
        return 2.0 / float(np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[0]))

    def moved_mm(self, other: Calibration) -> float:
        """How far apart the two calibrations put the same image points, in table mm.

        The play area's corners and centre as `other` sees them are mapped back through
        this calibration; the largest error is returned.
        """
        w, h = other.size_mm
        probe = np.vstack([_rect_mm(w, h), [[w / 2, h / 2]]])
        return float(np.max(np.linalg.norm(self.px_to_mm(other.mm_to_px(probe)) - probe, axis=1)))

    def to_json(self) -> dict[str, Any]:
        return {
            "version": FORMAT_VERSION,
            "method": str(self.method),
            "size_mm": list(self.size_mm),
            "image_size": list(self.image_size),
            "corners_px": [list(p) for p in self.corners_px],
            "reprojection_px": self.reprojection_px,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Calibration:
        try:
            if data["version"] != FORMAT_VERSION:
                raise CalibrationError(f"calibration format {data['version']} is not supported")
            w, h = (float(v) for v in data["size_mm"])
            iw, ih = (int(v) for v in data["image_size"])
            return cls(
                size_mm=(w, h),
                image_size=(iw, ih),
                corners_px=tuple((float(x), float(y)) for x, y in data["corners_px"]),
                method=CalibrationMethod(data["method"]),
                reprojection_px=float(data["reprojection_px"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationError(f"calibration data is damaged ({exc}): calibrate again") from exc

    def save(self, directory: str | Path) -> Path:
        """Write `calibration.json` into `directory` (atomically); returns its path."""
        path = Path(directory) / CALIBRATION_FILE
        try:
            write_json(path, self.to_json())
        except OSError as exc:
            raise CalibrationError(f"could not save the calibration to {path}: {exc}") from exc
        log.info("calibration: saved to %s", path)
        return path

    @classmethod
    def load(cls, directory: str | Path) -> Calibration:
        """Read `calibration.json` from `directory`."""
        path = Path(directory) / CALIBRATION_FILE
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError as exc:
            raise CalibrationNotFoundError(
                f"no camera calibration in {path.parent}: calibrate with the corner markers "
                "in view, or by four points"
            ) from exc
        except OSError as exc:
            raise CalibrationError(f"could not read {path}: {exc}") from exc
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CalibrationError(f"{path} is not valid JSON ({exc}): calibrate again") from exc
        if not isinstance(data, dict):
            raise CalibrationError(f"{path} holds no calibration: calibrate again")
        return cls.from_json(data)


def calibrate_markers(
    frame: npt.NDArray[np.uint8],
    size_mm: tuple[float, float],
    marker_mm: float = DEFAULT_MARKER_MM,
) -> Calibration:
    """Calibrate from the four corner markers seen in `frame`.

    `marker_mm` is the printed side of the markers; it is only used to measure the
    reprojection error. Raises `MarkersMissingError` naming the ids not found.
    """
    found = detect_markers(frame)
    missing = tuple(i for i in MARKER_IDS if i not in found)
    if missing:
        raise MarkersMissingError(missing, tuple(sorted(found)))
    corners = tuple(found[i].centre for i in MARKER_IDS)
    h, w = frame.shape[:2]
    base = Calibration(size_mm, (w, h), corners, CalibrationMethod.MARKERS)
    error = _marker_reprojection_px(base, found, marker_mm)
    calibration = Calibration(size_mm, (w, h), corners, CalibrationMethod.MARKERS, error)
    if error > 0.1 * float(np.mean([s.side_px for s in found.values()])):
        log.warning(
            "calibration: markers fit badly (%.1f px): is marker_mm %g right, are they flat?",
            error,
            marker_mm,
        )
    log.info("calibration: from markers, %.2f mm/px, error %.2f px", base.mm_per_px(), error)
    return calibration


def calibrate_manual(
    points_px: npt.ArrayLike,
    size_mm: tuple[float, float],
    image_size: tuple[int, int],
) -> Calibration:
    """Calibrate from four pixel points: the play area's corners in marker order
    (top-left, top-right, bottom-right, bottom-left). `image_size` is (width, height)."""
    pts = np.asarray(points_px, dtype=np.float64)
    if pts.shape != (4, 2):
        raise CalibrationError(
            f"manual calibration needs four (x, y) points, got an array of shape {pts.shape}"
        )
    corners = tuple((float(x), float(y)) for x, y in pts)
    return Calibration(size_mm, image_size, corners, CalibrationMethod.MANUAL)


def calibrate_if_markers(
    frame: npt.NDArray[np.uint8],
    size_mm: tuple[float, float],
    previous: Calibration | None,
    *,
    marker_mm: float = DEFAULT_MARKER_MM,
    tolerance_mm: float = DEFAULT_TOLERANCE_MM,
) -> Calibration | None:
    """A new calibration when all four markers are seen and it differs meaningfully.

    Returns None when a marker is hidden (a hand, a glass) or when the new calibration
    moves no point of the play area by more than `tolerance_mm` from `previous`.
    """
    try:
        fresh = calibrate_markers(frame, size_mm, marker_mm)
    except MarkersMissingError as exc:
        log.debug("calibration: no re-calibration, markers %s hidden", exc.missing)
        return None
    if previous is None:
        return fresh
    if previous.size_mm != fresh.size_mm or previous.image_size != fresh.image_size:
        log.info("calibration: play area or image size changed, re-calibrated")
        return fresh
    moved = previous.moved_mm(fresh)
    if moved <= tolerance_mm:
        return None
    log.info("calibration: camera or markers moved by %.1f mm, re-calibrated", moved)
    return fresh


def _rect_mm(w: float, h: float) -> Points:
    return np.array([c.position_mm(w, h) for c in Corner], dtype=np.float64)


def _four_point_homography(src: Points, dst: Points) -> Matrix:
    """The homography taking four points onto four others, in double precision."""
    rows = []
    rhs = []
    for (x, y), (u, v) in zip(src, dst, strict=True):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs.extend([u, v])
    try:
        h = np.linalg.solve(np.array(rows, dtype=np.float64), np.array(rhs, dtype=np.float64))
    except np.linalg.LinAlgError as exc:
        raise CalibrationError("the four corners do not define a view of a plane") from exc
    return np.append(h, 1.0).reshape(3, 3)


def _apply(matrix: Matrix, points: npt.ArrayLike) -> Points:
    pts = np.asarray(points, dtype=np.float64)
    if pts.shape[-1:] != (2,):
        raise CalibrationError(f"points must have shape (..., 2), not {pts.shape}")
    flat = pts.reshape(-1, 2)
    hom = flat @ matrix[:, :2].T + matrix[:, 2]
    out: Points = hom[:, :2] / hom[:, 2:3]
    return out.reshape(pts.shape)


def _check_convex(quad: Points) -> None:
    edges = np.roll(quad, -1, axis=0) - quad
    nxt = np.roll(edges, -1, axis=0)
    cross = edges[:, 0] * nxt[:, 1] - edges[:, 1] * nxt[:, 0]
    if not (np.all(cross > 0) or np.all(cross < 0)):
        raise CalibrationError(
            "the four corners do not form a convex quadrilateral: give them in the order "
            "top-left, top-right, bottom-right, bottom-left"
        )
    area = 0.5 * abs(
        float(np.sum(quad[:, 0] * np.roll(quad[:, 1], -1) - np.roll(quad[:, 0], -1) * quad[:, 1]))
    )
    if area < 100.0:
        raise CalibrationError(f"the play area covers only {area:.0f} px^2 of the image")


def _marker_reprojection_px(
    calibration: Calibration, found: dict[int, MarkerSighting], marker_mm: float
) -> float:
    """RMS pixel distance between seen marker corners and the predicted ones.

    A marker may lie rotated on the table, so each seen corner is matched with the
    nearest predicted corner of its marker.
    """
    w, h = calibration.size_mm
    half = marker_mm / 2
    offsets = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    squared: list[float] = []
    for corner in Corner:
        centre = np.array(corner.position_mm(w, h))
        predicted = calibration.mm_to_px(centre + offsets)
        seen = np.array(found[int(corner)].corners, dtype=np.float64)
        dist = np.linalg.norm(seen[:, None, :] - predicted[None, :, :], axis=2)
        squared.extend(float(d) ** 2 for d in dist.min(axis=1))
    return float(np.sqrt(np.mean(squared)))
