"""What one search pass works on and what it finds: `Planes` and `Found`.

`Planes` holds the images of one search (tile-bright, local brightness, tile material,
marks) with the mark threshold, the typical pip, the detector's settings and the
frame's `Trace` of its looks; `Found`
what a pass, a tone or a scale found, in frame pixels. Shared by the search
(`search_pass`), the reading of its tiles (`tile_reading`), what no tile explains
(`strays`) and the detector above them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
from numpy.typing import NDArray

from vision.detector.results import FoundTile, Point, UnsureRegion
from vision.detector.settings import Settings
from vision.tiles.dark_marks import Blobs, find_blobs
from vision.tiles.dividers import TileHypothesis
from vision.trace import Trace

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 in the search image


@dataclass(frozen=True, slots=True)
class Found:
    """What one search found, in frame pixels."""

    tiles: list[FoundTile]
    facedown: list[Point]
    unsure: list[UnsureRegion]
    width: float
    kept: list[TileHypothesis] = field(default_factory=list)  # all that won material
    read: list[TileHypothesis] = field(default_factory=list)  # those behind `tiles`
    pip: float = 0.0  # the typical pip diameter, pixels (0: unknown)
    stray: list[Point] = field(default_factory=list)  # pips outside every tile, frame px
    explained: float = 0.0  # share of the tile material that the tiles read cover
    lines: list[TileHypothesis] = field(default_factory=list)  # kept, no tile: table lines
    # read on the frame shrunk by this factor and mapped back (`scales.scaled`); 1: at
    # the frame's own scale
    scale: float = 1.0
    looked: Settings | None = None  # the settings it was read with (its tone, its faces')


@dataclass(frozen=True, slots=True)
class Planes:
    """The images one search works on (tile-bright, local brightness, tile material)."""

    img: NDArray[np.uint8]
    bright: NDArray[np.uint8]
    solid: NDArray[np.uint8]
    marks: NDArray[np.uint8]  # at the pips' contrast
    blobs: Blobs  # the connected marks
    tile: NDArray[np.bool_]  # tile material (Otsu)
    need: tuple[int, float, int]  # the mark threshold: min_contrast, rel_contrast, split
    max_area: float  # larger dark regions are no marks
    pip: float  # the typical pip diameter, pixels (0: unknown)
    s: Settings  # the detector's settings
    lighter_table: bool = False  # the tiles are darker than the table around them
    offset: Point = (0.0, 0.0)  # where the search image's origin lies in the frame
    trace: Trace = field(default_factory=Trace)  # the frame's looks (`vision.trace`)

    def crop(self, box: Box) -> Planes:
        """The same planes inside `box` (the marks found again there)."""
        x0, y0, x1, y1 = box
        img, bright = self.img[y0:y1, x0:x1], self.bright[y0:y1, x0:x1]
        marks = self.marks[y0:y1, x0:x1]
        blobs = find_blobs(marks, img, bright, self.max_area)
        solid, tile = self.solid[y0:y1, x0:x1], self.tile[y0:y1, x0:x1]
        return replace(
            self, img=img, bright=bright, solid=solid, marks=marks, blobs=blobs, tile=tile
        )
