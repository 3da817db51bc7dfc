"""Domino sets as the renderer draws them: face, pips, divider, layout, spinner, size.

A `TileSet` is one set's look. `TileStyle` names the sets the renderer ships
(`SETS`); `plastic_set(face, pips)` makes any of the common coloured plastic sets.
Colours are BGR, as OpenCV draws them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from tablesim.errors import RenderError
from tablesim.render.pip_layouts import LARGE_PIP, SMALL_PIP, PipLayout, pip_radius

BGR = tuple[int, int, int]
STANDARD_TILE_MM: Final = (48.0, 24.0)


class TileStyle(StrEnum):
    """A domino set the renderer ships (`SETS` holds each one's look)."""

    IVORY = "ivory"  # ivory tiles, black pips (the common double-six)
    BLACK = "black"  # black tiles, white pips
    WOOD = "wood"  # wooden tiles, burnt/engraved dark pips
    COLOURED = "coloured"  # white tiles, one colour per number (small pips)
    IVORY_NINE = "ivory-nine"  # ivory double-nine, black pips, 7-9 on the 3x3 grid
    IVORY_TWELVE = "ivory-twelve"  # big ivory double-twelve, the usual colour code, columns
    PINK_YELLOW = "pink-yellow"  # pink plastic, yellow pips and bar
    RED_WHITE = "red-white"  # red plastic, white pips and bar
    GREEN_WHITE = "green-white"  # green plastic, white pips and bar
    BLUE_WHITE = "blue-white"  # blue plastic, white pips and bar
    YELLOW_BLACK = "yellow-black"  # yellow plastic, black pips and bar
    BLACK_WOOD = "black-wood"  # black wooden tiles, white pips, a faint grain
    BLACK_RINGED = "black-ringed"  # black tiles, raised empty rings at all 9 places


class Spinner(StrEnum):
    """A pin or rivet at the divider's centre (not a pip)."""

    NONE = "none"
    BRASS = "brass"  # a flat brass disc with a light spot
    SILVER = "silver"  # a flat silver disc with a light spot
    BRASS_DOME = "brass-dome"  # a domed brass head: dark rim, highlight (issue 26)
    STEEL_DOME = "steel-dome"  # a domed steel head


# (dark, light) of each spinner's metal
SPINNER_COLOURS: Final[dict[Spinner, tuple[BGR, BGR]]] = {
    Spinner.BRASS: ((60, 160, 205), (150, 220, 245)),
    Spinner.SILVER: ((150, 150, 150), (235, 235, 235)),
}
SPINNER_MM: Final = 1.6  # the pin's radius on a 24 mm wide tile (it scales with the tile)
DOME_MM: Final = 2.4  # a domed pin's radius on a 24 mm wide tile: larger than most pips
DOMES: Final = frozenset({Spinner.BRASS_DOME, Spinner.STEEL_DOME})


@dataclass(frozen=True, slots=True)
class TileSet:
    """One domino set's look.

    `pips[n]` is the colour of the pips of number `n` (0 to 12); `divider` the bar
    across the middle, `divider_mm` its thickness on a 24 mm wide tile; `layout` how
    7-12 are drawn; `pip_size` the pips' radius in half-local units (None: small where
    ten or more share a half or `small_pips`, large otherwise); `pip_spread` scales
    where the pips lie from the half's centre (1 = the layout as drawn); `spinner` a
    pin at the divider's centre; `size_mm` the set's tile (length, width), which scenes
    of this set use; `highest` its top number (6, 9, 12: a double-six, -nine,
    -twelve). `grain` draws wood grain on the faces, `engraved` cuts the pips in.
    `spinner_mm` is the pin's radius on a 24 mm wide tile (None: `SPINNER_MM` for a flat
    pin, `DOME_MM` for a domed one); `glossy` gives each pip a highlight and the face
    a band of sheen (`tablesim.render.gloss`). `rings` draws a raised empty ring in
    that colour at each of the 3x3 grid places of every half (`ring_r` its radius in
    half-local units), around the filled pips and beside them: the rings are no pips.
    """

    name: str
    face: BGR
    side: BGR
    back: BGR
    divider: BGR
    pips: tuple[BGR, ...]
    layout: PipLayout = PipLayout.GRID
    pip_size: float | None = None
    small_pips: bool = False
    pip_spread: float = 1.0
    divider_mm: float = 0.7
    spinner: Spinner = Spinner.NONE
    size_mm: tuple[float, float] = STANDARD_TILE_MM
    highest: int = 12
    grain: bool = False
    engraved: bool = False
    spinner_mm: float | None = None
    glossy: bool = False
    rings: BGR | None = None
    ring_r: float = 0.25

    def __post_init__(self) -> None:
        if len(self.pips) != 13:
            raise RenderError(f"set {self.name!r}: give a pip colour for each number 0 to 12")
        if not 0 <= self.highest <= 12:
            raise RenderError(f"set {self.name!r}: its highest number must be 0 to 12")

    def spinner_radius_mm(self, spinner: Spinner, width_mm: float) -> float:
        """The radius of `spinner` on a tile of this set `width_mm` wide."""
        on_24 = self.spinner_mm
        if on_24 is None:
            on_24 = DOME_MM if spinner in DOMES else SPINNER_MM
        return on_24 * width_mm / 24.0

    def pip_radius(self, a: int, b: int) -> float:
        """The radius of both halves' pips (half-local units) on a tile `a`-`b`."""
        if self.pip_size is not None:
            return self.pip_size
        return min(
            pip_radius(a, double_twelve_set=self.small_pips),
            pip_radius(b, double_twelve_set=self.small_pips),
        )


def same(colour: BGR) -> tuple[BGR, ...]:
    """One pip colour for every number."""
    return (colour,) * 13


def shade(colour: BGR, factor: float) -> BGR:
    """`colour` with its light scaled by `factor` (clipped to 0-255)."""
    b, g, r = (int(min(255, max(0, round(c * factor)))) for c in colour)
    return (b, g, r)


# White tiles' colour code (this renderer's first): 9 black, 10 dark red, 11 orange.
WHITE_SET_COLOURS: Final[tuple[BGR, ...]] = (
    (0, 0, 0),  # 0: no pips
    (200, 160, 40),  # 1 light blue
    (60, 150, 40),  # 2 green
    (40, 40, 200),  # 3 red
    (40, 70, 120),  # 4 brown
    (150, 50, 20),  # 5 dark blue
    (20, 170, 220),  # 6 yellow
    (140, 40, 120),  # 7 purple
    (40, 90, 20),  # 8 dark green
    (40, 40, 40),  # 9 black
    (60, 60, 170),  # 10 dark red
    (30, 120, 240),  # 11 orange
    (110, 110, 110),  # 12 grey
)

# The usual double-twelve colour code (colour-dot sets sold for Mexican Train and the
# like): 1 light blue, 2 green, 3 red, 4 brown, 5 dark blue, 6 yellow, 7 lavender,
# 8 dark green, 9 purple, 10 orange, 11 black, 12 grey. Makers differ in shades (some
# make 3 pink, 4 khaki), not in the order.
NUMBER_COLOURS: Final[tuple[BGR, ...]] = (
    (0, 0, 0),  # 0: no pips
    (225, 175, 70),  # 1 light blue
    (60, 160, 40),  # 2 green
    (55, 45, 210),  # 3 red
    (40, 85, 135),  # 4 brown
    (160, 50, 20),  # 5 dark blue
    (25, 195, 240),  # 6 yellow
    (205, 125, 215),  # 7 lavender
    (40, 95, 25),  # 8 dark green
    (150, 35, 105),  # 9 purple
    (20, 125, 245),  # 10 orange
    (28, 28, 28),  # 11 black
    (125, 125, 125),  # 12 grey
)


class Face(StrEnum):
    """The colour of a plastic set's tiles."""

    PINK = "pink"
    RED = "red"
    GREEN = "green"
    BLUE = "blue"
    YELLOW = "yellow"


class PipColour(StrEnum):
    """The colour of a plastic set's pips and bar."""

    WHITE = "white"
    YELLOW = "yellow"
    BLACK = "black"


FACE_COLOURS: Final[dict[Face, BGR]] = {
    Face.PINK: (185, 140, 240),
    Face.RED: (45, 40, 200),
    Face.GREEN: (70, 140, 40),
    Face.BLUE: (170, 80, 35),
    Face.YELLOW: (50, 205, 245),
}
PIP_COLOURS: Final[dict[PipColour, BGR]] = {
    PipColour.WHITE: (240, 242, 242),
    PipColour.YELLOW: (30, 215, 252),
    PipColour.BLACK: (25, 25, 28),
}


def plastic_set(face: Face, pips: PipColour, *, highest: int = 6) -> TileSet:
    """A coloured plastic set: `face` tiles with `pips` pips and a bar of the pips'
    colour (slightly raised, so thicker than an ivory set's line). The pips of a
    double-nine or double-twelve set (`highest`) are drawn as in their usual sets."""
    if face.value == pips.value:
        raise RenderError(f"{face} pips on {face} tiles would not show: choose another colour")
    colour = FACE_COLOURS[face]
    return TileSet(
        name=f"{face}-{pips}",
        face=colour,
        side=shade(colour, 0.72),
        back=shade(colour, 0.96),
        divider=PIP_COLOURS[pips],
        pips=same(PIP_COLOURS[pips]),
        layout=PipLayout.COLUMNS if highest > 9 else PipLayout.GRID,
        pip_size=SMALL_PIP if highest > 9 else LARGE_PIP,
        divider_mm=1.2,
        highest=highest,
    )


_IVORY: Final = TileSet(
    name="ivory",
    face=(212, 234, 242),
    side=(150, 178, 192),
    back=(205, 228, 238),
    divider=(40, 40, 40),
    pips=same((22, 22, 24)),
    highest=6,
)

SETS: Final[dict[TileStyle, TileSet]] = {
    TileStyle.IVORY: _IVORY,
    TileStyle.BLACK: TileSet(
        name="black",
        face=(32, 30, 30),
        side=(12, 12, 12),
        back=(36, 34, 34),
        divider=(200, 200, 200),
        pips=same((236, 238, 238)),
        highest=6,
    ),
    TileStyle.WOOD: TileSet(
        name="wood",
        face=(92, 148, 196),
        side=(55, 95, 135),
        back=(80, 130, 176),
        divider=(30, 48, 70),
        pips=same((24, 36, 52)),
        highest=6,
        grain=True,
        engraved=True,
    ),
    TileStyle.COLOURED: TileSet(
        name="coloured",
        face=(242, 244, 244),
        side=(185, 190, 192),
        back=(236, 238, 238),
        divider=(70, 70, 70),
        pips=WHITE_SET_COLOURS,
        small_pips=True,
    ),
    TileStyle.IVORY_NINE: TileSet(
        name="ivory-nine",
        face=_IVORY.face,
        side=_IVORY.side,
        back=_IVORY.back,
        divider=_IVORY.divider,
        pips=_IVORY.pips,
        pip_size=0.17,
        highest=9,
    ),
    TileStyle.IVORY_TWELVE: TileSet(
        name="ivory-twelve",
        face=(200, 228, 240),
        side=(140, 170, 186),
        back=(196, 222, 236),
        divider=(60, 60, 60),
        pips=NUMBER_COLOURS,
        layout=PipLayout.COLUMNS,
        pip_size=SMALL_PIP,
        divider_mm=0.9,
        size_mm=(56.0, 28.0),
    ),
    TileStyle.PINK_YELLOW: plastic_set(Face.PINK, PipColour.YELLOW),
    TileStyle.RED_WHITE: plastic_set(Face.RED, PipColour.WHITE),
    TileStyle.GREEN_WHITE: plastic_set(Face.GREEN, PipColour.WHITE),
    TileStyle.BLUE_WHITE: plastic_set(Face.BLUE, PipColour.WHITE),
    TileStyle.YELLOW_BLACK: plastic_set(Face.YELLOW, PipColour.BLACK),
    # black wood (ebony-stained), white-filled pips and a white inlaid bar
    TileStyle.BLACK_WOOD: TileSet(
        name="black-wood",
        face=(30, 33, 38),
        side=(14, 15, 17),
        back=(34, 37, 42),
        divider=(205, 210, 212),
        pips=same((228, 232, 234)),
        highest=6,
        grain=True,
        pip_size=0.17,
    ),
    # black tiles whose halves carry a 3x3 grid of raised empty rings, the value's
    # places filled white (issue 31: read by nobody before)
    TileStyle.BLACK_RINGED: TileSet(
        name="black-ringed",
        face=(26, 26, 28),
        side=(10, 10, 11),
        back=(30, 30, 32),
        divider=(150, 152, 154),
        pips=same((232, 234, 236)),
        highest=6,
        pip_size=0.15,
        rings=(70, 70, 74),
        ring_r=0.22,
    ),
}


def tile_set(tiles: TileStyle | TileSet) -> TileSet:
    """The look of a named set, or the set itself."""
    return SETS[tiles] if isinstance(tiles, TileStyle) else tiles
