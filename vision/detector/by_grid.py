"""Reading tiles by their pips on the grid where the dividers gave none.

The passes find a tile by its divider. A divider can be lost while the pips plainly
show: merged with a row of pips in a dim frame (a 6's column beside it), broken by a
spinner pin, run into the gap of a touching tile. Once the passes have measured the
frame's tile width between tiles' edges and read tiles surely with it (the frame's
one tile size is known), the pips left unexplained are read as a person reads them:
by the 3x3 grid of each square half of a tile of that size (`vision.pips.grid_read`,
the camera path's reader by known size). Only where something is left to explain:
around stray pips, the places left unsure, and tile material that no tile claims.
A tile read so must show a standard layout of 0-6 on each half, nothing else on its
face, a divider line across its middle, and explain its group's pips exactly.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from vision.detector.planes import Box, Found, Planes
from vision.detector.results import FoundTile, Point, UnsureReason
from vision.detector.strays import room
from vision.pips.grid import GridTile
from vision.pips.grid_read import read_grid
from vision.tiles.dividers import TileHypothesis, overlap
from vision.tiles.outline import inside
from vision.trace import Grain

FloatArray = NDArray[np.float64]

# unsure places whose tile may be read by its pips (not a covered or a cut one)
LOOK_AGAIN = frozenset(
    {
        UnsureReason.STRAY_PIPS,
        UnsureReason.NOT_PIPS,
        UnsureReason.FAINT_MARK,
        UnsureReason.NO_DIVIDER,
        UnsureReason.LOPSIDED,
    }
)


Read = tuple[TileHypothesis, tuple[int, int], float]  # a tile, its pips, confidence


def by_grid(planes: Planes, found: Found, offset: Point, places: list[Point]) -> Found:
    """`found` with the tiles read by the grid around `places` (stray pips and unsure
    places, search-image pixels) and in the boxes of unclaimed tile material
    (`strays.room`), each box read once; the unsure places on a tile read so are
    dropped."""
    cfg = planes.s.search
    w = found.width
    reach = cfg.grid_reach * 2.0 * w
    h, wd = planes.img.shape
    boxes: list[Box] = [
        (
            max(0, int(x - reach)),
            max(0, int(y - reach)),
            min(wd, int(x + reach) + 1),
            min(h, int(y + reach) + 1),
        )
        for x, y in places
    ]
    boxes += room(planes.solid > 0, found, cfg) or []
    added: list[Read] = []
    for box in _merged(boxes)[: cfg.grid_boxes]:
        if planes.trace.spent():
            planes.trace.skip("by-grid", Grain.SEARCH, "budget")
            break
        for new in _read_box(planes, box, [*found.read, *(t for t, _, _ in added)], w):
            others = [k for k in found.kept if k not in found.lines] + [t for t, _, _ in added]
            if not any(overlap(new[0], k) for k in others):
                added.append(new)
    if not added:
        return found
    ox, oy = offset
    tiles = list(found.tiles)
    for t, pips, confidence in added:
        (xa, ya), (xb, yb) = t.half_centres()
        tiles.append(FoundTile(pips, ((xa + ox, ya + oy), (xb + ox, yb + oy)), confidence))
    hyps = [t for t, _, _ in added]
    unsure = [
        u
        for u in found.unsure
        if u.reason not in LOOK_AGAIN or not any(inside(u.x - ox, u.y - oy, t) for t in hyps)
    ]
    return replace(
        found, tiles=tiles, unsure=unsure, kept=found.kept + hyps, read=found.read + hyps
    )


def _merged(boxes: list[Box]) -> list[Box]:
    """Overlapping boxes joined, so that each place is read once."""
    out = list(boxes)
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                if a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]:
                    out[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out


def _read_box(planes: Planes, box: Box, read: list[TileHypothesis], width: float) -> list[Read]:
    """The tiles the grid reads in `box` of the search image, beside the tiles `read`."""
    x0, y0, x1, y1 = box
    if min(x1 - x0, y1 - y0) < 2 * width:
        return []
    origin = np.array([x0, y0], dtype=np.float64)
    known = [
        (np.asarray(a, dtype=np.float64) - origin, np.asarray(b, dtype=np.float64) - origin)
        for a, b in (t.half_centres() for t in read)
    ]
    cfg = planes.s
    crop = planes.img[y0:y1, x0:x1]
    planes.trace.spend(crop.size * cfg.looks.grid_cost)  # a window read by the grid
    got = read_grid(crop, 2.0 * width, width, known, cfg.grid, max_free=cfg.search.grid_pips)
    return [_hypothesis(t, origin) for t in got.tiles]


def _hypothesis(t: GridTile, origin: FloatArray) -> Read:
    """The grid's tile as a hypothesis in the search image, half a the top (or left)
    one, as the passes give them, with its pips and confidence."""
    a, b = t.a + origin, t.b + origin
    pips = t.pips
    d = b - a
    if (d[1] < 0) if abs(d[1]) > abs(d[0]) else (d[0] < 0):
        a, b, pips = b, a, (pips[1], pips[0])
        d = -d
    half = float(np.hypot(d[0], d[1]))
    nx, ny = float(d[0] / half), float(d[1] / half)
    c = (a + b) / 2.0
    hyp = TileHypothesis(-1, float(c[0]), float(c[1]), -ny, nx, nx, ny, half, 0.0, own=half)
    return hyp, pips, t.confidence


def by_spacing(planes: Planes, found: Found, offset: Point, pips: list[Point]) -> Found:
    """`found` (which read no tile, so knows no tile width) with the tiles read by the
    grid at the width the spacing of its stray `pips` suggests: on a half's 3x3 grid
    pips lie a grid step apart (a 6's rows), or a step's diagonal (a 2, a 3), so the
    nearest neighbours' distances (their lower quartile), over `GridSettings.grid` of
    a width or its diagonal, give two widths to try, the second only when the first
    reads nothing. (Spinner pins
    break every divider of a set: no tile was read at all, but its pips showed.)
    A width over `ScaleSettings.wide` is not tried: tiles that wide are the coarser
    look's, read on the frame shrunk to the search's sizes (here their grid's
    black-hat over the whole frame cost the most of any look, and read nothing)."""
    cfg = planes.s
    if not cfg.search.spacing_pips <= len(pips) <= 2 * cfg.search.grid_pips:
        return found  # too few to space, or a texture's specks
    pts = np.asarray(pips, dtype=np.float64)
    apart = np.linalg.norm(pts[:, None, :] - pts[None, :, :], axis=2)
    np.fill_diagonal(apart, np.inf)
    near = apart.min(axis=1)
    q25 = float(np.percentile(near, 25))
    step = cfg.grid.grid
    widths: list[float] = []
    for w in (q25 / step, q25 / (step * np.sqrt(2.0))):
        if w <= 0 or w > cfg.scales.wide:
            continue
        if all(abs(w - o) > cfg.search.spacing_apart * o for o in widths):
            widths.append(w)
    for w in widths:  # the likeliest first; the next only when it read nothing
        trial = by_grid(planes, replace(found, width=w), offset, pips)
        if trial.tiles:
            return trial
    return found
