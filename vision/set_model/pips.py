"""A half's pips counted as the set's own: marks of its pips' size and contrast.

The set model knows its pips: how far they stand from the face (`contrast`, Lab units,
`vision.set_model.halves.contrast_of`) and how wide they are (`pip_share`, a pip's
diameter over the tile's width). `count_pips` counts them in a half cut straight
(`crop_half`, at the frame's own resolution): the pixels further from the half's
face colour (its median) than half the half's own far end (its pips' contrast: a set
may colour each number's pips apart), and at least `FLOOR` of the set's, in marks
whose centre lies within the half's grid (not the rim, the divider or a neighbour's pips beyond it).
A mark of the pip's size is one pip; a larger one (pips run together) counts as its
area in pips; a ring with a hole (a ringed set's empty places) is no pip; a mark
smaller than `SPECK` of a pip is a speck.

`pip_share_of` measures the pips' size from a set's crops where enrolment did not
(a set enrolled loose, or halves of a photo).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.set_model.halves import PIP_FIELD

__all__ = ["count_pips", "pip_share_of"]

U8 = NDArray[np.uint8]

FAR: Final = 0.5  # of the half's far end: a pixel this far from the face is a mark's
FLOOR: Final = 0.15  # of the set's contrast: the least a mark stands from the face
SPECK: Final = 0.3  # of a pip's area: a smaller mark is a speck
RING: Final = 1.6  # a mark whose outline encloses this many times its area has a hole
INNER: Final = 0.42  # of the half's side: how far from its centre a pip's centre lies


def _marks(
    crop: U8, contrast: float
) -> tuple[int, NDArray[np.int32], NDArray[np.int32], NDArray[np.float64]]:
    lab = np.asarray(cv2.cvtColor(crop, cv2.COLOR_BGR2Lab), dtype=np.float32)
    face = np.median(lab.reshape(-1, 3), axis=0)
    distance = np.linalg.norm(lab - face, axis=2)
    side = crop.shape[0]
    rim = round(side * (1.0 - PIP_FIELD) / 2.0)
    end = float(np.percentile(distance[rim : side - rim, rim : side - rim], 97))
    # a set whose pips differ in colour by number (one contrast for all would lose the
    # paler ones): half this half's own far end, but never under `FLOOR` of the set's
    far = distance > max(FLOOR * contrast, FAR * min(end, contrast))
    n, labels, stats, centres = cv2.connectedComponentsWithStats(
        far.astype(np.uint8), connectivity=8
    )
    return n, labels, stats, centres


def count_pips(crop: U8, contrast: float, pip_share: float) -> int:
    """The pips of a half (`crop`: `crop_half` of it, square, the divider at its foot,
    at about the frame's resolution) of a set whose pips stand `contrast` from its
    face and are `pip_share` of the tile's width across."""
    side = crop.shape[0]
    pip = np.pi * (pip_share * side / 2.0) ** 2
    n, labels, stats, centres = _marks(crop, contrast)
    middle = (side - 1) / 2.0
    total = 0
    for i in range(1, n):
        area = float(stats[i, cv2.CC_STAT_AREA])
        cx, cy = centres[i]
        if area < SPECK * pip or max(abs(cx - middle), abs(cy - middle)) > INNER * side:
            continue
        if area < 2.5 * pip and _ring(labels == i, area):
            continue
        total += max(1, round(area / pip))
    return total


def _ring(mask: NDArray[np.bool_], area: float) -> bool:
    """True when the mark's outline encloses much more than the mark (a ring)."""
    outlines, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    enclosed = max(cv2.contourArea(c) + len(c) / 2.0 for c in outlines)
    return enclosed > RING * area


def pip_share_of(crops: Sequence[tuple[int, U8]], contrast: float) -> float | None:
    """A pip's diameter over the tile's width, from halves of one to six pips (the
    median of their marks of the number's count, largest first), or None."""
    shares = []
    for value, crop in crops:
        if not 1 <= value <= 6:
            continue
        side = crop.shape[0]
        n, _, stats, _ = _marks(crop, contrast)
        areas = sorted((float(stats[i, cv2.CC_STAT_AREA]) for i in range(1, n)), reverse=True)
        if len(areas) >= value:
            shares += [2.0 * np.sqrt(a / np.pi) / side for a in areas[:value]]
    return float(np.median(shares)) if shares else None
