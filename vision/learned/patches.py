"""A candidate tile as the learned veto sees it: the frame around the tile, turned so
the tile lies along the patch, at a fixed number of pixels per tile width.

A candidate is given as the detector reports a tile (`FoundTile.px`): the centres of
its two halves, one tile width apart. Its patch is `LONG` x `ACROSS` pixels at `PER_WIDTH`
pixels per tile width (the tile's 2 x 1 widths and half a width of what surrounds it
on every side), sampled bilinearly from the frame after shrinking it by area when the
tile is wider than `PER_WIDTH` (no aliasing of grain or pips); outside the frame the
edge is repeated. Training (`training/veto_data.py`) cuts its patches with this same
code, so the net sees at run time what it learned on.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

PER_WIDTH: Final = 16  # patch pixels per tile width
LONG: Final = 3 * PER_WIDTH  # along the tile: 2 widths of tile, half a width each end
ACROSS: Final = 2 * PER_WIDTH  # across it: 1 width of tile, half a width each side

Image = npt.NDArray[np.uint8]
Point = tuple[float, float]
Candidate = tuple[Point, Point]


def patch(frame: Image, px: Candidate) -> Image:
    """The `ACROSS` x `LONG` BGR patch of the candidate tile whose half centres are `px`
    (frame pixels); a candidate of no width gives a patch of the frame's edge colour."""
    (xa, ya), (xb, yb) = px
    width = math.hypot(xb - xa, yb - ya)
    if width < 1e-6:
        width, ux, uy = 1.0, 1.0, 0.0
    else:
        ux, uy = (xb - xa) / width, (yb - ya) / width
    cx, cy = (xa + xb) / 2, (ya + yb) / 2
    h, w = frame.shape[:2]
    # the frame near the tile: a box that holds the patch (radius: its half diagonal)
    reach = 0.5 * math.hypot(LONG, ACROSS) / PER_WIDTH * width + 2
    x0, y0 = max(0, int(cx - reach)), max(0, int(cy - reach))
    x1, y1 = min(w, int(cx + reach) + 2), min(h, int(cy + reach) + 2)
    if x1 - x0 < 2 or y1 - y0 < 2:  # the candidate lies outside the frame
        x0, y0 = min(max(0, int(cx)), w - 2), min(max(0, int(cy)), h - 2)
        x1, y1 = x0 + 2, y0 + 2
    local = frame[y0:y1, x0:x1]
    shrink = min(1.0, PER_WIDTH / width)
    if shrink < 0.9:
        size = (max(2, round((x1 - x0) * shrink)), max(2, round((y1 - y0) * shrink)))
        sx, sy = size[0] / (x1 - x0), size[1] / (y1 - y0)
        local = np.asarray(cv2.resize(local, size, interpolation=cv2.INTER_AREA), dtype=np.uint8)
    else:
        sx = sy = 1.0
    step = width / PER_WIDTH  # frame pixels per patch pixel
    # patch pixel (i, j) -> frame point; then into the (shrunk) box
    ox = cx - (LONG - 1) / 2 * step * ux + (ACROSS - 1) / 2 * step * uy
    oy = cy - (LONG - 1) / 2 * step * uy - (ACROSS - 1) / 2 * step * ux
    matrix = np.array(
        [
            [step * ux * sx, -step * uy * sx, ((ox - x0) + 0.5) * sx - 0.5],
            [step * uy * sy, step * ux * sy, ((oy - y0) + 0.5) * sy - 0.5],
        ],
        dtype=np.float64,
    )
    out = cv2.warpAffine(
        local,
        matrix,
        (LONG, ACROSS),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return np.asarray(out, dtype=np.uint8)


def patches(frame: Image, tiles: Sequence[Candidate]) -> Image:
    """`patch` of each candidate, stacked: (n, ACROSS, LONG, 3)."""
    if not tiles:
        return np.zeros((0, ACROSS, LONG, 3), dtype=np.uint8)
    return np.stack([patch(frame, px) for px in tiles])


def net_input(stack: Image) -> npt.NDArray[np.float32]:
    """Patches (n, ACROSS, LONG, 3) as the net's input (n, 3, ACROSS, LONG): each patch
    less its mean, over its spread (light and exposure are no evidence of a tile)."""
    x = stack.astype(np.float32)
    mean = x.mean(axis=(1, 2, 3), keepdims=True)
    spread = x.std(axis=(1, 2, 3), keepdims=True) + np.float32(8.0)
    return np.ascontiguousarray(((x - mean) / spread).transpose(0, 3, 1, 2), dtype=np.float32)
