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
each is measured on its own. A line is a straight segment of `line_pips` pip
diameters (openings by line segments in `angles` directions, `MeetingSettings`): a pip, or a row of
merged pips, holds one only along the row, and never two crossing ones.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.tiles.dark_marks import Blobs, find_blobs
from vision.tiles.dividers import line_like
from vision.tiles.settings import DIVIDERS, MEETING, DividerSettings, MeetingSettings

U8 = NDArray[np.uint8]


def line_kernel(length: int, angle: float) -> U8:
    """A one-pixel line segment of `length` through the kernel's centre at `angle`."""
    kernel = np.zeros((length, length), dtype=np.uint8)
    c = (length - 1) / 2.0
    dx, dy = c * np.cos(angle), c * np.sin(angle)
    p0 = (round(c - dx), round(c - dy))
    p1 = (round(c + dx), round(c + dy))
    cv2.line(kernel, p0, p1, 1, 1)
    return kernel


def segment_length(pip: float, cfg: MeetingSettings = MEETING) -> int:
    """The straight segment a line must hold, in pixels (odd), or 0 when unknown."""
    if pip <= 0:
        return 0
    length = round(cfg.line_pips * pip) | 1
    return length if length >= cfg.min_segment_px else 0


def _candidates(blobs: Blobs, length: int, dividers: DividerSettings) -> NDArray[np.intp]:
    """Marks long enough to hold a divider but not thin: lines that may have met."""
    ok = (
        (blobs.area >= dividers.min_divider_area)
        & (blobs.length >= max(dividers.min_divider_px, length))
        & ~line_like(blobs, dividers)
        & ~blobs.touches_edge
    )
    ok[0] = False
    return np.flatnonzero(ok)


def _cuts(sub: U8, kernels: list[U8], cfg: MeetingSettings) -> NDArray[np.bool_]:
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
        far = [b for b in range(n) if min(abs(a - b), n - abs(a - b)) >= cfg.apart]
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


def _box(blobs: Blobs, i: int, pad: int) -> tuple[int, int, int, int]:
    """The bounding box of blob `i`, grown by `pad` (within the image)."""
    h, w = blobs.labels.shape
    if blobs.box is not None:
        x0, y0, x1, y1 = (int(v) for v in blobs.box[i])
    else:
        reach = 2.0 * float(blobs.length[i]) + 3.0
        x0, x1 = max(0, int(blobs.cx[i] - reach)), min(w, int(blobs.cx[i] + reach) + 1)
        y0, y1 = max(0, int(blobs.cy[i] - reach)), min(h, int(blobs.cy[i] + reach) + 1)
        ys, xs = np.nonzero(blobs.labels[y0:y1, x0:x1] == i)
        x0, y0, x1, y1 = (
            x0 + int(xs.min()),
            y0 + int(ys.min()),
            x0 + int(xs.max()) + 1,
            y0 + int(ys.max()) + 1,
        )
    return max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad)


def _pieces(
    labels: NDArray[np.int32],
    box: tuple[int, int, int, int],
    mine: NDArray[np.bool_],
    gone: NDArray[np.bool_],
    img: U8,
    bright: U8,
    max_area: float,
    start: int,
) -> Blobs:
    """The pieces of the mark `mine` (in `box`) without the pixels `gone`, measured
    in the frame's coordinates; in `labels` the mark's pixels are relabelled as its
    pieces, numbered from `start`."""
    x0, y0, x1, y1 = box
    pieces = find_blobs(
        np.asarray(mine & ~gone, dtype=np.uint8),
        img[y0:y1, x0:x1],
        bright[y0:y1, x0:x1],
        max_area,
    )
    window = labels[y0:y1, x0:x1]
    window[mine] = 0
    window[pieces.labels > 0] = pieces.labels[pieces.labels > 0] + start - 1
    shift = np.array([x0, y0, x0, y0], dtype=np.int64)
    boxes_px = None if pieces.box is None else pieces.box + shift
    return replace(pieces, cx=pieces.cx + x0, cy=pieces.cy + y0, box=boxes_px)


