"""Dark marks on light tiles: pips, divider lines, and everything else that is dark.

The detector works on a "tile-bright" image: tiles are light and their marks dark
(for dark tiles the caller inverts the image first, see `tone_image`). A mark is a
pixel clearly darker than the brightest material around it, so white tiles on white
paper, pale pips and uneven light all work without one global threshold. Each
connected mark becomes a `Blobs` row with its area, centroid and second moments, all
computed at once with `np.bincount` (no Python loop over blobs).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import Enum

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.tiles.settings import MARKS, MarkSettings

logger = logging.getLogger(__name__)

FloatArray = NDArray[np.float64]
U8 = NDArray[np.uint8]


class Tone(Enum):
    """Which way round a set is coloured."""

    LIGHT = "light"  # light tiles, dark (or coloured) pips: ivory, white
    DARK = "dark"  # dark tiles, light pips: black, navy
    GREY = "grey"  # coloured faces (wood, bone) with darker pips: plain luminance


def tone_image(bgr: U8, tone: Tone) -> U8:
    """A one-channel image in which tiles are bright and their marks dark.

    Light tiles: the smallest of B, G, R, so coloured pips (red, green, blue, yellow)
    are as dark as black ones and a saturated table is darker than a white tile. Dark
    tiles: 255 minus the largest channel, so light or coloured pips turn dark. Grey:
    plain luminance, for faces whose own colour would make the smallest channel dark
    (wooden tiles).
    """
    if tone is Tone.GREY:
        return np.asarray(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    b, g, r = bgr[:, :, 0], bgr[:, :, 1], bgr[:, :, 2]
    if tone is Tone.LIGHT:
        return np.asarray(cv2.min(cv2.min(b, g), r), dtype=np.uint8)
    return np.asarray(cv2.bitwise_not(cv2.max(cv2.max(b, g), r)), dtype=np.uint8)


def threshold_surface(img: U8, cfg: MarkSettings = MARKS) -> NDArray[np.float32]:
    """A threshold for every pixel between tile material and table, from the edges.

    The grey level at a strong edge lies between the two sides of that edge; averaged
    over the edges nearby (weighted by their strength), it splits the tiles from the
    table around them even where one global threshold cannot: a glare spot or a lamp
    brightening the table near some tiles beyond the face of others. Far from any
    edge it falls back to the frame's Otsu threshold, and it is never below that:
    faint edges (printed grid lines, a weave) must not lower it into the table.
    """
    otsu, _ = cv2.threshold(img, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    h, w = img.shape
    f = cfg.surface_scale
    if min(h, w) < 8 * f or float(np.mean(img > otsu)) > cfg.light_table:
        # Most of the frame is as light as tiles: the table itself is (white cloth
        # under ivory). Its edges are shadows, and tiles are found by their marks.
        return np.full(img.shape, otsu, dtype=np.float32)
    small = np.asarray(
        cv2.resize(img, (max(1, w // f), max(1, h // f)), interpolation=cv2.INTER_AREA),
        dtype=np.float32,
    )
    gx = cv2.Sobel(small, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(small, cv2.CV_32F, 0, 1)
    grad = np.sqrt(gx * gx + gy * gy)
    grad[grad < np.percentile(grad, 100 * (1 - cfg.edge_share))] = 0.0
    # the averaging reaches far (a sixteenth of the image): done on sums over
    # blocks of surface_scale x surface_scale again, it is the same and much cheaper
    sh, sw = small.shape
    g = cfg.surface_scale if min(sh, sw) >= 16 * cfg.surface_scale else 1
    size = (max(1, sw // g), max(1, sh // g))
    num = cv2.resize(small * grad, size, interpolation=cv2.INTER_AREA)
    den = cv2.resize(grad, size, interpolation=cv2.INTER_AREA)
    sigma = cfg.surface_spread * max(sh, sw) / g
    num = cv2.GaussianBlur(num, (0, 0), sigma)
    den = cv2.GaussianBlur(den, (0, 0), sigma)
    eps = 0.05 * float(den.mean()) + 1e-6
    surface = np.maximum((num + eps * float(otsu)) / (den + eps), float(otsu))
    return np.asarray(cv2.resize(surface, (w, h), interpolation=cv2.INTER_LINEAR), dtype=np.float32)


def tile_mask(img: U8, max_hole: float, cfg: MarkSettings = MARKS) -> tuple[NDArray[np.bool_], U8]:
    """Tile material (Otsu on the tile-bright image) and the same with its holes filled.

    The holes are the dark regions enclosed by tile material and smaller than
    `max_hole` pixels: pips and dividers. The filled mask is eroded a little so the
    shaded rim of a tile never counts as a mark.
    """
    tile, solid, _ = tile_material(img, max_hole, cfg)
    return tile, solid


def tile_material(
    img: U8, max_hole: float, cfg: MarkSettings = MARKS, slight: bool = True
) -> tuple[NDArray[np.bool_], U8, bool]:
    """`tile_mask`, and whether a larger hole was filled for being slight beside its
    tile (`slight_holes`, the look `slight-holes`; `slight=False` leaves it out)."""
    tile = np.asarray(img > threshold_surface(img, cfg), dtype=np.uint8)
    # The dark regions that reach the frame's edge are not enclosed: a flood from a
    # ring around the frame clears them, leaving the enclosed ones (a sparse mask,
    # labelled without OpenCV's statistics, which cost a pass over every pixel).
    ring = cv2.copyMakeBorder(1 - tile, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=1)
    cv2.floodFill(ring, None, (0, 0), 0, flags=4)
    enclosed = np.ascontiguousarray(ring[1:-1, 1:-1], dtype=np.uint8)
    count, labels = cv2.connectedComponentsWithAlgorithm(enclosed, 4, cv2.CV_32S, cv2.CCL_SPAGHETTI)
    ys, xs = nonzero(enclosed)
    lab = np.asarray(labels, dtype=np.int32)[ys, xs]
    sizes = np.bincount(lab, minlength=int(count))
    fill = sizes < max_hole
    filled = False
    if slight:
        more = slight_holes(tile, ys, xs, lab, sizes, ~fill, cfg)
        filled = bool(more[1:].any())
        fill[1:] |= more[1:]
    small = fill[lab]
    solid = tile.copy()
    solid[ys[small], xs[small]] = 1
    solid = np.asarray(cv2.erode(solid, np.ones((5, 5), np.uint8)), dtype=np.uint8)
    return tile.astype(np.bool_), solid, filled


def slight_holes(
    tile: U8,
    ys: NDArray[np.intp],
    xs: NDArray[np.intp],
    lab: NDArray[np.int32],
    sizes: NDArray[np.int64],
    large: NDArray[np.bool_],
    cfg: MarkSettings = MARKS,
) -> NDArray[np.bool_]:
    """Which of the `large` enclosed holes are small beside the tile material around
    them (`MarkSettings.slight_hole` of what lies in their box grown by twice their size): a
    divider, or a pip, of a tile that fills much of the frame (a close-up) is larger
    than the frame-wide bound, and is still a mark on its tile. The table seen
    between tiles laid in a ring, or in a gap of a cluster, is not small beside them.
    `ys`, `xs`, `lab`: the holes' pixels and labels; `sizes`: their areas."""
    out = np.zeros(sizes.shape, dtype=np.bool_)
    large = large.copy()
    large[0] = False
    idx = np.flatnonzero(large)
    if idx.size == 0:
        return out
    idx = idx[np.argsort(sizes[idx])][: cfg.max_large_holes]  # the smallest of them first
    keep = large[lab]
    hy, hx, hl = ys[keep], xs[keep], lab[keep]
    order = np.argsort(hl, kind="stable")
    hy, hx, hl = hy[order], hx[order], hl[order]
    starts = np.searchsorted(hl, idx)
    ends = np.searchsorted(hl, idx, side="right")
    h, w = tile.shape
    for i, a, b in zip(idx, starts, ends, strict=True):
        y0, y1, x0, x1 = (
            int(hy[a:b].min()),
            int(hy[a:b].max()),
            int(hx[a:b].min()),
            int(hx[a:b].max()),
        )
        grow = 2 * (max(y1 - y0, x1 - x0) + 1)
        box = tile[
            max(0, y0 - grow) : min(h, y1 + grow + 1), max(0, x0 - grow) : min(w, x1 + grow + 1)
        ]
        out[i] = sizes[i] < cfg.slight_hole * float(np.count_nonzero(box))
    return out


