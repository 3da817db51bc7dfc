"""Finding domino tiles in one camera frame and reading their pips.

`detect(frame)` takes a BGR (or grey) frame and, optionally, the play area, and
returns every face-up tile with its two pip counts, the pixel centre of each half and
a confidence, plus the number of face-down tiles and the places it could not read. It
knows nothing of any grid: tiles are found by their divider lines (see
`vision.dividers`), the tile width is measured in the frame, and pips are counted in
each half (see `vision.pips`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from engine.surface import SeenTile, Snapshot, Unsure
from vision.area import PlayArea
from vision.dividers import TileHypothesis, consensus, hypotheses, overlap, suppress
from vision.errors import VisionError
from vision.facedown import leftovers
from vision.marks import (
    Blobs,
    Tone,
    find_blobs,
    local_bright,
    mark_mask,
    tile_mask,
    tone_image,
)
from vision.pips import HalfReading, pip_area, read_half
from vision.reread import reread_half

logger = logging.getLogger(__name__)

Point = tuple[float, float]
SURE = 0.9  # a half read with less confidence gets a second look
ToMm = Callable[[Point], Point]


def _same(p: Point) -> Point:
    return p


class FrameError(VisionError, ValueError):
    """A frame that cannot be searched: empty, wrong shape or type."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Tuning of the detector; the defaults suit a 1-2 megapixel overhead photo."""

    tone: Tone | None = Tone.LIGHT  # None: try light and dark sets both
    window: int = 21  # px, wider than the largest pip
    min_contrast: int = 28  # grey levels a mark is darker than the tile around it
    rel_contrast: float = 0.4  # ... or this share of the tile's brightness
    max_hole_share: float = 1 / 400  # largest enclosed dark region that can be a mark
    margin: int = 24  # px searched beyond the play area, so edge tiles are whole
    min_half_fill: float = 0.6  # share of a half that must be tile material
    divider_contrast: float = 0.6  # on small tiles, dividers need this share of a pip's
    small_tile_px: float = 40.0  # tiles narrower than this (or none) get that second pass


@dataclass(frozen=True, slots=True)
class FoundTile:
    """One face-up tile: pips on half a and b, their centres in pixels, a confidence."""

    pips: tuple[int, int]
    px: tuple[Point, Point]
    confidence: float

    def __str__(self) -> str:
        (xa, ya), (xb, yb) = self.px
        return f"{self.pips[0]}-{self.pips[1]}@({xa:.0f},{ya:.0f})-({xb:.0f},{yb:.0f})"

    def seen(self, to_mm: ToMm = _same) -> SeenTile:
        """This tile as the engine's `SeenTile`, its half centres mapped by `to_mm`."""
        (xa, ya), (xb, yb) = to_mm(self.px[0]), to_mm(self.px[1])
        return SeenTile(self.pips[0], self.pips[1], xa, ya, xb, yb, self.confidence)


@dataclass(frozen=True, slots=True)
class UnsureRegion:
    """A place where something tile-like was seen but could not be read."""

    x: float
    y: float
    reason: str


@dataclass(frozen=True, slots=True)
class Detection:
    """Everything found in one frame."""

    tiles: tuple[FoundTile, ...]
    facedown: int = 0
    unsure: tuple[UnsureRegion, ...] = field(default=())
    ms: float = 0.0
    tile_width_px: float = 0.0

    def snapshot(self, to_mm: ToMm = _same, at: float = 0.0) -> Snapshot:
        """What the camera saw, as the engine's `Snapshot`.

        `to_mm` maps a pixel to table millimetres (a calibration's map); by default
        positions stay in pixels.
        """
        unsure = tuple(Unsure(*to_mm((u.x, u.y)), u.reason) for u in self.unsure)
        return Snapshot(tuple(t.seen(to_mm) for t in self.tiles), self.facedown, unsure, at)


