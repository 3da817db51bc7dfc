"""Where the pips lie in one tile half: the layouts for 0 to 12, in two families.

A half is a square. Positions are in half-local units: `u` runs from the divider
towards the tile's end (-1 at the divider, +1 at the end), `v` across the tile
(+v is `u` turned a quarter clockwise on screen, y pointing down); both span -1..1.
Because each half's `u` points outwards, the two halves of a tile are 180-degree
turns of each other, as on real tiles.

0 to 6 are the same in every set (2 and 3 on a diagonal, 6 as two lines of three along
the tile). Sets differ from 7 up, so the layout is a property of the set
(`PipLayout`):

- `GRID` (the classic double-nine): 7 to 9 on the 3x3 grid (7 = 6 + centre, 8 = the
  grid without its centre, 9 = the full grid); 10 to 12 in lines of four along the
  tile: 10 = 4 + 2 + 4, 11 = 4 + 3 + 4, 12 = 4 + 4 + 4.
- `COLUMNS` (many double-twelve sets): 7 to 12 in three columns along the half, each
  column's pips spread evenly over the same length: 7 = 3 + 1 + 3, 8 = 4 + 4 (two
  columns of four, none in the middle), 9 = 3 + 3 + 3, 10 = 4 + 2 + 4, 11 = 4 + 3 + 4,
  12 = 4 + 4 + 4.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from tablesim.errors import RenderError

MAX_DRAWN_PIPS: Final = 12
GRID: Final = 0.55  # 3x3 grid offset from the half's centre
_FOUR: Final = (-0.6, -0.2, 0.2, 0.6)  # lines of four, double-twelve layouts
_THREE: Final = (-0.6, 0.0, 0.6)  # a column of three spread as a column of four
LARGE_PIP: Final = 0.19  # a pip's radius in half-local units, double-six and double-nine sets
SMALL_PIP: Final = 0.13  # where ten or more pips share a half

Layout = tuple[tuple[float, float], ...]


class PipLayout(StrEnum):
    """How a set draws 7 to 12 pips in a half (0 to 6 are the same in every set)."""

    GRID = "grid"  # 7-9 on the 3x3 grid, 10-12 in lines of four (4+2+4, 4+3+4, 4+4+4)
    COLUMNS = "columns"  # 7-12 in three evenly spread columns (3+1+3, 4+4, 3+3+3, ...)


_G = GRID
_CORNERS: Final[Layout] = ((-_G, -_G), (_G, -_G), (-_G, _G), (_G, _G))
_SIDES: Final[Layout] = ((0.0, -_G), (0.0, _G))
_ENDS: Final[Layout] = ((-_G, 0.0), (_G, 0.0))
_CENTRE: Final[Layout] = ((0.0, 0.0),)


def _line(v: float, us: tuple[float, ...]) -> Layout:
    return tuple((u, v) for u in us)


_COMMON: Final[dict[int, Layout]] = {
    0: (),
    1: _CENTRE,
    2: ((-_G, -_G), (_G, _G)),
    3: ((-_G, -_G), (0.0, 0.0), (_G, _G)),
    4: _CORNERS,
    5: _CORNERS + _CENTRE,
    6: _CORNERS + _SIDES,
}

_GRID_HIGH: Final[dict[int, Layout]] = {
    7: _CORNERS + _SIDES + _CENTRE,
    8: _CORNERS + _SIDES + _ENDS,
    9: _CORNERS + _SIDES + _ENDS + _CENTRE,
    10: _line(-_G, _FOUR) + _line(_G, _FOUR) + _line(0.0, (-0.3, 0.3)),
    11: _line(-_G, _FOUR) + _line(_G, _FOUR) + _line(0.0, (-_G, 0.0, _G)),
    12: _line(-_G, _FOUR) + _line(_G, _FOUR) + _line(0.0, _FOUR),
}


def _columns(outer: tuple[float, ...], middle: tuple[float, ...]) -> Layout:
    return _line(-_G, outer) + _line(_G, outer) + _line(0.0, middle)


_COLUMNS_HIGH: Final[dict[int, Layout]] = {
    7: _columns(_THREE, (0.0,)),
    8: _columns(_FOUR, ()),
    9: _columns(_THREE, _THREE),
    10: _columns(_FOUR, (-0.3, 0.3)),
    11: _columns(_FOUR, _THREE),
    12: _columns(_FOUR, _FOUR),
}

_FAMILIES: Final[dict[PipLayout, dict[int, Layout]]] = {
    PipLayout.GRID: _COMMON | _GRID_HIGH,
    PipLayout.COLUMNS: _COMMON | _COLUMNS_HIGH,
}


def pip_layout(pips: int, family: PipLayout = PipLayout.GRID) -> Layout:
    """The (u, v) centres of `pips` pips in a half, as a set of `family` draws them."""
    layout = _FAMILIES[family].get(pips)
    if layout is None:
        raise RenderError(f"cannot draw {pips} pips in a half: the renderer draws 0 to 12")
    return layout


def pip_radius(pips: int, *, double_twelve_set: bool = False) -> float:
    """A pip's radius in half-local units (1 = half the half's width), for sets whose pip
    size follows the count: small where ten or more share a half or in a double-twelve
    set, large otherwise."""
    if pips >= 10 or double_twelve_set:
        return SMALL_PIP
    return LARGE_PIP
