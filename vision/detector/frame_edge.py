"""Tiles cut by the frame's edge: seen in part, so read in part.

A tile whose outline reaches beyond the edge of the frame shows only some of its
pips (a 6 cut in half reads as a 3); its reading is a guess. Such a tile is reported
as an unsure place, not as a tile.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.detector.planes import Found
from vision.detector.results import FoundTile, UnsureReason, UnsureRegion


def outline(tile: FoundTile) -> np.ndarray:
    """The four corners of a found tile (from its half centres: a tile is twice as
    long as the distance between them, and as wide)."""
    a, b = np.asarray(tile.px[0], dtype=np.float64), np.asarray(tile.px[1], dtype=np.float64)
    along = b - a
    width = float(np.hypot(*along))
    if width <= 0:
        return np.array([a, a, a, a])
    u = along / width
    d = np.array([-u[1], u[0]]) * width / 2.0
    ends = (a - u * width / 2.0, b + u * width / 2.0)
    return np.array([ends[0] + d, ends[1] + d, ends[1] - d, ends[0] - d])


def cut_by_frame(found: Found, size: tuple[int, int], slack_share: float = 0.15) -> Found:
    """`found` with every tile whose outline reaches past the edge of a frame of
    `size` (width, height) by more than `slack_share` of its width (a rounded
    corner, blur: `Settings.cut_slack`) moved to the unsure
    places."""
    w, h = size
    tiles: list[FoundTile] = []
    unsure = list(found.unsure)
    for tile in found.tiles:
        corners = outline(tile)
        slack = slack_share * float(np.hypot(*np.subtract(tile.px[1], tile.px[0])))
        inside = (
            (corners[:, 0] >= -slack).all()
            and (corners[:, 1] >= -slack).all()
            and (corners[:, 0] <= w - 1 + slack).all()
            and (corners[:, 1] <= h - 1 + slack).all()
        )
        if inside:
            tiles.append(tile)
        else:
            x, y = corners.mean(axis=0)
            unsure.append(UnsureRegion(float(x), float(y), UnsureReason.CUT))
    if len(tiles) == len(found.tiles):
        return found
    return replace(found, tiles=tiles, unsure=unsure)