def _check(image: NDArray[np.generic]) -> NDArray[np.uint8]:
    if image.size == 0:
        raise FrameError("the frame is empty")
    if image.dtype != np.uint8:
        raise FrameError(f"the frame is {image.dtype}, expected 8-bit (uint8)")
    frame = np.asarray(image, dtype=np.uint8)
    if frame.ndim == 2:
        return np.asarray(cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    if frame.ndim != 3 or frame.shape[2] not in (3, 4):
        raise FrameError(f"the frame has shape {frame.shape}, expected HxW or HxWx3 (BGR)")
    return np.ascontiguousarray(frame[:, :, :3])


@dataclass(frozen=True, slots=True)
class _Found:
    tiles: list[FoundTile]
    facedown: list[Point]
    unsure: list[UnsureRegion]
    width: float
    kept: list[TileHypothesis] = field(default_factory=list)  # all that won material
    read: list[TileHypothesis] = field(default_factory=list)  # those behind `tiles`


def _half_fill(tile: NDArray[np.bool_], marks: NDArray[np.uint8], t: TileHypothesis) -> float:
    """The smaller share, over the two halves, of sample points on tile material."""
    h, w = tile.shape
    grid = np.linspace(-0.4, 0.4, 7) * t.width
    aa, dd = np.meshgrid(grid, grid)
    shares = []
    for hx, hy in t.half_centres():
        xs = np.clip(np.rint(hx + aa * t.nx + dd * t.dx).astype(np.intp), 0, w - 1)
        ys = np.clip(np.rint(hy + aa * t.ny + dd * t.dy).astype(np.intp), 0, h - 1)
        on = tile[ys, xs] | (marks[ys, xs] > 0)
        shares.append(float(on.mean()))
    return min(shares)


@dataclass(frozen=True, slots=True)
class _Planes:
    """The images one search works on (tile-bright, local brightness, tile material)."""

    img: NDArray[np.uint8]
    bright: NDArray[np.uint8]
    solid: NDArray[np.uint8]
    marks: NDArray[np.uint8]  # at the pips' contrast


def _read_tile(
    blobs: Blobs, t: TileHypothesis, ref: float, planes: _Planes
) -> tuple[HalfReading, HalfReading]:
    """Both halves of a hypothesis; a doubtful half gets a second look of its own."""
    out: list[HalfReading] = []
    for side in (0, 1):
        first = read_half(blobs, t, side, ref)
        if first.confidence < SURE and not first.foreign:
            again = reread_half(planes.img, planes.bright, planes.solid, t, side, ref)
            if again is not None and not again.foreign and again.confidence > first.confidence:
                first = again
        out.append(first)
    return out[0], out[1]


def _read(blobs: Blobs, agreed: list[TileHypothesis], offset: Point, planes: _Planes) -> _Found:
    """Read every hypothesis, let the best readings win contested material, report them.

    A hypothesis whose halves hold marks that are no pips (printed letters, a stroke
    of a pattern taken for a divider) loses against one that reads as a domino.
    """
    width = agreed[0].width if agreed else 0.0
    ref = pip_area(blobs, agreed) or float(np.pi * (0.1 * width) ** 2)
    readings: dict[int, tuple[HalfReading, HalfReading]] = {}
    rescored: list[TileHypothesis] = []
    for t in agreed:
        ra, rb = _read_tile(blobs, t, ref, planes)
        penalty = 1.0 if ra.foreign or rb.foreign else 0.0
        readings[t.blob] = (ra, rb)
        bonus = 0.5 * min(ra.confidence, rb.confidence)
        rescored.append(replace(t, score=t.score - penalty + bonus))
    tiles: list[FoundTile] = []
    unsure: list[UnsureRegion] = []
    ox, oy = offset
    kept = suppress(rescored)
    read: list[TileHypothesis] = []
    for t in kept:
        ra, rb = readings[t.blob]
        if ra.foreign or rb.foreign:
            unsure.append(UnsureRegion(t.cx + ox, t.cy + oy, "marks that are not pips"))
            continue
        (xa, ya), (xb, yb) = t.half_centres()
        conf = round(min(ra.confidence, rb.confidence), 3)
        tiles.append(FoundTile((ra.pips, rb.pips), ((xa + ox, ya + oy), (xb + ox, yb + oy)), conf))
        read.append(t)
    return _Found(tiles, [], unsure, width, kept, read)


def _merge(base: _Found, extra: _Found) -> _Found:
    """`base` plus the tiles of `extra` on material that `base` left unclaimed."""
    new = [
        (tile, hyp)
        for tile, hyp in zip(extra.tiles, extra.read, strict=True)
        if not any(overlap(hyp, k) for k in base.kept)
    ]
    return _Found(
        base.tiles + [t for t, _ in new],
        [],
        base.unsure,
        base.width,
        base.kept + [h for _, h in new],
        base.read + [h for _, h in new],
    )


def _pass(
    planes: _Planes,
    tile: NDArray[np.bool_],
    offset: Point,
    divider_scale: float,
    s: Settings,
) -> _Found:
    """Find dividers at `divider_scale` of the pip contrast, then read the pips."""
    img, bright, solid = planes.img, planes.bright, planes.solid
    max_area = img.size / 50.0
    if divider_scale < 1.0:
        faint = mark_mask(img, bright, solid, s.min_contrast, s.rel_contrast, divider_scale)
    else:
        faint = planes.marks
    lines = find_blobs(faint, img, bright, max_area)
    cands = [c for c in hypotheses(lines, tile) if _half_fill(tile, faint, c) >= s.min_half_fill]
    agreed, _ = consensus(lines, cands, _trust(lines, cands))
    # Pips are the strong marks left once the dividers' pixels are taken out, so a
    # pip touching its divider is still one round blob.
    if divider_scale < 1.0:
        marks = planes.marks.copy()
        on_divider = np.isin(lines.labels, [c.blob for c in agreed]).astype(np.uint8)
        marks[cv2.dilate(on_divider, np.ones((3, 3), np.uint8)) > 0] = 0
        blobs = find_blobs(marks, img, bright, max_area)
    else:
        blobs = lines
    return _read(blobs, agreed, offset, planes)


def _trust(blobs: Blobs, cands: list[TileHypothesis]) -> list[float]:
    """How much each hypothesis reads like a domino: a stroke of print taken for a
    divider has letters, not pips, beside it."""
    ref = pip_area(blobs, cands)
    if ref <= 0:
        return [1.0] * len(cands)
    out = []
    for c in cands:
        ra, rb = read_half(blobs, c, 0, ref), read_half(blobs, c, 1, ref)
        out.append(0.1 if ra.foreign or rb.foreign else min(ra.confidence, rb.confidence))
    return out


def _score(found: _Found) -> float:
    return sum(t.confidence for t in found.tiles)


def _search(img: NDArray[np.uint8], offset: Point, s: Settings) -> _Found:
    """Find and read tiles in a tile-bright image (tiles light, marks dark)."""
    tile, solid = tile_mask(img, img.size * s.max_hole_share)
    bright = local_bright(img, s.window)
    marks = mark_mask(img, bright, solid, s.min_contrast, s.rel_contrast)
    planes = _Planes(img, bright, solid, marks)
    found = _pass(planes, tile, offset, 1.0, s)
    if found.width < s.small_tile_px:
        # Small tiles (or none found): their dividers are thin, blurred and faint.
        # Each pass sees dividers the other misses (a faint line; a line that merged
        # with a tile gap at the lower threshold): the better is kept, and the
        # other's tiles fill the places it left empty.
        again = _pass(planes, tile, offset, s.divider_contrast, s)
        found = _merge(found, again) if _score(found) >= _score(again) else _merge(again, found)
    width = found.width
    ox, oy = offset
    rest = leftovers(tile, marks, found.kept, width)
    facedown = [(r.x + ox, r.y + oy) for r in rest if not r.marked]
    unsure = found.unsure + [
        UnsureRegion(r.x + ox, r.y + oy, "tile-shaped, no divider") for r in rest if r.marked
    ]
    return _Found(found.tiles, facedown, unsure, width, found.kept)


def detect(
    image: NDArray[np.generic],
    play_area: PlayArea | None = None,
    settings: Settings | None = None,
) -> Detection:
    """Find every face-up tile (inside `play_area`, if given) and read its pips."""
    start = time.perf_counter()
    s = settings or Settings()
    frame = _check(image)
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = (0, 0, w, h) if play_area is None else play_area.box(w, h, s.margin)
    crop = frame[y0:y1, x0:x1]
    if crop.size == 0:
        raise FrameError(f"the play area lies outside the {w}x{h} frame")
    # One table holds one set: with the tone unknown, the reading that finds more
    # (and surer) tiles wins; a tie goes to light tiles.
    tones = [s.tone] if s.tone is not None else [Tone.LIGHT, Tone.DARK]
    results = [
        _within(_search(tone_image(crop, tone), (float(x0), float(y0)), s), play_area)
        for tone in tones
    ]
    best = max(results, key=lambda f: sum(t.confidence for t in f.tiles))
    ms = (time.perf_counter() - start) * 1000.0
    logger.debug(
        "vision: %d tiles, %d face down in %.1f ms", len(best.tiles), len(best.facedown), ms
    )
    return Detection(tuple(best.tiles), len(best.facedown), tuple(best.unsure), ms, best.width)


def _within(found: _Found, area: PlayArea | None) -> _Found:
    """What was found with its centre inside the play area."""
    if area is None:
        return found
    return _Found(
        [t for t in found.tiles if area.contains(*_mid(t.px))],
        [p for p in found.facedown if area.contains(*p)],
        [u for u in found.unsure if area.contains(u.x, u.y)],
        found.width,
        found.kept,
    )


def _mid(px: tuple[Point, Point]) -> Point:
    (xa, ya), (xb, yb) = px
    return ((xa + xb) / 2.0, (ya + yb) / 2.0)