def split_junctions(
    blobs: Blobs,
    pip: float,
    img: U8,
    bright: U8,
    max_area: float,
    own: bool = False,
    cfg: MeetingSettings = MEETING,
    dividers: DividerSettings = DIVIDERS,
) -> Blobs | None:
    """`blobs` with every mark in which straight lines meet split where they meet
    (see the module): the mark's pieces become blobs of their own, at the end, and
    the mark itself is emptied (area 0); None when there is nothing to split (or the
    pip size is unknown).

    The marks looked at are cut out of the frame and laid in rows, a segment's
    length apart (no segment spans two of them; `_laid`), so the openings run once on
    a small image; only the marks split are measured again. With `own`, `blobs` is the
    caller's own, and its label image is changed in place (not copied)."""
    length = segment_length(pip, cfg)
    if length == 0:
        return None
    idx = _candidates(blobs, length, dividers)
    if idx.size == 0 or idx.size > cfg.max_candidates:
        return None
    boxes = [_box(blobs, int(i), 1) for i in idx]
    places, shape = _laid([(x1 - x0, y1 - y0) for x0, y0, x1, y1 in boxes], length)
    strip = np.zeros(shape, dtype=np.uint8)
    for i, (x0, y0, x1, y1), (px, py) in zip(idx, boxes, places, strict=True):
        strip[py : py + y1 - y0, px : px + x1 - x0] = blobs.labels[y0:y1, x0:x1] == i
    kernels = [line_kernel(length, np.pi * i / cfg.angles) for i in range(cfg.angles)]
    cut = _cuts(strip, kernels, cfg)
    if not cut.any():
        return None
    labels = blobs.labels if own else blobs.labels.copy()
    area = blobs.area.copy()
    parts: list[Blobs] = []
    start = len(blobs)
    for i, (x0, y0, x1, y1), (px, py) in zip(idx, boxes, places, strict=True):
        gone = cut[py : py + y1 - y0, px : px + x1 - x0]
        if not gone.any():
            continue
        mine = strip[py : py + y1 - y0, px : px + x1 - x0] > 0
        part = _pieces(labels, (x0, y0, x1, y1), mine, gone, img, bright, max_area, start)
        area[i] = 0.0
        start += len(part) - 1
        parts.append(part)
    if not parts:
        return None
    return _joined(blobs, labels, area, parts)


def _laid(sizes: list[tuple[int, int]], gap: int) -> tuple[list[tuple[int, int]], tuple[int, int]]:
    """Where boxes of `sizes` (width, height) lie in one image, `gap` pixels apart, and
    the image's shape (height, width): in rows about as wide as the boxes' area is
    deep, the tallest first (one row of them all was as tall as the tallest and as
    wide as all: on a printed board, a long line among many short marks made it
    twenty times the marks' area). Each box keeps a zero rim of its own (`_box`'s
    pad), so a mark's openings see nothing of another or of the image's edge."""
    row = max(
        max(w for w, _ in sizes) + gap,
        int(np.sqrt(sum((w + gap) * (h + gap) for w, h in sizes))),
    )
    places = [(0, 0)] * len(sizes)
    x = y = tall = wide = 0
    for k in sorted(range(len(sizes)), key=lambda k: -sizes[k][1]):
        w, h = sizes[k]
        if x > 0 and x + w > row:
            x, y, tall = 0, y + tall + gap, 0
        places[k] = (x, y)
        wide = max(wide, x + w + gap)
        x, tall = x + w + gap, max(tall, h)
    return places, (y + tall, wide)


def _head_split(
    mine: U8, pip: float, cfg: MeetingSettings, dividers: DividerSettings
) -> NDArray[np.bool_] | None:
    """The pixels to take out of the mark `mine` (a cut image) between a pip and the
    divider it is joined to, or None when the mark is no such pair: an opening by a
    disc smaller than a pip and thicker than the line keeps one round head of a
    pip's size, the rest (without a pixel around the head) is one straight line
    holding a divider's length of `line_pips` pips, and the head sits at the line's
    end (a head at its middle is a spinner pin, `dividers.with_pins`)."""
    size = round(cfg.head_pips * pip) | 1
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    opened = np.asarray(cv2.morphologyEx(mine, cv2.MORPH_OPEN, disc), dtype=np.uint8)
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(opened, connectivity=8)
    low, high = cfg.head_area
    if count != 2 or not low <= stats[1, cv2.CC_STAT_AREA] / (np.pi / 4.0 * pip**2) <= high:
        return None
    ring = cv2.dilate(opened, np.ones((3, 3), np.uint8)) > 0
    rest = np.asarray((mine > 0) & ~ring, dtype=np.uint8)
    n, rl, rs, _ = cv2.connectedComponentsWithStats(rest, connectivity=8)
    if n < 2:
        return None
    big = 1 + int(np.argmax(rs[1:, cv2.CC_STAT_AREA]))
    if (rs[1:, cv2.CC_STAT_AREA].sum() - rs[big, cv2.CC_STAT_AREA]) > 0.25 * pip**2:
        return None  # more than one line, or a second head
    if rs[big, cv2.CC_STAT_AREA] < max(3, dividers.min_divider_area):
        return None
    ys, xs = np.nonzero(rl == big)
    pts = np.stack([xs, ys]).astype(np.float64)
    spread, axes = np.linalg.eigh(np.cov(pts) + np.eye(2) / 12.0)
    length = float(np.sqrt(12.0 * spread[1]))
    thick = float(np.sqrt(12.0 * max(float(spread[0]), 1e-6)))
    if length < max(dividers.min_divider_px, cfg.line_pips * pip):
        return None
    if length < dividers.min_elongation * thick:
        return None
    along = float((centroids[1] - pts.mean(axis=1)) @ axes[:, 1])
    if abs(along) < length / 4.0:
        return None
    return np.asarray(ring & (labels == 0) & (mine > 0), dtype=np.bool_)


