"""Where the pips lie in one tile half: the standard layouts for 0 to 12.

A half is a square. Positions are in half-local units: `u` runs from the divider
towards the tile's end (-1 at the divider, +1 at the end), `v` across the tile
(+v is `u` turned a quarter clockwise on screen, y pointing down); both span -1..1.
Because each half's `u` points outwards, the two halves of a tile are 180-degree
turns of each other, as on real tiles. 0-9 use a 3x3 grid (6 is two lines of three
along the tile); 10-12 use the usual double-twelve layouts with lines of four along
the tile: 10 = 4 + 2 + 4, 11 = 4 + 3 + 4, 12 = 4 + 4 + 4.
"""

from __future__ import annotations

from typing import Final

from tablesim.errors import RenderError

MAX_DRAWN_PIPS: Final = 12
GRID: Final = 0.55  # 3x3 grid offset from the half's centre
_FOUR: Final = (-0.6, -0.2, 0.2, 0.6)  # lines of four, double-twelve layouts

Layout = tuple[tuple[float, float], ...]

_G = GRID
_CORNERS: Final[Layout] = ((-_G, -_G), (_G, -_G), (-_G, _G), (_G, _G))
_SIDES: Final[Layout] = ((0.0, -_G), (0.0, _G))
_ENDS: Final[Layout] = ((-_G, 0.0), (_G, 0.0))
_CENTRE: Final[Layout] = ((0.0, 0.0),)


def _line(v: float, us: tuple[float, ...]) -> Layout:
    return tuple((u, v) for u in us)


_LAYOUTS: Final[dict[int, Layout]] = {
    0: (),
    1: _CENTRE,
    2: ((-_G, -_G), (_G, _G)),
    3: ((-_G, -_G), (0.0, 0.0), (_G, _G)),
    4: _CORNERS,
    5: _CORNERS + _CENTRE,
    6: _CORNERS + _SIDES,
    7: _CORNERS + _SIDES + _CENTRE,
    8: _CORNERS + _SIDES + _ENDS,
    9: _CORNERS + _SIDES + _ENDS + _CENTRE,
    10: _line(-_G, _FOUR) + _line(_G, _FOUR) + _line(0.0, (-0.3, 0.3)),
    11: _line(-_G, _FOUR) + _line(_G, _FOUR) + _line(0.0, (-_G, 0.0, _G)),
    12: _line(-_G, _FOUR) + _line(_G, _FOUR) + _line(0.0, _FOUR),
}


def pip_layout(pips: int) -> Layout:
    """The (u, v) centres of `pips` pips in a half."""
    layout = _LAYOUTS.get(pips)
    if layout is None:
        raise RenderError(f"cannot draw {pips} pips in a half: the renderer draws 0 to 12")
    return layout


def pip_radius(pips: int, *, double_twelve_set: bool = False) -> float:
    """A pip's radius in half-local units (1 = half the half's width)."""
    if pips >= 10 or double_twelve_set:
        return 0.13
    return 0.19
