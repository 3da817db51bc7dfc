"""The standard pip layouts of a half, shared by every pip reader.

A half shows 0 to 7 pips on a 3x3 grid in every set (7 is 6 and the centre): each layout is a set of
grid places (i along the tile, j across it, each -1, 0 or 1). A number may be drawn
two ways (a 2 or a 3 on either diagonal, a 6 in rows along or across the tile).
Every layout is centred on its half and symmetric under a half turn about its
centre (`vision.pips.counting.symmetric`, which also holds for the 7-12 of larger
sets); `grid_layout` reads a half's pips as one of these.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from vision.pips.settings import GRID, GridSettings

Place = tuple[int, int]

_DIAG = ((-1, -1), (1, 1))
_ANTI = ((-1, 1), (1, -1))
_CORNERS = ((-1, -1), (-1, 1), (1, -1), (1, 1))
LAYOUTS: dict[int, tuple[frozenset[Place], ...]] = {
    0: (frozenset(),),
    1: (frozenset({(0, 0)}),),
    2: (frozenset(_DIAG), frozenset(_ANTI)),
    3: (frozenset({*_DIAG, (0, 0)}), frozenset({*_ANTI, (0, 0)})),
    4: (frozenset(_CORNERS),),
    5: (frozenset({*_CORNERS, (0, 0)}),),
    6: (
        frozenset({*_CORNERS, (0, -1), (0, 1)}),
        frozenset({*_CORNERS, (-1, 0), (1, 0)}),
    ),
    # 7 = 6 and the centre, in every set that has it (double-nine and up)
    7: (
        frozenset({*_CORNERS, (0, -1), (0, 1), (0, 0)}),
        frozenset({*_CORNERS, (-1, 0), (1, 0), (0, 0)}),
    ),
}


def grid_layout(
    x: NDArray[np.float64],
    y: NDArray[np.float64],
    width: float,
    cfg: GridSettings = GRID,
    most: int = 6,
) -> tuple[int, float, frozenset[Place]] | None:
    """A half's pips (coordinates about its centre, along and across the tile, in
    pixels of a tile `width` wide) as a standard layout of at most `most` pips (a
    double-six set's 6): the count, the grid step and the places; None when they are
    no standard layout."""
    n = len(x)
    if n == 0:
        return 0, cfg.grid * width, frozenset()
    if n > min(most, max(LAYOUTS)):
        return None
    r = np.maximum(np.abs(x), np.abs(y))
    outer = r[r > 0.1 * width]
    step = float(np.median(outer)) if len(outer) else cfg.grid * width
    if not cfg.grid_range[0] * width <= step <= cfg.grid_range[1] * width:
        return None
    gi = np.rint(x / step).astype(int)
    gj = np.rint(y / step).astype(int)
    if np.any(np.abs(gi) > 1) or np.any(np.abs(gj) > 1):
        return None
    if np.any(np.hypot(x - gi * step, y - gj * step) > cfg.grid_tol * step):
        return None
    places = frozenset(zip(gi.tolist(), gj.tolist(), strict=True))
    if len(places) != n or places not in LAYOUTS.get(n, ()):
        return None
    return n, step, places
