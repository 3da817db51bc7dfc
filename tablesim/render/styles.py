"""How a synthetic frame looks: the set, the table's surface, light and camera defects.

The sets themselves are in `tablesim.render.sets`; `TileStyle` (the named sets) is
re-exported here. Colours are BGR, as OpenCV draws them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from tablesim.render.sets import BGR, SPINNER_COLOURS, Spinner, TileSet, TileStyle, tile_set

__all__ = [
    "BGR",
    "BRASS",
    "BRASS_LIGHT",
    "LIGHT_GAINS",
    "Lighting",
    "RenderStyle",
    "Surface",
    "TileStyle",
]


class Surface(StrEnum):
    """What the table is covered with."""

    GREEN_FELT = "green-felt"
    WOOD = "wood"  # planks with a strong grain
    WHITE_CLOTH = "white-cloth"  # fine weave, soft folds
    DARK_GLOSSY = "dark-glossy"
    DARK_CLOTH = "dark-cloth"  # navy-black cloth with a coarse weave
    LEATHER = "leather"  # brown, pebbled, creased
    CHECKED_CLOTH = "checked-cloth"  # a printed gingham check: straight edges everywhere
    WHITE_PAPER = "white-paper"  # plain paper, nearly flat white
    LIGHT_WOOD = "light-wood"  # a pale school desk: fine, dense grain, no planks
    # Textures real photos showed the detector failing on (issue 26; `textured.py`):
    KNOTTY_WOOD = "knotty-wood"  # slats, a strong grain around dark knots, dark gaps
    BLACK_LEATHER = "black-leather"  # black crinkled leatherette, glossy cells
    RED_DAMASK = "red-damask"  # burgundy damask: swirling tone-on-tone motifs
    PLAID = "plaid"  # a pastel plaid, woven
    SPECKLED_MAT = "speckled-mat"  # a dark grey mat with a fine speckled grain


class Lighting(StrEnum):
    """The colour and fall-off of the light."""

    LAMP = "lamp"  # warm (about 2700 K), bright under one lamp, darker at the edges
    DAYLIGHT = "daylight"  # cool (about 6500 K), a soft gradient from a window


BRASS: Final[BGR] = SPINNER_COLOURS[Spinner.BRASS][0]
BRASS_LIGHT: Final[BGR] = SPINNER_COLOURS[Spinner.BRASS][1]

# Colour gains (B, G, R) of each light.
LIGHT_GAINS: Final[dict[Lighting, tuple[float, float, float]]] = {
    Lighting.LAMP: (0.72, 0.9, 1.06),
    Lighting.DAYLIGHT: (1.04, 1.0, 0.95),
}


@dataclass(frozen=True, slots=True)
class RenderStyle:
    """Everything about a frame's look that is not the scene itself.

    `tiles` is a named set or any `TileSet`; `surface_tint` scales the table's colour
    (B, G, R gains; 1 = as the surface is); `glare` is the strength (0-1) of one
    specular spot; `blur_px` the sigma of a Gaussian defocus; `noise` the sigma of
    sensor noise in grey levels; `jpeg_quality` (1-100) re-encodes the frame as JPEG
    when set; `shadows` draws soft tile and hand shadows; `brass_pin` puts a brass
    spinner pin at every face-up tile's centre, whatever the set. `light_from` is
    the direction (table plane, x right, y down) the light comes from: shadows fall
    the other way, highlights lie towards it; `shadow_mm` is how soft the tiles'
    shadows are (a blur's sigma, mm) and `shadow_depth` how much light they take at
    their darkest (white on white under a soft light: 6-10 mm, 0.2-0.3);
    `sharpen` is a phone's unsharp mask (its amount; 0: none).
    """

    tiles: TileStyle | TileSet = TileStyle.IVORY
    surface: Surface = Surface.GREEN_FELT
    lighting: Lighting = Lighting.DAYLIGHT
    shadows: bool = True
    glare: float = 0.0
    blur_px: float = 0.6
    noise: float = 2.5
    jpeg_quality: int | None = None
    brass_pin: bool = False
    surface_tint: tuple[float, float, float] = (1.0, 1.0, 1.0)
    light_from: tuple[float, float] = (-0.35, -0.5)
    shadow_mm: float = 2.5
    shadow_depth: float = 0.45
    sharpen: float = 0.0

    @property
    def tile_set(self) -> TileSet:
        """The set drawn."""
        return tile_set(self.tiles)

    @property
    def spinner(self) -> Spinner:
        """The pin drawn at each face-up tile's centre (the set's, or brass)."""
        return Spinner.BRASS if self.brass_pin else self.tile_set.spinner

    @classmethod
    def clean(cls, tiles: TileStyle | TileSet = TileStyle.IVORY) -> RenderStyle:
        """Even daylight, no shadows, glare, blur or noise: for exact-answer tests."""
        return cls(tiles=tiles, shadows=False, glare=0.0, blur_px=0.0, noise=0.0)

    @classmethod
    def harsh(cls, tiles: TileStyle | TileSet = TileStyle.IVORY) -> RenderStyle:
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