def split_heads(
    blobs: Blobs,
    pip: float,
    img: U8,
    bright: U8,
    max_area: float,
    own: bool = False,
    cfg: MeetingSettings = MEETING,
    dividers: DividerSettings = DIVIDERS,
) -> Blobs | None:
    """`blobs` with every divider line that a pip touches at one end split from the
    pip (`_head_split`): the line is measured without the pip, and the pip is a pip
    of its own. (A blurred pip at a divider's end, on a face seen at a slant, joins
    the line; as one mark they were neither a divider nor a pip.) The pieces become
    blobs at the end, the mark itself is emptied; None when nothing is split (or
    the pip size is unknown). `own`: as for `split_junctions`."""
    if pip <= 0 or round(cfg.head_pips * pip) < 3:
        return None
    # a divider's length of line, and no more than a head and a line thinner than it
    idx = _candidates(blobs, round(cfg.line_pips * pip), dividers)
    head = np.pi / 4.0 * pip**2
    most = blobs.length[idx] * cfg.head_pips * pip + cfg.head_area[1] * head
    idx = idx[blobs.area[idx] <= most]
    if idx.size == 0 or idx.size > cfg.max_candidates:
        return None
    labels: NDArray[np.int32] | None = None
    area = blobs.area.copy()
    parts: list[Blobs] = []
    start = len(blobs)
    for i in idx:
        x0, y0, x1, y1 = _box(blobs, int(i), 1)
        mine = np.asarray(blobs.labels[y0:y1, x0:x1] == i, dtype=np.uint8)
        gone = _head_split(mine, pip, cfg, dividers)
        if gone is None:
            continue
        if labels is None:
            labels = blobs.labels if own else blobs.labels.copy()
        part = _pieces(labels, (x0, y0, x1, y1), mine > 0, gone, img, bright, max_area, start)
        area[i] = 0.0
        start += len(part) - 1
        parts.append(part)
    if labels is None:
        return None
    return _joined(blobs, labels, area, parts)


def _joined(
    blobs: Blobs, labels: NDArray[np.int32], area: NDArray[np.float64], parts: list[Blobs]
) -> Blobs:
    """`blobs` (with the split marks' `area` emptied and `labels` relabelled) and the
    pieces in `parts` after them, as one `Blobs`."""

    def joined(name: str) -> NDArray[np.generic]:
        first = area if name == "area" else getattr(blobs, name)
        return np.concatenate([first] + [getattr(p, name)[1:] for p in parts])

    return Blobs(
        labels=labels,
        area=np.asarray(joined("area"), dtype=np.float64),
        cx=np.asarray(joined("cx"), dtype=np.float64),
        cy=np.asarray(joined("cy"), dtype=np.float64),
        length=np.asarray(joined("length"), dtype=np.float64),
        thickness=np.asarray(joined("thickness"), dtype=np.float64),
        ux=np.asarray(joined("ux"), dtype=np.float64),
        uy=np.asarray(joined("uy"), dtype=np.float64),
        darkness=np.asarray(joined("darkness"), dtype=np.float64),
        # the marks split reach no edge of the frame (see `_candidates`): nor do their parts
        touches_edge=np.concatenate(
            [blobs.touches_edge] + [np.zeros(len(p) - 1, dtype=np.bool_) for p in parts]
        ),
        box=None
        if blobs.box is None or any(p.box is None for p in parts)
        else np.concatenate([blobs.box] + [p.box[1:] for p in parts if p.box is not None]),
    )
