"""Where a reading's tiles, unsure places and zones lie in the frame, in pixels.

A reading (`engine.surface.Snapshot`) is in table millimetres on a calibrated frame and
in pixels on an uncalibrated one; `Outlines` maps either back onto the frame, so the
view can draw on it and the measurements can leave the tiles out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.surface import SeenTile
from vision.calibration.homography import Calibration

__all__ = ["Outlines", "Polygon"]

Point = tuple[float, float]
Polygon = tuple[Point, ...]


@dataclass(frozen=True, slots=True)
class Outlines:
    """Maps a reading's places onto the frame.

    `calibration`: the reading is in mm and maps through it (None: the reading is in
    pixels already); `tile_width`: a tile's width in the reading's unit (mm, or pixels
    when uncalibrated).
    """

    calibration: Calibration | None
    tile_width: float

    def points(self, points_mm: Sequence[Point]) -> npt.NDArray[np.float64]:
        """Points of the reading's unit as frame pixels, shape (n, 2)."""
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 2)
        if self.calibration is None:
            return pts
        return np.asarray(self.calibration.mm_to_px(pts), dtype=np.float64).reshape(-1, 2)

    def tile(self, tile: SeenTile, grow: float = 0.0) -> Polygon:
        """The tile's face as four frame pixels; `grow` widens it on every side (unit
        of the reading)."""
        ax, ay, bx, by = tile.xa, tile.ya, tile.xb, tile.yb
        half = math.hypot(bx - ax, by - ay)
        if half <= 0:
            ux, uy = 1.0, 0.0
            half = self.tile_width
        else:
            ux, uy = (bx - ax) / half, (by - ay) / half
        cx, cy = (ax + bx) / 2, (ay + by) / 2
        along = half + grow  # the half centres lie half a tile apart: the face, that either side
        across = self.tile_width / 2 + grow
        corners = [
            (cx + sa * along * ux - sc * across * uy, cy + sa * along * uy + sc * across * ux)
            for sa, sc in ((-1, -1), (1, -1), (1, 1), (-1, 1))
        ]
        return _polygon(self.points(corners))

    def rectangle(self, x0: float, y0: float, x1: float, y1: float) -> Polygon:
        """An axis-aligned rectangle of the reading's unit (a seat zone) in pixels."""
        return _polygon(self.points([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]))

    def radius_px(self, at: Point, length: float) -> float:
        """About how many pixels `length` (the reading's unit) spans at `at`."""
        a, b = self.points([at, (at[0] + length, at[1])])
        return float(np.hypot(*(b - a)))


def _polygon(pts: npt.NDArray[np.float64]) -> Polygon:
    return tuple((float(x), float(y)) for x, y in pts)
