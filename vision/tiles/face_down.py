"""Face-down tiles: blank tile-shaped regions left over after the face-up tiles.

A face-down tile has no divider, so it is found by shape: a solid region of tile
material the size of a tile (width x 2 width) with no marks on it. Tile-shaped
regions that do carry marks but gave no readable tile are reported as unsure.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.tiles.dark_marks import nonzero
from vision.tiles.dividers import TileHypothesis
from vision.tiles.settings import FACE_DOWN, FaceDownSettings

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Leftover:
    """A tile-shaped region that is not a face-up tile."""

    x: float
    y: float
    marked: bool  # it carries marks: an unreadable tile rather than a face-down one


def erase_tiles(
    tile: NDArray[np.bool_], tiles: list[TileHypothesis], grow: float = 1.1
) -> NDArray[np.uint8]:
    """The tile mask with the found face-up tiles (slightly grown) blanked out."""
    out = tile.astype(np.uint8)
    for t in tiles:
        rect = ((t.cx, t.cy), (2.0 * t.width * grow, t.width * grow), _angle(t))
        box = np.rint(cv2.boxPoints(rect)).astype(np.int32)
        cv2.fillPoly(out, [box], 0)
    return out


def _angle(t: TileHypothesis) -> float:
    return float(np.degrees(np.arctan2(t.ny, t.nx)))


def leftovers(
    tile: NDArray[np.bool_],
    marks: NDArray[np.uint8],
    found: list[TileHypothesis],
    width: float,
    cfg: FaceDownSettings = FACE_DOWN,
) -> list[Leftover]:
    """Tile-shaped regions of tile material that no found tile explains."""
    if width <= 0:
        return []
    rest = erase_tiles(tile, found, cfg.erase_grow)
    # a little opening cuts thin bridges to touching clutter
    k = max(3, int(width * cfg.opening) | 1)
    rest = np.asarray(
        cv2.morphologyEx(rest, cv2.MORPH_OPEN, np.ones((k, k), np.uint8)), dtype=np.uint8
    )
    # labelled without OpenCV's statistics (a pass over every pixel): the few
    # components of a tile's size are measured from their own pixels
    count, labels_raw = cv2.connectedComponents(rest, connectivity=4)
    labels = np.asarray(labels_raw, dtype=np.int32)
    ys, xs = nonzero(rest)
    lab = labels[ys, xs]
    want = 2.0 * width * width
    areas = np.bincount(lab, minlength=int(count)).astype(np.float64)
    sized = np.flatnonzero(np.abs(areas - want) <= cfg.area_tolerance * want)
    out: list[Leftover] = []
    for i in sized[sized > 0]:
        area = float(areas[i])
        own = lab == i
        cxs, cys = xs[own], ys[own]
        x, y = int(cxs.min()), int(cys.min())
        w, h = int(cxs.max()) - x + 1, int(cys.max()) - y + 1
        comp = np.asarray(labels[y : y + h, x : x + w] == i, dtype=np.uint8)
        pts = np.asarray(cv2.findNonZero(comp), dtype=np.float32)
        (_, _), (rw, rh), _ = cv2.minAreaRect(pts)
        long_side, short_side = max(rw, rh), min(rw, rh)
        if abs(long_side - 2 * width) > cfg.size_tolerance * 2 * width:
            continue
        if abs(short_side - width) > cfg.size_tolerance * width:
            continue
        if area < cfg.min_fill * long_side * short_side:
            continue
        inner = np.asarray(cv2.erode(comp, np.ones((3, 3), np.uint8)), dtype=np.bool_)
        marked = float(marks[y : y + h, x : x + w][inner].mean()) > cfg.max_marked_share
        cx, cy = float(cxs.sum()) / area, float(cys.sum()) / area
        out.append(Leftover(cx, cy, marked))
    return out
