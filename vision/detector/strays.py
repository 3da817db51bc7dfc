"""What no tile found explains: stray pips, unclaimed tile material.

Pips outside every tile found belong to a tile that was not read (`stray_pips`,
grouped into unsure places by `stray_places`); tile material no tile claims may hold
one (`room`), and the share of the material the tiles read cover says how well a
reading explains the frame (`explained_share`).
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.detector.planes import Box, Found, Planes
from vision.detector.results import Point, UnsureReason, UnsureRegion
from vision.detector.settings import SearchSettings
from vision.pips.counting import in_half, pip_area, round_blobs
from vision.tiles.dark_marks import components
from vision.tiles.dividers import TileHypothesis
from vision.tiles.outline import inside


def stray_pips(planes: Planes, found: Found) -> list[Point]:
    """The pips that no tile found explains, in the search image.

    A round mark of a pip's size on tile material is a pip; pips outside every tile
    found (and every place already unsure) belong to a tile that was not read: its
    divider did not show (glare, a tile touching others on a table of its own tone).
    The snapshot must then not be judged as if that tile were not there (see
    `stray_places`). Printed figures on a board (round digits) are much paler than
    pips: a stray pip must be nearly as dark as the pips read.
    """
    b = planes.blobs
    cfg = planes.s
    ref = (
        pip_area(b, found.read, cfg.pips) if found.read else float(np.pi * (planes.pip / 2.0) ** 2)
    )
    if ref <= 0:
        return []
    pip = round_blobs(b, cfg.pips) & (b.area >= 0.5 * ref) & (b.area <= 2.0 * ref)
    pip[0] = False
    read = [in_half(b, t, side, cfg.pips) for t in found.read for side in (0, 1)]
    counted = np.concatenate(read) if read else np.flatnonzero(pip)
    if counted.size:
        pip &= b.darkness >= cfg.search.stray_darkness * float(np.median(b.darkness[counted]))
    idx = np.flatnonzero(pip)
    return [
        (float(x), float(y))
        for x, y in zip(b.cx[idx], b.cy[idx], strict=True)
        if not any(inside(x, y, t) for t in found.kept)
    ]


def stray_places(pips: list[Point], reach: float, cfg: SearchSettings) -> list[Point]:
    """Stray pips grouped: two or more within `reach` of each other (through one
    another) make one place, at their mean (in the order of each group's first
    pip)."""
    if len(pips) < cfg.stray_pips or reach <= 0:
        return []
    x, y = np.array([p[0] for p in pips]), np.array([p[1] for p in pips])
    group = _groups(x, y, reach)
    out: list[Point] = []
    for g in np.unique(group):
        members = group == g
        if members.sum() >= cfg.stray_pips:
            out.append((float(x[members].mean()), float(y[members].mean())))
    return out


def near_pairs(
    x: NDArray[np.float64], y: NDArray[np.float64], reach: float
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Every pair of points (indices i, j) within `reach` of each other. A sweep along
    x: the points sorted by x, each compared with the next k-th until none is within
    `reach` in x; the cost grows with the points and how many lie within a `reach`
    of each other in x, not with their square (a textured table's thousands of
    pip-like marks)."""
    order = np.argsort(x, kind="stable")
    xs, ys = x[order], y[order]
    firsts: list[NDArray[np.intp]] = []
    seconds: list[NDArray[np.intp]] = []
    for k in range(1, xs.size):
        dx = xs[k:] - xs[:-k]
        ahead = dx <= reach
        if not ahead.any():
            break  # sorted: no point k or more further on is within reach in x
        close = ahead & (np.hypot(dx, ys[k:] - ys[:-k]) <= reach)
        i = np.flatnonzero(close)
        firsts.append(order[i])
        seconds.append(order[i + k])
    if not firsts:
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty
    return np.concatenate(firsts), np.concatenate(seconds)


def _groups(x: NDArray[np.float64], y: NDArray[np.float64], reach: float) -> NDArray[np.intp]:
    """Each point's group (points within `reach`, through one another): the lowest
    index in it. Labels spread along the pairs and jump to their label's label
    until nothing changes."""
    a, b = near_pairs(x, y, reach)
    group = np.arange(x.size)
    while True:
        before = group.copy()
        np.minimum.at(group, a, group[b])
        np.minimum.at(group, b, group[a])
        group = group[group]
        if (group == before).all():
            return group


def stray_reach(found: Found, cfg: SearchSettings) -> float:
    """How far apart stray pips may lie and belong together."""
    return cfg.stray_reach * (found.width if found.width > 0 else cfg.pip_widths * found.pip)


