"""The play area: the part of the frame where tiles count as played.

A play area is a polygon in pixels (a rectangle is four corners). Detection works on
the polygon's bounding box plus a margin, so tiles on its edge are seen whole, and
keeps only tiles whose centre lies inside the polygon: pictures of dominoes printed
outside it (a score track) never become plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class PlayArea:
    """A polygon in frame pixels, corners in order."""

    corners: tuple[Point, ...]

    @classmethod
    def rect(cls, x0: float, y0: float, x1: float, y1: float) -> PlayArea:
        """The axis-aligned rectangle from (x0, y0) to (x1, y1)."""
        return cls(((x0, y0), (x1, y0), (x1, y1), (x0, y1)))

    @classmethod
    def parse(cls, text: str) -> PlayArea:
        """`x0,y0,x1,y1` as on the command line."""
        parts = text.split(",")
        if len(parts) != 4:
            raise ValueError(f"play area {text!r}: expected x0,y0,x1,y1")
        try:
            x0, y0, x1, y1 = (float(p) for p in parts)
        except ValueError as exc:
            raise ValueError(f"play area {text!r}: expected four numbers x0,y0,x1,y1") from exc
        if x1 <= x0 or y1 <= y0:
            raise ValueError(f"play area {text!r}: x1 and y1 must exceed x0 and y0")
        return cls.rect(x0, y0, x1, y1)

    @classmethod
    def of(cls, area: PlayArea | Sequence[float] | Sequence[Point]) -> PlayArea:
        """A play area from itself, `(x0, y0, x1, y1)`, or a sequence of corners."""
        if isinstance(area, PlayArea):
            return area
        items = list(area)
        if len(items) == 4 and all(isinstance(v, int | float) for v in items):
            x0, y0, x1, y1 = (float(v) for v in items)  # type: ignore[arg-type]
            return cls.rect(x0, y0, x1, y1)
        return cls(tuple((float(p[0]), float(p[1])) for p in items))  # type: ignore[index]

    def __post_init__(self) -> None:
        if len(self.corners) < 3:
            raise ValueError("a play area needs at least three corners")

    def contains(self, x: float, y: float) -> bool:
        """True when (x, y) lies inside the polygon or on its edge."""
        contour = np.asarray(self.corners, dtype=np.float32).reshape(-1, 1, 2)
        return float(cv2.pointPolygonTest(contour, (float(x), float(y)), False)) >= 0

    def box(self, width: int, height: int, margin: int) -> tuple[int, int, int, int]:
        """The bounding box plus `margin`, clipped to a width x height frame."""
        pts = np.asarray(self.corners, dtype=np.float64)
        x0 = max(0, int(np.floor(pts[:, 0].min())) - margin)
        y0 = max(0, int(np.floor(pts[:, 1].min())) - margin)
        x1 = min(width, int(np.ceil(pts[:, 0].max())) + margin)
        y1 = min(height, int(np.ceil(pts[:, 1].max())) + margin)
        return x0, y0, x1, y1

    def mask(self, box: tuple[int, int, int, int], margin: int) -> NDArray[np.uint8]:
        """1 inside the polygon grown by `margin` pixels, in the box's coordinates."""
        x0, y0, x1, y1 = box
        out = np.zeros((y1 - y0, x1 - x0), dtype=np.uint8)
        pts = np.asarray(self.corners, dtype=np.float64) - np.array([x0, y0])
        cv2.fillPoly(out, [np.rint(pts).astype(np.int32)], 1)
        if margin > 0:
            kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * margin + 1, 2 * margin + 1))
            out = np.asarray(cv2.dilate(out, kernel), dtype=np.uint8)
        return out
