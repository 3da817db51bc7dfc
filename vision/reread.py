"""A second look at a doubtful half, with a threshold of its own.

The frame-wide mark threshold suits most pips, but a pip washed out by glare on a
glossy face, or printed paler than the rest, can fall short of it and leave a layout
that no domino has (a 3 read as 2 lop-sided pips). Such a half is thresholded again
on its own (Otsu's split between its face and its marks). The new reading replaces
the first only when it is surer.
"""

from __future__ import annotations

import logging
from dataclasses import replace

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.dividers import TileHypothesis
from vision.marks import find_blobs
from vision.pips import HalfReading, read_half

logger = logging.getLogger(__name__)

U8 = NDArray[np.uint8]
MIN_CONTRAST = 20


def reread_half(
    img: U8,
    bright: U8,
    solid: U8,
    tile: TileHypothesis,
    side: int,
    ref_area: float,
) -> HalfReading | None:
    """Read half `side` again with a threshold set from that half alone, if possible."""
    hx, hy = tile.half_centres()[side]
    r = int(np.ceil(0.6 * tile.width))
    h, w = img.shape
    x0, y0 = max(0, int(hx) - r), max(0, int(hy) - r)
    x1, y1 = min(w, int(hx) + r + 1), min(h, int(hy) + r + 1)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    roi = img[y0:y1, x0:x1]
    roi_bright = bright[y0:y1, x0:x1]
    roi_solid = solid[y0:y1, x0:x1] > 0
    contrast = roi_bright.astype(np.int16) - roi.astype(np.int16)
    on = contrast[roi_solid]
    if on.size == 0:
        return None
    values = np.clip(on, 0, 255).astype(np.uint8).reshape(-1, 1)
    split, _ = cv2.threshold(values, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    need = max(MIN_CONTRAST, int(split))
    marks = np.asarray((contrast > need) & roi_solid, dtype=np.uint8)
    blobs = find_blobs(marks, roi, roi_bright, max_area=float(marks.size) / 4.0)
    local = replace(tile, blob=0, cx=tile.cx - x0, cy=tile.cy - y0)
    return read_half(blobs, local, side, ref_area)
