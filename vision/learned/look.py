"""The learned part's look at a whole frame, at a scale where its tiles read well.

The net reads tiles best about 36 px wide (it was trained on 16-80). A frame's scale
is unknown, so `pixel_masks` looks twice: once at a coarse size (the frame's longer
side at 384 px; twice that when it finds no tile) to find the tile material and its
width (twice the largest disc that fits in a blob of it), then, when the tiles there
are not already 26-52 px wide, again at the scale that makes them 36 px wide, over the
material's bounding box only (at most `MAX_PIXELS`). Given the tiles' width (`hint_width_px`: a
caller that knows it), it looks once, at that scale.
"""

from __future__ import annotations

import math
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from vision.learned.classes import PixelClass
from vision.learned.masks import Masks
from vision.learned.net import Image, Probabilities, probabilities

COARSE_SIDE: Final = 384
TARGET_WIDTH: Final = 36.0  # px: the tile width the fine look works at
GOOD_WIDTHS: Final = (26.0, 52.0)  # a coarse look with tiles this wide is kept as it is
MAX_PIXELS: Final = 640 * 640  # the fine look's budget
MIN_DIVIDER_PX: Final = 5.0  # a divider shorter than this is no evidence of a width
MIN_WIDTH: Final = 6.0  # px: a blob of material narrower than this is no tile's

Points = npt.NDArray[np.float64]


def _resized(image: Image, scale: float) -> Image:
    if abs(scale - 1.0) < 1e-6:
        return image
    h, w = image.shape[:2]
    size = (max(16, round(w * scale)), max(16, round(h * scale)))
    mode = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    return np.asarray(cv2.resize(image, size, interpolation=mode), dtype=np.uint8)


Line = tuple[Points, Points, float, float]  # centre, unit direction, length, thickness


def divider_lines(probs: Probabilities) -> list[Line]:
    """Each divider the net marks: (centre, unit direction along it, length,
    thickness), in the net's pixels, from the second moments of each blob of divider
    pixels that is longer than it is thick; two pieces in one line with a short gap
    (a pin the net did not mark as divider) are one divider."""
    mask = (probs[int(PixelClass.DIVIDER)] > 0.5).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    pieces: list[Points] = []
    for k in range(1, count):
        if stats[k, cv2.CC_STAT_AREA] < 3:
            continue
        x0, y0 = stats[k, cv2.CC_STAT_LEFT], stats[k, cv2.CC_STAT_TOP]
        w, h = stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT]
        ys, xs = np.nonzero(labels[y0 : y0 + h, x0 : x0 + w] == k)
        pieces.append(np.stack([xs + x0, ys + y0], axis=1).astype(np.float64))
    lines = [_line(p) for p in _joined(pieces)]
    return [ln for ln in lines if ln[2] >= 2.5 * ln[3] and ln[2] >= MIN_DIVIDER_PX]


def _line(pts: Points) -> Line:
    centre = pts.mean(axis=0)
    cov = np.cov((pts - centre).T) if len(pts) > 2 else np.eye(2) * 0.1
    values, vectors = np.linalg.eigh(cov)
    length = math.sqrt(12 * max(values[1], 0.0)) + 1.0
    thick = math.sqrt(12 * max(values[0], 0.0)) + 1.0
    return centre, vectors[:, 1], length, thick


def _joined(pieces: list[Points]) -> list[Points]:
    """Pieces joined while two lie on one line (within a pixel and a half across it)
    with a gap between their ends shorter than half the shorter one's length."""
    out = list(pieces)
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                if _one_line(_line(out[i]), _line(out[j])):
                    out[i] = np.vstack([out[i], out[j]])
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out


def _one_line(a: Line, b: Line) -> bool:
    (ca, da, la, ta), (cb, db, lb, tb) = a, b
    if min(la / ta, lb / tb) < 1.5 or abs(float(da @ db)) < 0.95:
        return False
    between = cb - ca
    across = abs(float(between @ np.array([-da[1], da[0]])))
    gap = abs(float(between @ da)) - (la + lb) / 2
    return across <= 1.5 + 0.5 * max(ta, tb) and gap <= 0.5 * min(la, lb) + 1.0