def with_strays(best: Found, worse: Found, offset: Point, cfg: SearchSettings) -> Found:
    """`best` with the stray pips of `worse` that lie outside `best`'s tiles too, and
    the places `worse` found a tile it could not read (marks that are not pips, a
    covered tile) outside them: both looked at the same table (a lone wooden 6-6 on
    white cloth whose pips merged is no tile to either, but the darker search sees
    its outline)."""
    ox, oy = offset

    def outside(x: float, y: float, tiles: list[TileHypothesis]) -> bool:
        return not any(inside(x - ox, y - oy, t) for t in tiles)

    pips = best.stray + [(x, y) for x, y in worse.stray if outside(x, y, best.kept)]
    unsure = [u for u in best.unsure if u.reason is not UnsureReason.STRAY_PIPS]
    unsure += [
        u
        for u in worse.unsure
        if u.reason is not UnsureReason.STRAY_PIPS and outside(u.x, u.y, best.read)
    ]
    unsure += [
        UnsureRegion(x, y, UnsureReason.STRAY_PIPS)
        for x, y in stray_places(pips, stray_reach(best, cfg), cfg)
    ]
    return replace(best, unsure=unsure, stray=pips)


def room(tile: NDArray[np.bool_], found: Found, cfg: SearchSettings) -> list[Box] | None:
    """Where tile material (with its marks filled in) is left that no tile found
    claims and that could hold a tile, as boxes grown by a tile width; None when no
    tile was found (no width: look everywhere). Slivers between tiles and rims drop
    out. Worked out at a lower resolution (a tile still 8 px wide or more)."""
    w = found.width
    if not found.kept or w <= 0:
        return None
    f = int(np.clip(w // 8, 1, 4))
    h, wd = tile.shape
    small = cv2.resize(tile.astype(np.uint8), (max(1, wd // f), max(1, h // f)))
    claimed = np.zeros(small.shape, dtype=np.uint8)
    for t in found.kept:
        cv2.fillConvexPoly(claimed, np.rint(rectangle(t, 1.05) / f).astype(np.int32), 1)
    free = np.asarray((small > 0) & (claimed == 0), dtype=np.uint8)
    k = max(3, round(2 * cfg.room_shrink * w / f) | 1)
    free = np.asarray(cv2.erode(free, np.ones((k, k), np.uint8)), dtype=np.uint8)
    count, _, stats, _ = components(free)
    grow = int(np.ceil(w))
    boxes: list[Box] = []
    for i in range(1, int(count)):
        if stats[i, cv2.CC_STAT_AREA] * f * f < cfg.room_area * w * w:
            continue
        x, y = f * int(stats[i, cv2.CC_STAT_LEFT]), f * int(stats[i, cv2.CC_STAT_TOP])
        bw, bh = f * int(stats[i, cv2.CC_STAT_WIDTH]), f * int(stats[i, cv2.CC_STAT_HEIGHT])
        boxes.append(
            (max(0, x - grow), max(0, y - grow), min(wd, x + bw + grow), min(h, y + bh + grow))
        )
    return boxes


def explained_share(tile: NDArray[np.bool_], found: Found, cfg: SearchSettings) -> float:
    """The share of the tile material (slivers and specks eroded away) that the tiles
    read cover, worked out at a lower resolution; 0 when no tile was read."""
    w = found.width
    if not found.read or w <= 0:
        return 0.0
    f = int(np.clip(w // 8, 1, 4))
    h, wd = tile.shape
    small = cv2.resize(tile.astype(np.uint8), (max(1, wd // f), max(1, h // f)))
    k = max(3, round(2 * cfg.room_shrink * w / f) | 1)
    material = np.asarray(cv2.erode(small, np.ones((k, k), np.uint8)), dtype=np.uint8) > 0
    total = int(np.count_nonzero(material))
    if total == 0:
        return 0.0
    claimed = np.zeros(material.shape, dtype=np.uint8)
    for t in found.read:
        cv2.fillConvexPoly(claimed, np.rint(rectangle(t, 1.05) / f).astype(np.int32), 1)
    return int(np.count_nonzero(material & (claimed > 0))) / total


def rectangle(t: TileHypothesis, scale: float) -> NDArray[np.float64]:
    """The tile's four corners, its size times `scale`."""
    c = np.array([t.cx, t.cy])
    n = np.array([t.nx, t.ny]) * t.width * scale
    d = np.array([t.dx, t.dy]) * t.width * scale / 2.0
    return np.array([c + n + d, c + n - d, c - n - d, c - n + d])
