"""How a synthetic frame looks: tile sets, table surfaces, light and camera defects.

Colours are BGR, as OpenCV draws them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

BGR = tuple[int, int, int]


class TileStyle(StrEnum):
    """A kind of domino set."""

    IVORY = "ivory"  # ivory tiles, black pips (the common double-six)
    BLACK = "black"  # black tiles, white pips
    WOOD = "wood"  # wooden tiles, burnt/engraved dark pips
    COLOURED = "coloured"  # white tiles, one colour per number (double-nine/twelve)


class Surface(StrEnum):
    """What the table is covered with."""

    GREEN_FELT = "green-felt"
    WOOD = "wood"
    WHITE_CLOTH = "white-cloth"
    DARK_GLOSSY = "dark-glossy"


class Lighting(StrEnum):
    """The colour and fall-off of the light."""

    LAMP = "lamp"  # warm (about 2700 K), bright under one lamp, darker at the edges
    DAYLIGHT = "daylight"  # cool (about 6500 K), a soft gradient from a window


@dataclass(frozen=True, slots=True)
class TilePalette:
    face: BGR
    side: BGR
    back: BGR
    divider: BGR
    pips: tuple[BGR, ...]  # indexed by pip count (0..12)
    double_twelve: bool = False  # small pips for every number
    grain: bool = False  # wood grain on the faces
    engraved: bool = False  # pips cut into the face (dark rim, lighter floor)


def _same(colour: BGR) -> tuple[BGR, ...]:
    return (colour,) * 13


# The usual double-twelve colour code, by number of pips 0..12.
_NUMBER_COLOURS: Final[tuple[BGR, ...]] = (
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

PALETTES: Final[dict[TileStyle, TilePalette]] = {
    TileStyle.IVORY: TilePalette(
        face=(212, 234, 242),
        side=(150, 178, 192),
        back=(205, 228, 238),
        divider=(40, 40, 40),
        pips=_same((22, 22, 24)),
    ),
    TileStyle.BLACK: TilePalette(
        face=(32, 30, 30),
        side=(12, 12, 12),
        back=(36, 34, 34),
        divider=(200, 200, 200),
        pips=_same((236, 238, 238)),
    ),
    TileStyle.WOOD: TilePalette(
        face=(92, 148, 196),
        side=(55, 95, 135),
        back=(80, 130, 176),
        divider=(30, 48, 70),
        pips=_same((24, 36, 52)),
        grain=True,
        engraved=True,
    ),
    TileStyle.COLOURED: TilePalette(
        face=(242, 244, 244),
        side=(185, 190, 192),
        back=(236, 238, 238),
        divider=(70, 70, 70),
        pips=_NUMBER_COLOURS,
        double_twelve=True,
    ),
}

BRASS: Final[BGR] = (60, 160, 205)
BRASS_LIGHT: Final[BGR] = (150, 220, 245)

# Colour gains (B, G, R) of each light.
LIGHT_GAINS: Final[dict[Lighting, tuple[float, float, float]]] = {
    Lighting.LAMP: (0.72, 0.9, 1.06),
    Lighting.DAYLIGHT: (1.04, 1.0, 0.95),
}


@dataclass(frozen=True, slots=True)
class RenderStyle:
    """Everything about a frame's look that is not the scene itself.

    `glare` is the strength (0-1) of one specular spot; `blur_px` the sigma of a
    Gaussian defocus; `noise` the sigma of sensor noise in grey levels; `jpeg_quality`
    (1-100) re-encodes the frame as JPEG when set; `shadows` draws soft tile and hand
    shadows; `brass_pin` puts a brass spinner pin at every face-up tile's centre.
    """

    tiles: TileStyle = TileStyle.IVORY
    surface: Surface = Surface.GREEN_FELT
    lighting: Lighting = Lighting.DAYLIGHT
    shadows: bool = True
    glare: float = 0.0
    blur_px: float = 0.6
    noise: float = 2.5
    jpeg_quality: int | None = None
    brass_pin: bool = False

    @classmethod
    def clean(cls, tiles: TileStyle = TileStyle.IVORY) -> RenderStyle:
        """Even daylight, no shadows, glare, blur or noise: for exact-answer tests."""
        return cls(tiles=tiles, shadows=False, glare=0.0, blur_px=0.0, noise=0.0)

    @classmethod
    def harsh(cls, tiles: TileStyle = TileStyle.IVORY) -> RenderStyle:
        """A warm lamp with glare, blur, noise and JPEG artefacts."""
        return cls(
            tiles=tiles,
            surface=Surface.DARK_GLOSSY,
            lighting=Lighting.LAMP,
            glare=0.7,
            blur_px=1.2,
            noise=5.0,
            jpeg_quality=70,
        )
