"""The standard pip layouts of a half, shared by every pip reader.

A half shows 0 to 7 pips on a 3x3 grid in every set (7 is 6 and the centre): each layout is a set of
grid places (i along the tile, j across it, each -1, 0 or 1). A number may be drawn
two ways (a 2 or a 3 on either diagonal, a 6 in rows along or across the tile).
Every layout is centred on its half and symmetric under a half turn about its
centre (`vision.pips.counting.symmetric`, which also holds for the 7-12 of larger
sets); `grid_layout` reads a half's pips as one of these.
"""

from __future__ import annotations

from collections.abc import Sequence

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
    x: Sequence[float] | NDArray[np.float64],
    y: Sequence[float] | NDArray[np.float64],
    width: float,
    cfg: GridSettings = GRID,
    most: int = 6,
) -> tuple[int, float, frozenset[Place]] | None:
    """A half's pips (coordinates about its centre, along and across the tile, in
    pixels of a tile `width` wide) as a standard layout of at most `most` pips (a
    double-six set's 6): the count, the grid step and the places; None when they are
    no standard layout. (At most 7 points: read in plain floats.)"""
    xs = [float(v) for v in x]
    ys = [float(v) for v in y]
    n = len(xs)
    if n == 0:
        return 0, cfg.grid * width, frozenset()
    if n > min(most, max(LAYOUTS)):
        return None
    outer = sorted(
        r for a, b in zip(xs, ys, strict=True) if (r := max(abs(a), abs(b))) > 0.1 * width
    )
    if outer:
        mid = len(outer) // 2
        step = outer[mid] if len(outer) % 2 else (outer[mid - 1] + outer[mid]) / 2.0
    else:
        step = cfg.grid * width
    if not cfg.grid_range[0] * width <= step <= cfg.grid_range[1] * width:
        return None
    gi = [round(a / step) for a in xs]  # half to even, as np.rint
    gj = [round(b / step) for b in ys]
    if any(abs(i) > 1 for i in gi) or any(abs(j) > 1 for j in gj):
        return None
    off = np.hypot([a - i * step for a, i in zip(xs, gi, strict=True)],
                   [b - j * step for b, j in zip(ys, gj, strict=True)])  # fmt: skip
    if bool((off > cfg.grid_tol * step).any()):
        return None
    places = frozenset(zip(gi, gj, strict=True))
    if len(places) != n or places not in LAYOUTS.get(n, ()):
        return None
    return n, float(step), places
