"""The detector's settings: one frozen value, validated by its types and defaults."""

from __future__ import annotations

from dataclasses import dataclass

from vision.marks import Tone


@dataclass(frozen=True, slots=True)
class Settings:
    """Tuning of the detector; the defaults suit a 1-2 megapixel overhead photo."""

    tone: Tone | None = Tone.LIGHT  # None: try light and dark sets both
    window: int = 21  # px, wider than the largest pip
    min_contrast: int = 28  # grey levels a mark is darker than the tile around it
    rel_contrast: float = 0.4  # ... or this share of the tile's brightness
    max_hole_share: float = 1 / 400  # largest enclosed dark region that can be a mark
    margin: int = 24  # px searched beyond the play area, so edge tiles are whole
    min_half_fill: float = 0.6  # share of a half that must be tile material
    divider_contrast: float = 0.6  # on small tiles, dividers need this share of a pip's
    small_tile_px: float = 40.0  # tiles narrower than this (or none) get that second pass