def darker_material(img: U8, pip: float, cfg: MarkSettings = MARKS) -> tuple[NDArray[np.bool_], U8]:
    """Tile material when the tiles are darker than a light table.

    The table around each place is the brightest level within a dozen pip widths
    (a closing, larger than a tile: tiles, pips and markers drop out of it); tile
    material is what lies clearly below it (`lower_split` of that depth), without
    specks. Also the same eroded a little (see `tile_mask`).
    """
    h, w = img.shape
    f = cfg.surface_scale
    k = max(3, round(cfg.dark_tile_pips * pip / f) | 1)
    small = cv2.resize(img, (max(1, w // f), max(1, h // f)), interpolation=cv2.INTER_AREA)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    table = cv2.resize(cv2.morphologyEx(small, cv2.MORPH_CLOSE, kernel), (w, h))
    depth = np.asarray(cv2.subtract(table, img), dtype=np.uint8)
    dark = np.asarray(depth > max(lower_split(depth), cfg.min_contrast), dtype=np.uint8)
    dark = np.asarray(
        cv2.morphologyEx(dark, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)), dtype=np.uint8
    )
    solid = np.asarray(cv2.erode(dark, np.ones((5, 5), np.uint8)), dtype=np.uint8)
    return dark.astype(np.bool_), solid


def lower_split(depth: U8) -> float:
    """The lower of the two splits that part `depth` best into three classes (Otsu's
    criterion over three classes): the table, the faces, and what is darker still.

    Below a light table the depth has three levels, not two: the table (about 0), the
    tiles' faces, and their pips with anything else dark (the corner markers' black
    squares, a phone). Two classes split the faces from the darkest things when
    those weigh enough (on white cloth the markers put the split just above a wooden
    face: half of each face was not tile material); the lower of three splits lies
    between the table and the faces.
    """
    return three_splits(depth)[0]


def three_splits(values: U8) -> tuple[float, float]:
    """The two splits that part `values` (any shape) best into three classes, by
    Otsu's criterion over three classes; (0, 0) when they cannot be parted so."""
    hist = np.bincount(values.ravel(), minlength=256).astype(np.float64)
    p = hist / max(1.0, float(hist.sum()))
    w = np.cumsum(p)
    m = np.cumsum(p * np.arange(256, dtype=np.float64))
    a, b = np.arange(256)[:, None], np.arange(256)[None, :]
    w0, w1, w2 = w[a], w[b] - w[a], 1.0 - w[b]
    m0, m1, m2 = m[a], m[b] - m[a], m[-1] - m[b]
    ok = (b > a) & (w0 > 1e-9) & (w1 > 1e-9) & (w2 > 1e-9)
    with np.errstate(divide="ignore", invalid="ignore"):
        spread = np.where(ok, m0**2 / w0 + m1**2 / w1 + m2**2 / w2, -1.0)
    if not ok.any():
        return 0.0, 0.0
    best = int(np.argmax(spread))
    return float(best // 256), float(best % 256)


@dataclass(frozen=True, slots=True)
class Blobs:
    """Connected dark marks, one row per blob (index 0 is unused background)."""

    labels: NDArray[np.int32]  # label image, 0 = not a mark (too large ones: area 0)
    area: FloatArray
    cx: FloatArray
    cy: FloatArray
    length: FloatArray  # extent along the main axis (pixels, from second moments)
    thickness: FloatArray  # extent across it
    ux: FloatArray  # unit vector of the main axis
    uy: FloatArray
    darkness: FloatArray  # mean contrast to the local tile brightness (0..255)
    touches_edge: NDArray[np.bool_]
    box: NDArray[np.int64] | None = None  # x0, y0, x1, y1 of each blob (n x 4)

    def __len__(self) -> int:
        return int(self.area.shape[0])


Labelled = tuple[int, NDArray[np.int32], NDArray[np.int32], FloatArray]
# a mask with more than 1/DENSE of its pixels marked is labelled with OpenCV's stats
# (their cost is about the same whatever the mask; summing them over the marked
# pixels grows with them): the same result either way, only the time differs
DENSE = 8


def components(mask: U8) -> Labelled:
    """`cv2.connectedComponentsWithStats` (8-connected: count, labels, stats,
    centroids): the same components, stats and centroids, found faster on one thread
    (see `_labelled`)."""
    count, labels, stats, centroids, _, _, _ = _labelled(mask)
    return count, labels, stats, centroids


def _labelled(
    mask: U8,
) -> tuple[
    int,
    NDArray[np.int32],
    NDArray[np.int32],
    FloatArray,
    NDArray[np.intp],
    NDArray[np.intp],
    NDArray[np.int32],
]:
    """The components of `mask` as `components` gives them, and its marked pixels
    (rows, columns, each one's label). Labelled by Grana's algorithm without stats
    (about three times faster than the default on a sparse mask); the stats (left,
    top, width, height, area, as `cv2.CC_STAT_*`) and centroids summed over the marked
    pixels: this OpenCV build's own cost about 6 ms on a megapixel mask with nothing
    on it, the labels alone under 1 ms."""
    h, w = mask.shape[:2]
    if cv2.countNonZero(mask) * DENSE > h * w:
        # a dense mask (a textured table's marks): OpenCV's own stats cost less
        count, labels_raw, stats_raw, cents = cv2.connectedComponentsWithStatsWithAlgorithm(
            mask, 8, cv2.CV_32S, cv2.CCL_GRANA
        )
        labels = np.asarray(labels_raw, dtype=np.int32)
        ys, xs = nonzero(mask)
        return (
            int(count),
            labels,
            np.asarray(stats_raw, dtype=np.int32),
            np.asarray(cents, dtype=np.float64),
            ys,
            xs,
            labels[ys, xs],
        )
    count, labels_raw = cv2.connectedComponentsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_GRANA)
    n = int(count)
    labels = np.asarray(labels_raw, dtype=np.int32)
    ys, xs = nonzero(mask)
    lab = labels[ys, xs]
    big = np.iinfo(np.int32).max
    left, top = np.full(n, big, dtype=np.int64), np.full(n, big, dtype=np.int64)
    right, bottom = np.full(n, -1, dtype=np.int64), np.full(n, -1, dtype=np.int64)
    np.minimum.at(left, lab, xs)
    np.maximum.at(right, lab, xs)
    np.minimum.at(top, lab, ys)
    np.maximum.at(bottom, lab, ys)
    area = np.bincount(lab, minlength=n).astype(np.int64)
    sx = np.bincount(lab, xs.astype(np.float64), n)
    sy = np.bincount(lab, ys.astype(np.float64), n)
    # the background (label 0): the unmarked pixels, as OpenCV reports them
    area[0] = h * w - ys.size
    sx[0] = h * (w * (w - 1) / 2.0) - float(sx.sum())
    sy[0] = w * (h * (h - 1) / 2.0) - float(sy.sum())
    rows = np.flatnonzero(mask.min(axis=1) == 0)
    cols = np.flatnonzero(mask.min(axis=0) == 0)
    if rows.size:
        top[0], bottom[0], left[0], right[0] = rows[0], rows[-1], cols[0], cols[-1]
    else:  # no unmarked pixel
        top[0], bottom[0], left[0], right[0] = big, big - 1, -1, -2
    stats = np.stack([left, top, right - left + 1, bottom - top + 1, area], axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        centroids = np.stack([sx / area, sy / area], axis=1)
    return n, labels, stats.astype(np.int32), centroids, ys, xs, lab


def nonzero(mask: U8) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """`np.nonzero(mask)` (rows, columns, in the same order), by `cv2.findNonZero`:
    several times faster on a large, sparse mask."""
    pts: object = cv2.findNonZero(mask)  # None on an empty mask
    if pts is None:
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty
    xy = np.asarray(pts, dtype=np.intp).reshape(-1, 2)
    return xy[:, 1], xy[:, 0]


def local_bright(img: U8, window: int) -> U8:
    """The brightness of the material around each pixel: a max filter, smoothed."""
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (window, window))
    bright = np.asarray(cv2.dilate(img, kernel), dtype=np.uint8)
    return np.asarray(cv2.blur(bright, (window // 2 | 1, window // 2 | 1)), dtype=np.uint8)


def mark_split(contrast: NDArray[np.int16], solid: U8, min_contrast: int) -> int:
    """The frame's own split between face and mark contrast (Otsu over the tile
    pixels of `contrast`, local brightness minus the image), never below
    `min_contrast`."""
    on_tile = np.clip(contrast[solid > 0], 0, 255).astype(np.uint8).reshape(-1, 1)
    if not on_tile.size:
        return min_contrast
    otsu, _ = cv2.threshold(on_tile, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    return max(min_contrast, int(otsu))


def mark_mask(
    img: U8,
    bright: U8,
    solid: U8,
    min_contrast: int,
    rel_contrast: float,
    scale: float = 1.0,
    split: int | None = None,
) -> U8:
    """1 where a pixel on tile material is clearly darker than the tile around it.

    "Clearly" is `rel_contrast` of the local brightness (deep enough to ignore the
    shading of a glossy, rounded face), lowered to the frame's own split between
    face and mark contrast (Otsu over the tile pixels) when the pips are pale, and
    never below `min_contrast` grey levels. `scale` lowers the whole threshold (the
    faint, thin divider lines of small tiles are looked for at a lower one). `split`
    is `mark_split`'s, when already known.
    """
    contrast = bright.astype(np.int16) - img.astype(np.int16)
    if split is None:
        split = mark_split(contrast, solid, min_contrast)
    need = np.maximum(
        min_contrast * scale,
        np.minimum(split, bright.astype(np.float32) * rel_contrast) * scale,
    )
    return np.asarray((contrast > need) & (solid > 0), dtype=np.uint8)


def find_blobs(
    mask: U8,
    img: U8,
    bright: U8,
    max_area: float,
    labelled: tuple[int, NDArray[np.int32], NDArray[np.int32], FloatArray] | None = None,
) -> Blobs:
    """Label the marks and measure every blob's size, position, shape and darkness.

    `labelled` is `components(mask)`, when already known."""
    if labelled is None:
        count, labels, stats, _, ys, xs, lab = _labelled(mask)
    else:
        count, labels, stats, _ = labelled
        ys, xs = nonzero(mask)
        lab = labels[ys, xs]
    n = int(count)
    area = np.asarray(stats[:, cv2.CC_STAT_AREA], dtype=np.float64)
    big = area > max_area
    big[0] = True
    if big.any():
        # Large dark regions (the table between tiles) are not marks: drop them first
        # so the moment sums below only run over small blobs. (They keep their label
        # in `labels`, with area 0.)
        small = ~big[lab]
        ys, xs, lab = ys[small], xs[small], lab[small]
    xs_f = xs.astype(np.float64)
    ys_f = ys.astype(np.float64)
    s = np.maximum(np.bincount(lab, minlength=n).astype(np.float64), 1.0)
    mx = np.bincount(lab, xs_f, n) / s
    my = np.bincount(lab, ys_f, n) / s
    dx = xs_f - mx[lab]
    dy = ys_f - my[lab]
    sxx = np.bincount(lab, dx * dx, n) / s + 1.0 / 12.0
    syy = np.bincount(lab, dy * dy, n) / s + 1.0 / 12.0
    sxy = np.bincount(lab, dx * dy, n) / s
    half_tr = (sxx + syy) / 2.0
    disc = np.sqrt(((sxx - syy) / 2.0) ** 2 + sxy**2)
    l1 = half_tr + disc
    l2 = np.maximum(half_tr - disc, 1e-6)
    angle = 0.5 * np.arctan2(2.0 * sxy, sxx - syy)
    contrast = bright[ys, xs].astype(np.float64) - img[ys, xs].astype(np.float64)
    darkness = np.bincount(lab, contrast, n) / s
    h, w = mask.shape
    left = np.asarray(stats[:, cv2.CC_STAT_LEFT], dtype=np.int64)
    top = np.asarray(stats[:, cv2.CC_STAT_TOP], dtype=np.int64)
    right = left + np.asarray(stats[:, cv2.CC_STAT_WIDTH], dtype=np.int64)
    bottom = top + np.asarray(stats[:, cv2.CC_STAT_HEIGHT], dtype=np.int64)
    touches = (left <= 0) | (top <= 0) | (right >= w) | (bottom >= h)
    area_kept = np.where(big, 0.0, area)
    return Blobs(
        labels=labels,
        area=area_kept,
        cx=mx,
        cy=my,
        length=np.sqrt(12.0 * l1),
        thickness=np.sqrt(12.0 * l2),
        ux=np.cos(angle),
        uy=np.sin(angle),
        darkness=darkness,
        touches_edge=np.asarray(touches, dtype=np.bool_),
        box=np.stack([left, top, right, bottom], axis=1),
    )
