"""Searching a frame at a coarser scale, for tiles larger than the search is built for.

The search's sizes are in pixels (the 21 px window of a pip's surroundings, a
divider of 15 px or more, the 2 px eroded off the tile material): they suit tiles
about 20-70 px wide, a table seen whole by a camera of one or two megapixels. A
close-up (a phone photo of a few tiles, a camera low over the table) has tiles of
200 px and pips wider than the window, which the search cannot read. Such a frame
is searched again at a half, a quarter, ... of its size, until the reading is
confident or the frame too small; the readings are mapped back to the frame's
pixels. A coarser reading is kept only when its tiles are larger, in the frame's
pixels, than those the finer one read (a coarser look at small tiles merges their
pips and reads worse, never better, and must not win by a fluke).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.detector.planes import Found
from vision.detector.results import FoundTile, Point, UnsureRegion
from vision.detector.settings import SCALES, ScaleSettings
from vision.tiles.dark_marks import Tone, find_blobs, threshold_surface, tone_image
from vision.tiles.dividers import TileHypothesis

Reader = Callable[[NDArray[np.uint8], Point, NDArray[np.bool_] | None], Found]


def coarser_scales(
    shape: tuple[int, ...], width: float = 0.0, cfg: ScaleSettings = SCALES
) -> list[int]:
    """The factors a frame of `shape` is searched at again: with tiles of `width` px
    found wider than `cfg.wide`, the one power of two that brings them nearest
    `cfg.aim`; else 2, 4, ... (none found: they may be too large to see). None that
    leaves the frame's shorter side below `cfg.min_side`."""
    side = min(shape[0], shape[1])
    if width > cfg.wide:
        factor = 2 ** max(1, round(float(np.log2(width / cfg.aim))))
        while factor > 1 and side // factor < cfg.min_side:
            factor //= 2
        return [factor] if factor > 1 else []
    out: list[int] = []
    factor = 2
    while side // factor >= cfg.min_side:
        out.append(factor)
        factor *= 2
    return out


def read_at(
    crop: NDArray[np.uint8],
    offset: Point,
    left_out: NDArray[np.bool_] | None,
    factor: int,
    read: Reader,
) -> Found:
    """`read` of `crop` shrunk by `factor`, in the frame's pixels (`offset`: where the
    crop lies in the frame)."""
    h, w = crop.shape[:2]
    size = (max(1, w // factor), max(1, h // factor))
    small = np.asarray(cv2.resize(crop, size, interpolation=cv2.INTER_AREA), dtype=np.uint8)
    small_out = None
    if left_out is not None:
        shrunk = cv2.resize(left_out.astype(np.uint8), size, interpolation=cv2.INTER_NEAREST)
        small_out = np.asarray(shrunk > 0, dtype=np.bool_)
    return scaled(read(small, (0.0, 0.0), small_out), float(factor), offset)


def scaled(found: Found, factor: float, offset: Point) -> Found:
    """`found` (read at 1/`factor` of the size, from the origin) in the frame's pixels."""
    ox, oy = offset

    def p(x: float, y: float) -> Point:
        return (x * factor + ox, y * factor + oy)

    def hyp(t: TileHypothesis) -> TileHypothesis:
        # hypotheses stay in the searched image's pixels (the crop's), as `search`
        # leaves them
        return replace(t, cx=t.cx * factor, cy=t.cy * factor, width=t.width * factor)

    tiles = [FoundTile(t.pips, (p(*t.px[0]), p(*t.px[1])), t.confidence) for t in found.tiles]
    return replace(
        found,
        tiles=tiles,
        facedown=[p(*q) for q in found.facedown],
        unsure=[UnsureRegion(*p(u.x, u.y), u.reason) for u in found.unsure],
        width=found.width * factor,
        kept=[hyp(t) for t in found.kept],
        read=[hyp(t) for t in found.read],
        pip=found.pip * factor,
        stray=[p(*q) for q in found.stray],
        lines=[hyp(t) for t in found.lines],
        scale=found.scale * factor,
    )


def larger(coarse: Found, fine: Found, cfg: ScaleSettings = SCALES) -> bool:
    """True when the coarser reading's tiles are clearly larger than the finer one's,
    or as large when those are wider than `cfg.wide` (or the finer one read none)."""
    if not coarse.tiles:
        return False
    if not fine.tiles:
        return True
    if fine.width > cfg.wide:
        return coarse.width >= fine.width / cfg.larger
    return coarse.width >= cfg.larger * fine.width


def probe_width(
    crop: NDArray[np.uint8], tones: tuple[Tone, ...], cfg: ScaleSettings = SCALES
) -> float:
    """The tile width (px of `crop`) that the frame's faces show, or 0 when none does.

    The frame is looked at shrunk (its longer side `cfg.probe_px`), in each of `tones`:
    a face is a region of one tone whose whole outline contrasts with what is around
    it, and a lone tile's face is a rectangle twice as long as wide (`probe_aspect`,
    `probe_fill`, second moments). Their widths, weighted by area, give the frame's
    tile width: a close-up's tiles are seen so before any search (which is built for
    tiles of 20-70 px and costs most on the texture of a large frame). Touching tiles
    make regions of other shapes and count not; nor does what reaches the frame's
    edge."""
    h, w = crop.shape[:2]
    f = max(h, w) / cfg.probe_px
    if f < 2.0:
        return 0.0
    size = (max(1, round(w / f)), max(1, round(h / f)))
    small = np.asarray(cv2.resize(crop, size, interpolation=cv2.INTER_AREA), dtype=np.uint8)
    widths: list[NDArray[np.float64]] = []
    areas: list[NDArray[np.float64]] = []
    for tone in tones:
        img = tone_image(small, tone)
        mask = np.asarray(img > threshold_surface(img), dtype=np.uint8)
        mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)))
        # a face's pips and divider are holes in it: filled, each region is its outline
        outlines, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        mask = np.zeros_like(mask)
        cv2.drawContours(mask, outlines, -1, 1, -1)
        b = find_blobs(mask, img, img, 0.5 * mask.size)
        thick = np.maximum(b.thickness, 1e-6)
        fill = b.area / np.maximum(b.length * thick, 1e-6)
        ok = (
            (b.area > 0)
            & ~b.touches_edge
            & (thick >= cfg.probe_min)
            & (b.length >= cfg.probe_aspect[0] * thick)
            & (b.length <= cfg.probe_aspect[1] * thick)
            & (fill >= cfg.probe_fill[0])
            & (fill <= cfg.probe_fill[1])
        )
        ok[0] = False
        widths.append(thick[ok] * f)
        areas.append(b.area[ok])
    width, area = np.concatenate(widths), np.concatenate(areas)
    if width.size == 0:
        return 0.0
    order = np.argsort(width)
    cum = np.cumsum(area[order])
    return float(width[order][int(np.searchsorted(cum, 0.5 * cum[-1]))])
