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

from vision.pips.counting import (
    HalfReading,
    in_half,
    read_half,
    round_blobs,
)
from vision.pips.settings import PIPS, PipSettings
from vision.tiles.dark_marks import components, find_blobs
from vision.tiles.dividers import TileHypothesis
from vision.trace import Trace

logger = logging.getLogger(__name__)

U8 = NDArray[np.uint8]


def _half_window(
    img: U8, tile: TileHypothesis, side: int, cfg: PipSettings
) -> tuple[int, int, int, int] | None:
    """The box (x0, y0, x1, y1) round half `side`, `PipSettings.window` tile widths
    each way, clipped to the image; None when too little of it is in the image."""
    hx, hy = tile.half_centres()[side]
    r = int(np.ceil(cfg.window * tile.width))
    h, w = img.shape
    x0, y0 = max(0, int(hx) - r), max(0, int(hy) - r)
    x1, y1 = min(w, int(hx) + r + 1), min(h, int(hy) + r + 1)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    return x0, y0, x1, y1


def reread_half(
    img: U8,
    bright: U8,
    solid: U8,
    tile: TileHypothesis,
    side: int,
    ref_area: float,
    cfg: PipSettings = PIPS,
    trace: Trace | None = None,
) -> HalfReading | None:
    """Read half `side` again with a threshold set from that half alone, if possible
    (`trace`: as for `read_half`)."""
    window = _half_window(img, tile, side, cfg)
    if window is None:
        return None
    x0, y0, x1, y1 = window
    roi = img[y0:y1, x0:x1]
    roi_bright = bright[y0:y1, x0:x1]
    roi_solid = solid[y0:y1, x0:x1] > 0
    contrast = roi_bright.astype(np.int16) - roi.astype(np.int16)
    on = contrast[roi_solid]
    if on.size == 0:
        return None
    values = np.clip(on, 0, 255).astype(np.uint8).reshape(-1, 1)
    split, _ = cv2.threshold(values, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    need = max(cfg.min_contrast, int(split))
    marks = np.asarray((contrast > need) & roi_solid, dtype=np.uint8)
    blobs = find_blobs(marks, roi, roi_bright, max_area=float(marks.size) / 4.0)
    local = replace(tile, blob=0, cx=tile.cx - x0, cy=tile.cy - y0)
    return read_half(blobs, local, side, ref_area, cfg, trace)


def apart_half(
    img: U8,
    bright: U8,
    need: tuple[int, float, int],
    tile: TileHypothesis,
    side: int,
    ref_area: float,
    pip: float,
    cfg: PipSettings = PIPS,
    trace: Trace | None = None,
) -> HalfReading | None:
    """Read half `side` again, its marks taken on the whole half (up to `PipSettings.apart_rim`
    from the tile's edge, tile material or not) at the frame's mark threshold
    `need` (min_contrast, rel_contrast, split), and opened by a disc of `apart` pip
    diameters: thin lines (the divider, the gap to a touching neighbour, the rim)
    drop out, and a pip that touched one comes apart from it as a round blob.

    A pip merged with the divider was part of a long mark and not counted; a pip at
    the tile's corner that touches its shaded rim is joined through it to the table
    and lies outside the tile material (its hole is not enclosed): either way a 2
    was read as a lop-sided 1. None when the pip size is unknown or too small.
    `trace`: as for `read_half`."""
    size = round(cfg.apart * pip)
    if size < 3:
        return None
    window = _half_window(img, tile, side, cfg)
    if window is None:
        return None
    x0, y0, x1, y1 = window
    hx, hy = tile.half_centres()[side]
    roi, roi_bright = img[y0:y1, x0:x1], bright[y0:y1, x0:x1]
    ys, xs = np.mgrid[y0:y1, x0:x1]
    along = (xs - hx) * tile.nx + (ys - hy) * tile.ny
    across = (xs - hx) * tile.dx + (ys - hy) * tile.dy
    reach = (0.5 - cfg.apart_rim) * tile.width
    on_half = (np.abs(along) <= reach) & (np.abs(across) <= reach)
    min_contrast, rel_contrast, split = need
    lit = roi_bright.astype(np.float32)
    contrast = lit - roi.astype(np.float32)
    limit = np.maximum(min_contrast, np.minimum(split, lit * rel_contrast))
    marks = np.asarray((contrast > limit) & on_half, dtype=np.uint8)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    opened = np.asarray(cv2.morphologyEx(marks, cv2.MORPH_OPEN, disc), dtype=np.uint8)
    blobs = find_blobs(opened, roi, roi_bright, max_area=float(opened.size) / 4.0)
    local = replace(tile, blob=0, cx=tile.cx - x0, cy=tile.cy - y0)
    return read_half(blobs, local, side, ref_area, cfg, trace)


def faint_pips(
    img: U8,
    bright: U8,
    solid: U8,
    tile: TileHypothesis,
    side: int,
    ref_area: float,
    need: tuple[int, float, int],
    beyond: int | None = None,
    cfg: PipSettings = PIPS,
) -> int:
    """How many round, pip-sized marks half `side` shows at half the mark contrast
    (`PipSettings.faint_share` of it, never closer to the face than `faint_min`).

    With `beyond` given, only whether the count exceeds it is wanted: a count of at
    most `beyond` may then be returned as any number up to `beyond` (the marks of a
    pip's size clear of the window's edge, a bound found before any blob is
    measured).

    `need` is the frame's mark threshold as `(min_contrast, rel_contrast, split)` (see
    `vision.tiles.dark_marks.mark_mask`). A pip washed out by glare, or printed in a pale colour
    (the green 1 of a coloured set), falls short of the frame's threshold and the half
    reads one pip short: as a blank when it is the only one. Seen at half the
    contrast it is still a round mark of a pip's size; noise and grain are not.
    """
    window = _half_window(img, tile, side, cfg)
    if window is None:
        return 0
    x0, y0, x1, y1 = window
    roi = img[y0:y1, x0:x1]
    roi_bright = bright[y0:y1, x0:x1]
    min_contrast, rel_contrast, split = need
    threshold = np.maximum(
        min_contrast, np.minimum(split, roi_bright.astype(np.float32) * rel_contrast)
    )
    # depth under the face right around each place (a black-hat by a square twice a
    # pip's width): shading across a face is broad and drops out, a pip does not
    d = 2.0 * np.sqrt(max(ref_area, 1.0) / np.pi)
    k = max(3, round(2.0 * d) | 1)
    square = np.ones((k, k), np.uint8)
    contrast = np.asarray(cv2.morphologyEx(roi, cv2.MORPH_BLACKHAT, square), dtype=np.int16)
    low = np.maximum(cfg.faint_share * threshold, cfg.faint_min)
    marks = np.asarray((contrast > low) & (solid[y0:y1, x0:x1] > 0), dtype=np.uint8)
    max_area = float(marks.size) / 4.0
    labelled = components(marks)
    if beyond is not None:
        bound = _faint_bound(labelled, marks.shape, (x0, y0), tile, side, ref_area, cfg)
        if bound <= beyond:
            return bound
    blobs = find_blobs(marks, roi, roi_bright, max_area=max_area, labelled=labelled)
    local = replace(tile, blob=0, cx=tile.cx - x0, cy=tile.cy - y0)
    idx = in_half(blobs, local, side, cfg)
    area = blobs.area[idx]
    # a pip lies inside the half: what reaches the window's edge is a tile's rim or
    # shadow (on a table as light as the face), which may bend into a round-looking L
    pip_like = (
        (area >= cfg.faint_pip * ref_area)
        & (area <= cfg.faint_growth * ref_area)
        & round_blobs(blobs, cfg)[idx]
        & ~blobs.touches_edge[idx]
    )
    return int(pip_like.sum())


def _faint_bound(
    labelled: tuple[int, NDArray[np.int32], NDArray[np.int32], NDArray[np.float64]],
    shape: tuple[int, ...],
    at: tuple[int, int],
    tile: TileHypothesis,
    side: int,
    ref_area: float,
    cfg: PipSettings,
) -> int:
    """An upper bound of `faint_pips`' count from the faint marks `labelled` (window of
    `shape` at `at` in the image): the marks of a pip's size clear of the window's
    edge whose centres lie in the half."""
    _, _, stats, cents = labelled
    mh, mw = shape[:2]
    hx, hy = tile.half_centres()[side]
    # where each centre lies from the half's centre, along and across the tile
    # (with a pixel to spare, so that the bound holds whatever the rounding)
    ox = cents[:, 0] - (hx - at[0])
    oy = cents[:, 1] - (hy - at[1])
    along = ox * tile.nx + oy * tile.ny
    across = ox * tile.dx + oy * tile.dy
    reach = cfg.half_reach * tile.width + 1.0
    sign = -1.0 if side == 0 else 1.0
    left = stats[:, cv2.CC_STAT_LEFT]
    top = stats[:, cv2.CC_STAT_TOP]
    sized = np.asarray(stats[:, cv2.CC_STAT_AREA], dtype=np.float64)
    clear = (
        (left > 0)
        & (top > 0)
        & (left + stats[:, cv2.CC_STAT_WIDTH] < mw)
        & (top + stats[:, cv2.CC_STAT_HEIGHT] < mh)
        & (sized <= float(mh * mw) / 4.0)
        & (sized >= cfg.faint_pip * ref_area)
        & (sized <= cfg.faint_growth * ref_area)
        & (np.abs(along) < reach)
        & (np.abs(across) < reach)
        & (sign * along + tile.width / 2.0 > cfg.divider_clearance * tile.width - 1.0)
    )
    return int(clear[1:].sum())
