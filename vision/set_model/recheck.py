"""Each half the detector read, checked against the set's own halves.

With a set model (`SetModel.matcher`), every tile read in a frame has its two halves
cropped (`crop_half`) and compared with the set's crops of each number. A half stays
as read unless the set's halves say plainly otherwise: the number read is far from
its crops (`REREAD` times the nearest number's distance, or more) and the nearest
number stands clear of the next (`CLEAR`). A tile read with a number its set has not
is read as the nearest number the set has. The half's place is not moved.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

import numpy as np
from numpy.typing import NDArray

from vision.detector.results import Detection, FoundTile
from vision.set_model.halves import HalfMatcher, crop_half

__all__ = ["CLEAR", "REREAD", "recheck"]

REREAD: Final = 1.6  # the number read is this much further than the nearest: re-read
CLEAR: Final = 1.3  # ... and the nearest this much nearer than the next number


def _half(
    image: NDArray[np.uint8], tile: FoundTile, side: int, matcher: HalfMatcher, complete: bool
) -> int:
    here, there = tile.px[side], tile.px[1 - side]
    read = tile.pips[side]
    nearest = matcher.nearest(crop_half(image, here, there))
    if read not in nearest.distances:
        return nearest.value if complete else read
    if nearest.value != read and nearest.ratio(read) >= REREAD and nearest.margin >= CLEAR:
        return nearest.value
    return read


def recheck(
    image: NDArray[np.uint8], detection: Detection, matcher: HalfMatcher, *, complete: bool = True
) -> Detection:
    """`detection` with each half the set's halves plainly read otherwise re-read.
    `complete`: the matcher holds every number of the set (an enrolled set's model), so a
    number it has no crop of is no number of the set; else (halves of a few tiles only)
    such a half is left as read."""
    if not detection.tiles:
        return detection
    tiles = []
    for tile in detection.tiles:
        a = _half(image, tile, 0, matcher, complete)
        b = _half(image, tile, 1, matcher, complete)
        tiles.append(tile if (a, b) == tile.pips else replace(tile, pips=(a, b)))
    return replace(detection, tiles=tuple(tiles))
