"""Tiles of the enrolled set that the detector missed, found by the set's own look.

With a set model and a calibrated camera, the set's face colour and the tile's size in
pixels are known. What has the face's colour (Lab distance under `FACE_NEAR`), closed
over its pips, in a blob of one tile's size and shape (area within `AREA` of a tile's,
about twice as long as wide, filling its rectangle) that no tile read lies on, is a
tile: its halves are read by the set's own halves (`HalfMatcher`), and it is kept
only when both halves look like the set's halves of some number: nearer to it than
`NEAR_HALF` of what lies between two numbers of the set (`apart`). A lone pink tile
on a wooden table, which the detector's search can miss in a large play area, is
found this way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Final

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.detector.results import Detection, FoundTile, Point
from vision.set_model.halves import HalfMatcher, crop_half

__all__ = ["find_missed"]

FACE_NEAR: Final = 16.0  # Lab units from the set's face colour
AREA: Final = (0.6, 1.5)  # a blob's area over one tile's
ASPECT: Final = (1.6, 2.5)
FILL: Final = 0.8  # of its rotated rectangle
NEAR_HALF: Final = 0.75  # a half's distance over the set's own between two numbers
CLEAR: Final = 1.1  # ... and the next number this much further


def _lab(bgr: NDArray[np.uint8]) -> NDArray[np.float32]:
    return np.asarray(cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab), dtype=np.float32)


def find_missed(
    image: NDArray[np.uint8],
    detection: Detection,
    matcher: HalfMatcher,
    face_bgr: tuple[float, float, float],
    tile_px: float,
    area: Sequence[Point] | None,
    apart: float,
) -> Detection:
    """`detection` with the tiles of the set's look it missed (`tile_px`: the tile's
    width in pixels; `area`: the play area's corners, pixels; `apart`: how far the
    set's halves of one number lie from those of the next, `apart`)."""
    if tile_px <= 4 or apart <= 0:
        return detection
    face = _lab(np.array([[face_bgr]], dtype=np.uint8).reshape(1, 1, 3)).reshape(3)
    near = (np.linalg.norm(_lab(image) - face, axis=2) < FACE_NEAR).astype(np.uint8)
    if area is not None:
        inside = np.zeros_like(near)
        cv2.fillPoly(inside, [np.round(np.asarray(area)).astype(np.int32)], 1)
        near &= inside
    k = max(3, round(0.35 * tile_px) | 1)
    near = cv2.morphologyEx(near, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(near, connectivity=8)
    one = 2.0 * tile_px * tile_px
    found = list(detection.tiles)
    for i in range(1, n):
        blob_area = float(stats[i, cv2.CC_STAT_AREA])
        if not AREA[0] * one <= blob_area <= AREA[1] * one:
            continue
        ys, xs = np.nonzero(labels == i)
        (cx, cy), (w, h), angle = cv2.minAreaRect(np.column_stack([xs, ys]).astype(np.float32))
        long_, short = max(w, h), min(w, h)
        if short <= 0 or not ASPECT[0] <= long_ / short <= ASPECT[1]:
            continue
        if blob_area < FILL * long_ * short:
            continue
        if any(np.hypot(*np.subtract(_mid(t), (cx, cy))) < tile_px for t in found):
            continue  # a tile read lies there
        theta = np.radians(angle if w >= h else angle + 90.0)
        ux, uy = np.cos(theta) * long_ / 4, np.sin(theta) * long_ / 4
        a, b = (float(cx - ux), float(cy - uy)), (float(cx + ux), float(cy + uy))
        near_a = matcher.nearest(crop_half(image, a, b))
        near_b = matcher.nearest(crop_half(image, b, a))
        da, db = near_a.distances[near_a.value], near_b.distances[near_b.value]
        if max(da, db) > NEAR_HALF * apart or min(near_a.margin, near_b.margin) < CLEAR:
            continue
        found.append(FoundTile((near_a.value, near_b.value), (a, b), 0.5))
    if len(found) == len(detection.tiles):
        return detection
    return replace(detection, tiles=tuple(found))


def _mid(t: FoundTile) -> Point:
    (xa, ya), (xb, yb) = t.px
    return ((xa + xb) / 2, (ya + yb) / 2)


def apart(crops: Sequence[tuple[int, NDArray[np.uint8]]]) -> float:
    """How far a half of the set lies from the nearest half of another number (the
    median over its crops): the scale `find_missed` judges a half by."""
    out = []
    values = {v for v, _ in crops}
    for value in values:
        mine = [c for v, c in crops if v == value]
        others = [(v, c) for v, c in crops if v != value]
        if not others:
            continue
        matcher = HalfMatcher(others)
        out += [min(matcher.nearest(c).distances.values()) for c in mine[:2]]
    return float(np.median(out)) if out else 0.0
