"""The detector's settings: one frozen value, checked against its bounds when made."""

from __future__ import annotations

from dataclasses import dataclass, fields

from vision.tiles.dark_marks import Tone

# name -> (lowest, highest) allowed
BOUNDS: dict[str, tuple[float, float]] = {
    "window": (3, 255),
    "min_contrast": (1, 254),
    "rel_contrast": (0.01, 0.99),
    "max_hole_share": (1e-6, 0.5),
    "margin": (0, 10_000),
    "min_half_fill": (0.0, 1.0),
    "divider_contrast": (0.1, 1.0),
    "small_tile_px": (0.0, 10_000.0),
}


@dataclass(frozen=True, slots=True)
class Settings:
    """Tuning of the detector; the defaults suit a 1-2 megapixel overhead photo."""

    tone: Tone | None = Tone.LIGHT  # None: light, dark, grey in turn (`detect.AUTO_TONES`)
    # the faces' colour (B, G, R) of a coloured set (an enrolled set's look): the search
    # runs on an image as bright as each pixel is near it (`tiles.face_colours`)
    face: tuple[float, float, float] | None = None
    window: int = 21  # px, wider than the largest pip
    min_contrast: int = 28  # grey levels a mark is darker than the tile around it
    rel_contrast: float = 0.4  # ... or this share of the tile's brightness
    max_hole_share: float = 1 / 400  # largest enclosed dark region that can be a mark
    margin: int = 24  # px searched beyond the play area, so edge tiles are whole
    min_half_fill: float = 0.6  # share of a half that must be tile material
    divider_contrast: float = 0.6  # on small tiles, dividers need this share of a pip's
    small_tile_px: float = 40.0  # tiles narrower than this (or none) get that second pass

    def __post_init__(self) -> None:
        if self.tone is not None and not isinstance(self.tone, Tone):
            raise ValueError(
                f"Settings.tone: {self.tone!r} is not one of {[t.value for t in Tone]}"
            )
        if self.face is not None and (len(self.face) != 3 or self.tone is not Tone.LIGHT):
            raise ValueError(
                f"Settings.face: {self.face!r} must be a (B, G, R) colour searched as a light "
                "set (tone=Tone.LIGHT)"
            )
        for f in fields(self):
            if f.name not in BOUNDS:
                continue
            low, high = BOUNDS[f.name]
            value = getattr(self, f.name)
            if not low <= value <= high:
                raise ValueError(f"Settings.{f.name}: {value} is outside {low}..{high}")