def _width_of(probs: Probabilities) -> float | None:
    """The tiles' width in these pixels: twice the largest disc that fits in each
    blob of tile material (a tile alone or in a line: its width), the median over the
    blobs of some size; None when there is none, or it is wider than the image."""
    material = (probs[int(PixelClass.TABLE)] < 0.5).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(material, connectivity=8)
    if count < 2:
        return None
    inside = cv2.distanceTransform(material, cv2.DIST_L2, 3)
    widths = []
    for k in range(1, count):
        x0, y0 = stats[k, cv2.CC_STAT_LEFT], stats[k, cv2.CC_STAT_TOP]
        bw, bh = stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT]
        width = 2.0 * float(
            inside[y0 : y0 + bh, x0 : x0 + bw][labels[y0 : y0 + bh, x0 : x0 + bw] == k].max()
        )
        if width >= MIN_WIDTH and stats[k, cv2.CC_STAT_AREA] >= 1.5 * width * width:
            widths.append(width)  # a blob of a tile's shape at least (not a speck)
    if not widths:
        return None
    width = float(np.median(widths))
    return width if width <= min(probs.shape[1:]) else None


def _box(probs: Probabilities, margin: float) -> tuple[int, int, int, int] | None:
    """The bounding box (x0, y0, x1, y1) of the face-up material, grown by `margin`."""
    ys, xs = np.nonzero(probs[int(PixelClass.TABLE)] < 0.5)
    if len(xs) == 0:
        return None
    h, w = probs.shape[1:]
    m = math.ceil(margin)
    return (max(0, int(xs.min()) - m), max(0, int(ys.min()) - m),
            min(w, int(xs.max()) + m + 1), min(h, int(ys.max()) + m + 1))  # fmt: skip


def _look(frame: Image, box: tuple[float, float, float, float], scale: float) -> Masks:
    """The net over the frame's `box` (x0, y0, x1, y1) resized by `scale` (at most
    `MAX_PIXELS` of the net's)."""
    x0, y0, x1, y1 = box
    area = (x1 - x0) * (y1 - y0) * scale * scale
    if area > MAX_PIXELS:
        scale *= math.sqrt(MAX_PIXELS / area)
    h, w = frame.shape[:2]
    ix0, iy0 = max(0, math.floor(x0)), max(0, math.floor(y0))
    ix1, iy1 = min(w, math.ceil(x1)), min(h, math.ceil(y1))
    region = np.ascontiguousarray(frame[iy0:iy1, ix0:ix1])
    seen = _resized(region, scale)
    sx, sy = seen.shape[1] / region.shape[1], seen.shape[0] / region.shape[0]
    probs = probabilities(seen)
    return Masks(probs, float((sx + sy) / 2), (float(ix0), float(iy0)), _width_of(probs))


def pixel_masks(frame: Image, hint_width_px: float | None = None) -> Masks:
    """The net's marks of a BGR `frame`, at a scale where its tiles are about 36 px
    wide (`hint_width_px`: the tiles' width in the frame when known, which skips the
    coarse look)."""
    h, w = frame.shape[:2]
    whole = (0.0, 0.0, float(w), float(h))
    if hint_width_px is not None:
        return _look(frame, whole, TARGET_WIDTH / hint_width_px)
    coarse = _look(frame, whole, min(1.0, COARSE_SIDE / max(h, w)))
    if coarse.width is None and coarse.scale < 1.0:  # small tiles: look closer, once
        coarse = _look(frame, whole, min(1.0, 2 * coarse.scale))
    if coarse.width is None or GOOD_WIDTHS[0] <= coarse.width <= GOOD_WIDTHS[1]:
        return coarse
    width_px = coarse.width / coarse.scale
    box = _box(coarse.probs, 1.5 * coarse.width)
    x0, y0, x1, y1 = (v / coarse.scale for v in box) if box else whole
    return _look(frame, (x0, y0, x1, y1), TARGET_WIDTH / width_px)
