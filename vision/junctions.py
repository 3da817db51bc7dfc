"""Straight dark lines that meet: a divider joined to the gap beside its tile.

A double laid crosswise between two neighbours has its divider running to its long
sides, and those sides touch the neighbours' ends: at the divider's contrast the
divider and the dark gap between the tiles merge into one T-shaped mark, which is
neither thin nor straight, so it is no divider and the double is lost. Where tiles
touch, such meetings are everywhere (a divider reaching the gap beside it, two gaps
crossing).

`cut_junctions` finds, in the marks that are long enough to hold a divider but not
thin, the pixels where two straight lines of different directions (45 degrees apart
or more) meet, and takes them out with a pixel around them: the lines come apart and
each is measured on its own. A line is a straight segment of `LINE_PIPS` pip
diameters (openings by line segments in `ANGLES` directions): a pip, or a row of
merged pips, holds one only along the row, and never two crossing ones.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.dividers import MIN_DIVIDER_AREA, MIN_DIVIDER_PX, MIN_ELONGATION
from vision.marks import Blobs

U8 = NDArray[np.uint8]

ANGLES = 12  # directions of the straight-segment test, 15 degrees apart
LINE_PIPS = 2.5  # a line holds a straight segment this many pip diameters long
APART = 3  # directions at least this many steps apart (45 degrees) cross
MAX_CANDIDATES = 200  # a frame with more such marks (a patterned table) is left alone


def line_kernel(length: int, angle: float) -> U8:
    """A one-pixel line segment of `length` through the kernel's centre at `angle`."""
    kernel = np.zeros((length, length), dtype=np.uint8)
    c = (length - 1) / 2.0
    dx, dy = c * np.cos(angle), c * np.sin(angle)
    p0 = (round(c - dx), round(c - dy))
    p1 = (round(c + dx), round(c + dy))
    cv2.line(kernel, p0, p1, 1, 1)
    return kernel


def segment_length(pip: float) -> int:
    """The straight segment a line must hold, in pixels (odd), or 0 when unknown."""
    if pip <= 0:
        return 0
    length = round(LINE_PIPS * pip) | 1
    return length if length >= 7 else 0


def _candidates(blobs: Blobs, length: int) -> NDArray[np.intp]:
    """Marks long enough to hold a divider but not thin: lines that may have met."""
    ok = (
        (blobs.area >= MIN_DIVIDER_AREA)
        & (blobs.length >= max(MIN_DIVIDER_PX, length))
        & (blobs.length < MIN_ELONGATION * blobs.thickness)
        & ~blobs.touches_edge
    )
    ok[0] = False
    return np.flatnonzero(ok)


def _cuts(sub: U8, kernels: list[U8]) -> NDArray[np.bool_]:
    """Pixels of `sub` to take out: around each place where a straight line ends on
    another of a crossing direction (a T or an L), the pixels of the line that ends.

    A line that runs on through the meeting (holds a whole segment centred there:
    the gap beside a double, wood grain across a divider) keeps its pixels, so two
    lines that cross (a +) stay as they are.
    """
    ring = np.ones((3, 3), np.uint8)
    lines = np.stack([cv2.morphologyEx(sub, cv2.MORPH_OPEN, k) > 0 for k in kernels])
    n = len(kernels)
    meet = np.zeros(sub.shape, dtype=np.bool_)
    for a in range(n):
        if not lines[a].any():
            continue
        far = [b for b in range(n) if min(abs(a - b), n - abs(a - b)) >= APART]
        meet |= lines[a] & lines[far].any(axis=0)
    if not meet.any():
        return meet
    cut = (cv2.dilate(meet.astype(np.uint8), ring) > 0) & (sub > 0)
    keep = np.zeros(sub.shape, dtype=np.bool_)
    for a in range(n):
        through = (cv2.erode(sub, kernels[a]) > 0) & meet
        if through.any():
            keep |= (cv2.dilate(through.astype(np.uint8), ring) > 0) & lines[a]
    return cut & ~keep


def cut_junctions(mask: U8, blobs: Blobs, pip: float) -> U8 | None:
    """`mask` with the places where straight lines meet taken out (see the module),
    or None when there are none (or the pip size is unknown).

    The marks looked at are cut out of the frame and laid side by side, a segment's
    length apart (no segment spans two of them), so the openings run once on a small
    image."""
    length = segment_length(pip)
    if length == 0:
        return None
    idx = _candidates(blobs, length)
    if idx.size == 0 or idx.size > MAX_CANDIDATES:
        return None
    h, w = mask.shape
    boxes: list[tuple[int, int, int, int]] = []
    for i in idx:
        reach = float(blobs.length[i]) + 2.0
        x0, x1 = max(0, int(blobs.cx[i] - reach)), min(w, int(blobs.cx[i] + reach) + 1)
        y0, y1 = max(0, int(blobs.cy[i] - reach)), min(h, int(blobs.cy[i] + reach) + 1)
        boxes.append((x0, y0, x1, y1))
    tall = max(y1 - y0 for _, y0, _, y1 in boxes)
    at = np.cumsum([0] + [x1 - x0 + length for x0, _, x1, _ in boxes])
    strip = np.zeros((tall, int(at[-1])), dtype=np.uint8)
    for k, (i, (x0, y0, x1, y1)) in enumerate(zip(idx, boxes, strict=True)):
        strip[: y1 - y0, at[k] : at[k] + x1 - x0] = blobs.labels[y0:y1, x0:x1] == i
    kernels = [line_kernel(length, np.pi * i / ANGLES) for i in range(ANGLES)]
    cut = _cuts(strip, kernels)
    if not cut.any():
        return None
    out = mask.copy()
    for k, (x0, y0, x1, y1) in enumerate(boxes):
        part = cut[: y1 - y0, at[k] : at[k] + x1 - x0]
        if part.any():
            out[y0:y1, x0:x1][part] = 0
    return out
