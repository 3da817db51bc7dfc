"""Tiles read from the learned part's marks alone, by geometry: the net marks pixels,
the count is counted.

`read_masks` finds each divider the net marks (`look.divider_lines`), takes the tile's
width as twice the run of tile material from the divider's middle to the nearer side
(or the divider's length over 0.8 when that run is implausible), puts the two halves a
width apart across it, keeps it when the net calls its rectangle tile and its middle
line divider (`Evidence`), and counts the pips the net marks in each half's square.
Of two such tiles closer than half a width, the one of the longer divider is kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from vision.detector.results import FoundTile
from vision.learned.classes import PixelClass
from vision.learned.evidence import sample, weigh
from vision.learned.look import divider_lines, pixel_masks
from vision.learned.masks import Masks
from vision.learned.net import Image

Points = npt.NDArray[np.float64]
Field = npt.NDArray[np.float32]

MATERIAL_MIN: Final = 0.75  # share of a tile's rectangle the net must call tile
DIVIDER_MIN: Final = 0.5  # share of its middle line the net must call divider


@dataclass(frozen=True, slots=True)
class Reading:
    """The tiles the learned part reads alone, and the marks they were read from."""

    tiles: tuple[FoundTile, ...]
    masks: Masks


def _run(material: Field, start: Points, step: Points, limit: float) -> float:
    """How far tile material reaches from `start` along `step` (a unit vector)."""
    d = np.arange(0.0, limit, 0.5)
    on = sample(material, start + d[:, None] * step) > 0.5
    off = np.nonzero(~on)[0]
    return float(d[off[0]]) if len(off) else float(limit)


def read_masks(masks: Masks) -> tuple[FoundTile, ...]:
    """Tiles from the net's marks (see the module's docstring), in frame pixels."""
    material, divider = masks.material, masks.of(PixelClass.DIVIDER)
    found: list[tuple[float, FoundTile, Points]] = []
    for centre, along, length, _thick in divider_lines(masks.probs):
        v = along / np.linalg.norm(along)
        u = np.array([-v[1], v[0]])
        guess = length / 0.8
        measured = 2.0 * min(_run(material, centre, s * v, 1.5 * guess) for s in (1, -1))
        w = measured if 0.95 * guess <= measured <= 1.4 * guess else guess
        ev = weigh(material, divider, masks.pips, centre, u, w)
        if ev.material < MATERIAL_MIN or ev.divider < DIVIDER_MIN:
            continue
        fa, fb = masks.to_frame(np.array([centre - u * w / 2, centre + u * w / 2]))
        px = ((float(fa[0]), float(fa[1])), (float(fb[0]), float(fb[1])))
        found.append((length, FoundTile(ev.pips, px, ev.score), centre))
    kept: list[tuple[float, FoundTile, Points]] = []
    for length, tile, centre in sorted(found, key=lambda f: -f[0]):
        if all(np.linalg.norm(centre - c) >= 0.5 * length / 0.8 for _, _, c in kept):
            kept.append((length, tile, centre))
    return tuple(t for _, t, _ in kept)


def read_tiles(frame: Image, hint_width_px: float | None = None) -> Reading:
    """The tiles of a BGR `frame` as the learned part alone reads them."""
    masks = pixel_masks(frame, hint_width_px)
    return Reading(read_masks(masks), masks)
