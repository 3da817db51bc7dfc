"""The learned part's marks of a frame: each class's probability at each of the net's
pixels, and what they say about a tile (`Masks.evidence`, `Masks.tile_scores`).

`vision.learned.look.pixel_masks` makes them; the net's pixels are the frame's at
another scale (and, for a fine look, over part of the frame), which `to_net` and
`to_frame` map between.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from vision.learned.classes import PixelClass
from vision.learned.evidence import NOTHING, Evidence, PipBlobs, weigh
from vision.learned.net import Probabilities

Points = npt.NDArray[np.float64]
Point = tuple[float, float]
Pair = tuple[Point, Point]


@dataclass(frozen=True)
class Masks:
    """Per-pixel class probabilities of a frame, as the net saw it: `probs` (4, h, w)
    over the frame's region `origin` (x, y) onwards, at `scale` of its pixels (the
    net's pixel (u, v) is the frame's `origin + (u, v) / scale`). `width` is the tile
    width measured in the net's pixels (None: no tile seen); `width_px` the same in
    the frame's."""

    probs: Probabilities
    scale: float
    origin: tuple[float, float]
    width: float | None

    def of(self, cls: PixelClass) -> npt.NDArray[np.float32]:
        """The probability of `cls` at each of the net's pixels."""
        return np.asarray(self.probs[int(cls)], dtype=np.float32)

    @property
    def material(self) -> npt.NDArray[np.float32]:
        """The probability that a pixel belongs to a face-up tile (face, divider or pip)."""
        return np.asarray(1.0 - self.probs[int(PixelClass.TABLE)], dtype=np.float32)

    def to_net(self, points: npt.ArrayLike) -> Points:
        """Frame pixels to the net's pixels, shape (..., 2)."""
        pts = np.asarray(points, dtype=np.float64)
        return np.asarray((pts - np.array(self.origin)) * self.scale, dtype=np.float64)

    def to_frame(self, points: npt.ArrayLike) -> Points:
        """The net's pixels to frame pixels, shape (..., 2)."""
        pts = np.asarray(points, dtype=np.float64)
        return np.asarray(pts / self.scale + np.array(self.origin), dtype=np.float64)

    @property
    def width_px(self) -> float | None:
        """The tiles' width in frame pixels (None: no tile seen)."""
        return None if self.width is None else self.width / self.scale

    @cached_property
    def pips(self) -> PipBlobs:
        """The pips the net marks (in its pixels)."""
        return PipBlobs.of(self.of(PixelClass.PIP))

    def evidence(self, px: Pair) -> Evidence:
        """What the net sees of a tile whose half centres are `px` (frame pixels)."""
        a, b = self.to_net(np.array(px, dtype=np.float64))
        w = float(np.linalg.norm(b - a))
        if w < 1e-6:
            return NOTHING
        material, divider = self.material, self.of(PixelClass.DIVIDER)
        return weigh(material, divider, self.pips, (a + b) / 2, (b - a) / w, w)

    def tile_scores(self, tiles: Sequence[Pair]) -> npt.NDArray[np.float64]:
        """`Evidence.score` (0..1) of each tile given by its half centres (frame pixels):
        how much the net sees a face over its rectangle and a divider across it."""
        return np.array([self.evidence(px).score for px in tiles], dtype=np.float64)
