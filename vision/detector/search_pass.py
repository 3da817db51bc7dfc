"""One search of a tile-bright image: dividers, tile hypotheses, readings, leftovers.

`search` runs on an image in which tiles are light and their marks dark (see
`vision.tiles.dark_marks.tone_image`); `vision.detector.detect` picks the image and the play area.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.detector.play_area import PlayArea
from vision.detector.results import FoundTile, Point, UnsureReason, UnsureRegion
from vision.detector.settings import SearchSettings, Settings
from vision.pips.counting import HalfReading, in_half, pip_area, read_half, round_blobs
from vision.pips.second_look import apart_half, faint_pips, reread_half
from vision.tiles.dark_marks import (
    Blobs,
    Tone,
    components,
    darker_material,
    find_blobs,
    local_bright,
    mark_mask,
    mark_split,
    tile_mask,
)
from vision.tiles.dividers import (
    TileHypothesis,
    consensus,
    hypotheses,
    overlap,
    suppress,
)
from vision.tiles.face_down import leftovers
from vision.tiles.meeting_lines import line_kernel, split_junctions

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Found:
    """What one search found, in frame pixels."""

    tiles: list[FoundTile]
    facedown: list[Point]
    unsure: list[UnsureRegion]
    width: float
    kept: list[TileHypothesis] = field(default_factory=list)  # all that won material
    read: list[TileHypothesis] = field(default_factory=list)  # those behind `tiles`
    pip: float = 0.0  # the typical pip diameter, pixels (0: unknown)
    stray: list[Point] = field(default_factory=list)  # pips outside every tile, frame px
    explained: float = 0.0  # share of the tile material that the tiles read cover
    lines: list[TileHypothesis] = field(default_factory=list)  # kept, no tile: table lines


def _near_marks(blobs: Blobs, width: float) -> NDArray[np.bool_]:
    """Pixels on or within 2 px of a pip-sized mark (a pip's soft rim included)."""
    small = (blobs.area > 0) & (blobs.area <= 0.25 * width**2)
    small[0] = False
    mask = small[blobs.labels].astype(np.uint8)
    return np.asarray(cv2.dilate(mask, np.ones((5, 5), np.uint8)) > 0, dtype=np.bool_)


def _face_share(
    img: NDArray[np.uint8], near_marks: NDArray[np.bool_], t: TileHypothesis, cfg: SearchSettings
) -> float:
    """The smaller share, over the two halves, of sample points showing the tile's
    face (as bright as it, or at a pip or the divider): a hand or a sleeve over part
    of a tile is darker than the face and no mark of the size of a pip."""
    h, w = img.shape
    grid = np.linspace(-0.4, 0.4, 7) * t.width
    aa, dd = np.meshgrid(grid, grid)
    samples: list[tuple[NDArray[np.uint8], NDArray[np.bool_]]] = []
    for hx, hy in t.half_centres():
        xs = np.clip(np.rint(hx + aa * t.nx + dd * t.dx).astype(np.intp), 0, w - 1)
        ys = np.clip(np.rint(hy + aa * t.ny + dd * t.dy).astype(np.intp), 0, h - 1)
        samples.append((img[ys, xs], near_marks[ys, xs]))
    face = float(np.percentile(np.concatenate([v for v, _ in samples]), 90))
    return min(float(((v >= cfg.face_share * face) | on_mark).mean()) for v, on_mark in samples)


def _face_share_anywhere(planes: _Planes, t: TileHypothesis) -> float:
    """`_face_share` with the pip-sized marks looked for on the whole tile, tile
    material or not: a pip at a tile's corner that touches its shaded rim is joined
    through it to the table, lies outside the tile material and is no mark there
    (a wooden 3 on green felt was taken for a tile partly covered)."""
    h, w = planes.img.shape
    r = int(np.ceil(1.2 * t.width)) + 3
    x0, y0 = max(0, int(t.cx) - r), max(0, int(t.cy) - r)
    x1, y1 = min(w, int(t.cx) + r + 1), min(h, int(t.cy) + r + 1)
    img, bright = planes.img[y0:y1, x0:x1], planes.bright[y0:y1, x0:x1]
    min_contrast, rel_contrast, split = planes.need
    lit = bright.astype(np.float32)
    marks = (lit - img.astype(np.float32)) > np.maximum(
        min_contrast, np.minimum(split, lit * rel_contrast)
    )
    count, labels, stats, _ = components(marks.astype(np.uint8))
    small = stats[:, cv2.CC_STAT_AREA] <= 0.25 * t.width**2
    small[0] = False
    grown = cv2.dilate(small[labels].astype(np.uint8), np.ones((5, 5), np.uint8))
    near = np.asarray(grown > 0, dtype=np.bool_)
    local = replace(t, cx=t.cx - x0, cy=t.cy - y0)
    return _face_share(img, near, local, planes.s.search) if count > 0 else 0.0


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
    blobs: Blobs  # the connected marks
    tile: NDArray[np.bool_]  # tile material (Otsu)
    need: tuple[int, float, int]  # the mark threshold: min_contrast, rel_contrast, split
    max_area: float  # larger dark regions are no marks
    pip: float  # the typical pip diameter, pixels (0: unknown)
    s: Settings  # the detector's settings
    lighter_table: bool = False  # the tiles are darker than the table around them

    def crop(self, box: Box) -> _Planes:
        """The same planes inside `box` (the marks found again there)."""
        x0, y0, x1, y1 = box
        img, bright = self.img[y0:y1, x0:x1], self.bright[y0:y1, x0:x1]
        marks = self.marks[y0:y1, x0:x1]
        blobs = find_blobs(marks, img, bright, self.max_area)
        solid, tile = self.solid[y0:y1, x0:x1], self.tile[y0:y1, x0:x1]
        return replace(
            self, img=img, bright=bright, solid=solid, marks=marks, blobs=blobs, tile=tile
        )


def _outlined(
    img: NDArray[np.uint8],
    t: TileHypothesis,
    cfg: SearchSettings,
    others: list[TileHypothesis] | None = None,
    lighter_table: bool = False,
) -> bool:
    """True when at least three of the tile's four sides show as a darker edge, or
    every side shows and two of them clearly, on an even face.

    A raised tile has a rim, a shadow or a gap to its neighbour all round; a stretch
    of table (wood grain taken for a blank tile's divider) does not. On a table as
    light as the face (ivory on white cloth) a side away from the shadow shows
    only a faint rim, or the table beyond it is lighter than the face; the gap to a
    touching neighbour may lie just inside the usual sample line, or hardly show.
    Then a side counts when, on one of the lines just beyond it (`RIM`), it is
    darker or lighter than the face by `FAINT_EDGE` of the usual step, or when
    another tile found (`others`) lies beyond it; two sides must stand out darker,
    and the face must be even (`_plain_face`): wood grain shows faint steps
    everywhere, and no even face.
    """
    darker = clear = faint = 0
    for along, across in ((-1.0, 0.0), (1.0, 0.0), (0.0, -0.5), (0.0, 0.5)):
        outside, inside = (
            _side_level(img, t, along, across, 0.08),
            _side_level(img, t, along, across, -0.15),
        )
        step = _step(inside)
        if outside < inside - step or (lighter_table and outside > inside + step):
            darker += 1
            continue
        beyond = [outside, *(_side_level(img, t, along, across, b) for b in cfg.rim)]
        edge = inside - min(beyond)
        clear += edge > step
        shows = max(edge, max(beyond) - inside) > cfg.faint_edge * step
        faint += shows or _against(t, along, across, others)
    if darker >= 3:
        return True
    return darker + clear >= 2 and darker + faint == 4 and _plain_face(img, t, cfg)


def _step(face: float) -> float:
    """How much darker than a face of grey level `face` its edge must be."""
    return max(8.0, 0.06 * face)


def _side_level(
    img: NDArray[np.uint8], t: TileHypothesis, along: float, across: float, beyond: float
) -> float:
    """The median grey level on the line `beyond` tile widths past the side of `t`
    at (`along`, `across`) (an end: along = +-1; a long side: across = +-0.5),
    negative inside it."""
    h, w = img.shape
    steps = np.linspace(-0.35, 0.35, 9)
    reach = 1.0 + beyond / max(abs(along), 0.5)
    u = along * reach + (steps * 2.0 if along == 0 else 0.0)
    v = across * reach + (0.0 if along == 0 else steps)
    xs = t.cx + (u * t.nx + v * t.dx) * t.width
    ys = t.cy + (u * t.ny + v * t.dy) * t.width
    xi = np.clip(np.rint(xs).astype(np.intp), 0, w - 1)
    yi = np.clip(np.rint(ys).astype(np.intp), 0, h - 1)
    return float(np.median(img[yi, xi]))


def _against(
    t: TileHypothesis, along: float, across: float, others: list[TileHypothesis] | None
) -> bool:
    """True when another tile found lies just beyond the side of `t` at (`along`,
    `across`) (a touching neighbour, the gap to which may not show)."""
    u, v = along * (1.0 + 0.3 / max(abs(along), 0.5)), across + 0.3 * np.sign(across)
    x = t.cx + (u * t.nx + v * t.dx) * t.width
    y = t.cy + (u * t.ny + v * t.dy) * t.width
    return any(_inside(x, y, k) for k in others or [] if k is not t)


def _plain_face(img: NDArray[np.uint8], t: TileHypothesis, cfg: SearchSettings) -> bool:
    """True when the face of a blank tile is as even as a tile's face: its grey
    levels (the divider left out) spread, from the 10th to the 90th percentile, over
    at most `PLAIN` times the edge step of its median. Wood grain is not even."""
    h, w = img.shape
    along, across = np.meshgrid(np.linspace(-0.8, 0.8, 13), np.linspace(-0.35, 0.35, 7))
    keep = np.abs(along) > 0.15
    xs = t.cx + (along[keep] * t.nx + across[keep] * t.dx) * t.width
    ys = t.cy + (along[keep] * t.ny + across[keep] * t.dy) * t.width
    xi = np.clip(np.rint(xs).astype(np.intp), 0, w - 1)
    yi = np.clip(np.rint(ys).astype(np.intp), 0, h - 1)
    low, mid, high = np.percentile(img[yi, xi], [10, 50, 90])
    return float(high - low) <= cfg.plain * _step(float(mid))


def _read_tile(
    blobs: Blobs, t: TileHypothesis, ref: float, planes: _Planes
) -> tuple[HalfReading, HalfReading]:
    """Both halves of a hypothesis; a doubtful half gets a second look of its own."""
    cfg, pips = planes.s.search, planes.s.pips
    out: list[HalfReading] = []
    for side in (0, 1):
        first = read_half(blobs, t, side, ref, pips)
        if first.confidence < cfg.sure:
            # pale pips (a lavender 7 beside black 11s) fall short of the frame's mark
            # threshold and read as marks too small to be pips: their half's own
            # threshold takes them whole
            again = reread_half(planes.img, planes.bright, planes.solid, t, side, ref, pips)
            if again is not None and _takes_over(first, again, cfg):
                first = again
        if first.confidence < cfg.sure and not first.foreign:
            # a pip merged with a line (its divider, a neighbour's edge) comes apart
            pip = planes.pip or 2.0 * float(np.sqrt(ref / np.pi))
            apart = apart_half(planes.img, planes.bright, planes.need, t, side, ref, pip, pips)
            if (
                apart is not None
                and not apart.foreign
                and apart.confidence >= cfg.sure  # a chain of merged grain is no pip
                and apart.pips >= first.pips  # fewer: the opening took a small pip away
            ):
                first = apart
        out.append(first)
    return out[0], out[1]


def _takes_over(first: HalfReading, again: HalfReading, cfg: SearchSettings) -> bool:
    """Whether the half's own threshold's reading `again` replaces `first`: any more
    confident reading of pips does, but a first reading of marks that are not pips
    (`foreign`) gives way only to a sure one."""
    if again.foreign:
        return False
    return again.confidence >= cfg.sure if first.foreign else again.confidence > first.confidence


def _apart_tile(
    t: TileHypothesis, ref: float, planes: _Planes
) -> tuple[HalfReading, HalfReading] | None:
    """Both halves of a kept tile with marks that are no pips read again with their
    marks opened (`reread.apart_half`), when both then read surely as pips and show
    one at least: a 6's columns of pips merged with each other and with the divider
    into one mark at a low mark threshold (a lone wooden 6-6 on white cloth)."""
    pip = planes.pip or 2.0 * float(np.sqrt(ref / np.pi))
    again = [
        apart_half(planes.img, planes.bright, planes.need, t, side, ref, pip, planes.s.pips)
        for side in (0, 1)
    ]
    ra, rb = again
    if ra is None or rb is None or ra.foreign or rb.foreign or ra.pips + rb.pips == 0:
        return None
    if min(ra.confidence, rb.confidence) < planes.s.search.sure:
        return None
    return ra, rb


def _placed(
    blobs: Blobs, t: TileHypothesis, ref: float, planes: _Planes
) -> tuple[TileHypothesis, tuple[HalfReading, HalfReading]]:
    """The tile of divider `t` read where it reads best.

    A divider cut short (`TileHypothesis.short`: at a faint contrast a pip or the
    rim touching its end took that end away) says which way the tile lies but not
    where along the divider's line: its centre is off by up to a sixth of the tile,
    and a row of pips fell outside the half read (a 6 read as a 3 in a row). Such a
    tile is read at a few places along the line (`SLIDE`), and the surest reading
    kept (at the same confidence, the one that sees more pips: pips off the half
    read are lost, never gained; the nearest place winning a tie); any other tile is
    read where it is."""
    first = _read_tile(blobs, t, ref, planes)
    if not t.short:
        return t, first
    best, rank = (t, first), _rank(first)
    for share in planes.s.search.slide[1:]:
        moved = replace(t, cx=t.cx + share * t.width * t.dx, cy=t.cy + share * t.width * t.dy)
        reading = _read_tile(blobs, moved, ref, planes)
        if _rank(reading) > rank:
            best, rank = (moved, reading), _rank(reading)
    return best


def _resized(
    blobs: Blobs,
    t: TileHypothesis,
    reading: tuple[HalfReading, HalfReading],
    ref: float,
    planes: _Planes,
) -> tuple[TileHypothesis, tuple[HalfReading, HalfReading]]:
    """`t` and its reading, or `t` read at another width (`RESIZE`) when that reads
    surely and `t` did not: one width per frame is the frame's median, and a tile
    nearer the camera than most (a tilted phone), or of a set longer than twice its
    width, has pips beyond the halves read at it (a lop-sided reading). It competes
    for its material as read first, and its confidence is at most `RESIZED`: a
    column of a 12's merged pips taken for a divider across its tile read surely
    at another width too, and must give way to the other pass's sure reading of
    the tile in its place (`_merge`)."""
    cfg = planes.s.search
    if min(r.confidence for r in reading) >= cfg.sure or any(r.foreign for r in reading):
        return t, reading
    for share in cfg.resize:
        other = replace(t, width=t.width * share)
        again = _read_tile(blobs, other, ref, planes)
        if min(r.confidence for r in again) >= cfg.sure and not any(r.foreign for r in again):
            capped = tuple(replace(r, confidence=min(r.confidence, cfg.resized)) for r in again)
            return other, (capped[0], capped[1])
    return t, reading


def _rank(reading: tuple[HalfReading, HalfReading]) -> tuple[bool, float, int]:
    ra, rb = reading
    return (not (ra.foreign or rb.foreign), min(ra.confidence, rb.confidence), ra.pips + rb.pips)


def _read(blobs: Blobs, agreed: list[TileHypothesis], offset: Point, planes: _Planes) -> Found:
    """Read every hypothesis, let the best readings win contested material, report them.

    A hypothesis whose halves hold marks that are no pips (printed letters, a stroke
    of a pattern taken for a divider) loses against one that reads as a domino.
    """
    width = agreed[0].width if agreed else 0.0
    ref = pip_area(blobs, agreed, planes.s.pips) or float(np.pi * (0.1 * width) ** 2)
    readings: dict[int, tuple[HalfReading, HalfReading]] = {}
    rescored: list[TileHypothesis] = []
    for hyp in agreed:
        t, first = _placed(blobs, hyp, ref, planes)
        bonus = 0.5 * min(r.confidence for r in first)
        t, (ra, rb) = _resized(blobs, t, first, ref, planes)
        penalty = 1.0 if ra.foreign or rb.foreign else 0.0
        readings[t.blob] = (ra, rb)
        rescored.append(replace(t, score=t.score - penalty + bonus))
    tiles: list[FoundTile] = []
    unsure: list[UnsureRegion] = []
    ox, oy = offset
    kept = suppress(rescored)
    near = _near_marks(blobs, width)
    read: list[TileHypothesis] = []
    lines: list[TileHypothesis] = []
    for t in kept:
        ra, rb = readings[t.blob]
        if ra.foreign or rb.foreign:
            ra, rb = _apart_tile(t, ref, planes) or (ra, rb)
        if ra.pips == rb.pips == 0 and not _blank_outlined(planes, t, kept):
            lines.append(t)
            continue  # a blank "tile" with no edge is a line on the table
        if ra.foreign or rb.foreign:
            unsure.append(UnsureRegion(t.cx + ox, t.cy + oy, UnsureReason.NOT_PIPS))
            continue
        placed: tuple[TileHypothesis, tuple[HalfReading, HalfReading]] | None = (t, (ra, rb))
        if not _whole(planes, near, t):
            placed = _smaller(blobs, t, (ra, rb), ref, planes, near)
        if placed is None:
            unsure.append(UnsureRegion(t.cx + ox, t.cy + oy, UnsureReason.COVERED))
            continue
        at, (ra, rb) = placed
        (xa, ya), (xb, yb) = at.half_centres()
        conf = round(min(ra.confidence, rb.confidence), 3)
        tiles.append(FoundTile((ra.pips, rb.pips), ((xa + ox, ya + oy), (xb + ox, yb + oy)), conf))
        read.append(at)
    return Found(tiles, [], unsure, width, kept, read, lines=lines)


def _blank_outlined(planes: _Planes, t: TileHypothesis, kept: list[TileHypothesis]) -> bool:
    """`_outlined` at the frame's width, or at the width measured at the tile's own
    divider: a blank nearer the camera than most has its edges beyond the lines
    looked at for the frame's width (a 0-0 of a set photographed at a tilt)."""
    cfg = planes.s.search
    if _outlined(planes.img, t, cfg, kept, planes.lighter_table):
        return True
    if t.own <= 0 or abs(t.own - t.width) <= 0.03 * t.width:
        return False
    return _outlined(planes.img, replace(t, width=t.own), cfg, kept, planes.lighter_table)


def _whole(planes: _Planes, near: NDArray[np.bool_], t: TileHypothesis) -> bool:
    """True when both halves of `t` show its face (no hand or sleeve over it)."""
    cfg = planes.s.search
    return (
        _face_share(planes.img, near, t, cfg) >= cfg.whole
        or _face_share_anywhere(planes, t) >= cfg.whole
    )


def _smaller(
    blobs: Blobs,
    t: TileHypothesis,
    reading: tuple[HalfReading, HalfReading],
    ref: float,
    planes: _Planes,
    near: NDArray[np.bool_],
) -> tuple[TileHypothesis, tuple[HalfReading, HalfReading]] | None:
    """`t` at a smaller width (`SHRINK`) when its own divider measured it so, and
    there its face shows whole and it reads the same pips surely: a tile farther
    from the camera than most is smaller than the frame's width, and the table
    around it looked like a hand over it. (A hand over a tile's end leaves the
    width measured across its divider as it is.)"""
    cfg = planes.s.search
    for share in cfg.shrink:
        if not 0 < t.own <= (share + 0.05) * t.width:
            continue
        other = replace(t, width=t.width * share)
        if not _whole(planes, near, other):
            continue
        again = _read_tile(blobs, other, ref, planes)
        same = [r.pips for r in again] == [r.pips for r in reading]
        if same and min(r.confidence for r in again) >= cfg.sure:
            return other, again
    return None


def _faint_doubts(planes: _Planes, found: Found, offset: Point) -> Found:
    """`found` with every tile a half of which shows more pip-like marks at half the
    contrast than it was read with (a pale or washed-out pip the reading missed: a 1
    read as a blank) reported as unsure instead."""
    if not found.read:
        return found
    ref = pip_area(planes.blobs, found.read, planes.s.pips) or float(
        np.pi * (0.1 * found.width) ** 2
    )
    tiles: list[FoundTile] = []
    read: list[TileHypothesis] = []
    unsure = list(found.unsure)
    ox, oy = offset
    for tile, t in zip(found.tiles, found.read, strict=True):
        agreed = _faint_agreed(planes, tile, t, ref)
        if agreed is None:
            unsure.append(UnsureRegion(t.cx + ox, t.cy + oy, UnsureReason.FAINT_MARK))
        else:
            tiles.append(agreed)
            read.append(t)
    return replace(found, tiles=tiles, unsure=unsure, read=read)


def _faint_agreed(
    planes: _Planes, tile: FoundTile, t: TileHypothesis, ref: float
) -> FoundTile | None:
    """`tile`, or None when a half shows more pips to the faint look than it was read
    with, unless the half's own threshold (`reread_half`) reads surely just as many:
    two looks that agree on a pale half (a lavender 7 whose pips the frame's mark
    threshold left as specks, beside dark yellow 6s) read it."""
    pips = list(tile.pips)
    cfg = planes.s.pips
    for side in (0, 1):
        faint = faint_pips(
            planes.img, planes.bright, planes.solid, t, side, ref, planes.need, pips[side], cfg
        )
        if faint <= pips[side]:
            continue
        again = reread_half(planes.img, planes.bright, planes.solid, t, side, ref, cfg)
        sure = planes.s.search.sure
        if again is None or again.foreign or again.confidence < sure or again.pips != faint:
            return None
        pips[side] = again.pips
    return replace(tile, pips=(pips[0], pips[1]))


def _stray_pips(planes: _Planes, found: Found) -> list[Point]:
    """The pips that no tile found explains, in the search image.

    A round mark of a pip's size on tile material is a pip; pips outside every tile
    found (and every place already unsure) belong to a tile that was not read: its
    divider did not show (glare, a tile touching others on a table of its own tone).
    The snapshot must then not be judged as if that tile were not there (see
    `_stray_places`). Printed figures on a board (round digits) are much paler than
    pips: a stray pip must be nearly as dark as the pips read.
    """
    b = planes.blobs
    cfg = planes.s
    ref = (
        pip_area(b, found.read, cfg.pips) if found.read else float(np.pi * (planes.pip / 2.0) ** 2)
    )
    if ref <= 0:
        return []
    pip = round_blobs(b, cfg.pips) & (b.area >= 0.5 * ref) & (b.area <= 2.0 * ref)
    pip[0] = False
    read = [in_half(b, t, side, cfg.pips) for t in found.read for side in (0, 1)]
    counted = np.concatenate(read) if read else np.flatnonzero(pip)
    if counted.size:
        pip &= b.darkness >= cfg.search.stray_darkness * float(np.median(b.darkness[counted]))
    idx = np.flatnonzero(pip)
    return [
        (float(x), float(y))
        for x, y in zip(b.cx[idx], b.cy[idx], strict=True)
        if not any(_inside(x, y, t) for t in found.kept)
    ]


def _stray_places(pips: list[Point], reach: float, cfg: SearchSettings) -> list[Point]:
    """Stray pips grouped: two or more within `reach` of each other (through one
    another) make one place, at their mean."""
    if len(pips) < cfg.stray_pips or reach <= 0:
        return []
    x, y = np.array([p[0] for p in pips]), np.array([p[1] for p in pips])
    group = np.arange(x.size)
    near = np.hypot(x[:, None] - x[None, :], y[:, None] - y[None, :]) <= reach
    for _ in range(x.size):  # label spreading: each pip takes its group's lowest index
        new = np.min(np.where(near, group[None, :], x.size), axis=1)
        if (new == group).all():
            break
        group = new
    out: list[Point] = []
    for g in np.unique(group):
        members = group == g
        if members.sum() >= cfg.stray_pips:
            out.append((float(x[members].mean()), float(y[members].mean())))
    return out


def _inside(x: float, y: float, t: TileHypothesis) -> bool:
    """True when (x, y) lies on tile `t` (grown a little)."""
    along = (x - t.cx) * t.nx + (y - t.cy) * t.ny
    across = (x - t.cx) * t.dx + (y - t.cy) * t.dy
    return abs(along) <= 1.1 * t.width and abs(across) <= 0.6 * t.width


def _merge(base: Found, extra: Found, cfg: SearchSettings) -> Found:
    """`base` plus the tiles of `extra` on material that `base` left unclaimed.

    A tile of `base` whose pips form no domino's layout (read lop-sided, below
    `DOUBTFUL`), or read only at another width than the frame's (`_resized`), gives
    way to a tile of `extra` in its place (the only one there) that reads as a
    domino (`SURE`): the other pass placed the tile better. So does
    a line that `base` took for a blank tile and dropped as a line on the table
    (`Found.lines`: wood grain that won the material from a fainter divider).
    """
    tiles, kept, read = list(base.tiles), list(base.kept), list(base.read)
    lines = list(base.lines)
    for tile, hyp in zip(extra.tiles, extra.read, strict=True):
        clash = [i for i, k in enumerate(kept) if overlap(hyp, k)]
        if clash and tile.confidence >= cfg.sure and all(kept[i] in lines for i in clash):
            gone = [kept[i] for i in clash]
            kept = [k for k in kept if k not in gone]
            lines = [k for k in lines if k not in gone]
            clash = []
        if not clash:
            tiles.append(tile)
            kept.append(hyp)
            read.append(hyp)
            continue
        if len(clash) != 1 or tile.confidence < cfg.sure or kept[clash[0]] not in read:
            continue
        j = read.index(kept[clash[0]])
        resized = abs(read[j].width - base.width) > 0.05 * base.width
        if tiles[j].confidence < cfg.doubtful or (resized and tiles[j].confidence < cfg.sure):
            tiles[j], read[j], kept[clash[0]] = tile, hyp, hyp
    return Found(tiles, [], base.unsure, base.width, kept, read, lines=lines)


def _pass(
    planes: _Planes,
    tile: NDArray[np.bool_],
    offset: Point,
    divider_scale: float,
    s: Settings,
    thin: bool = False,
    known: float = 0.0,
) -> Found:
    """Find dividers at `divider_scale` of the pip contrast (with `thin`, only their
    straight, thinner-than-a-pip parts), then read the pips. `known`: the tile width
    when an earlier pass fixed it (see `dividers.consensus`), else 0."""
    img, bright, solid = planes.img, planes.bright, planes.solid
    max_area = planes.max_area
    if divider_scale < 1.0:
        faint = mark_mask(
            img,
            bright,
            solid,
            s.marks.min_contrast,
            s.marks.rel_contrast,
            divider_scale,
            planes.need[2],
        )
        if thin:
            faint = _thin(faint, planes.pip, s.search)
    else:
        faint = planes.marks
    lines = planes.blobs if faint is planes.marks else find_blobs(faint, img, bright, max_area)
    # A divider that runs into the gap beside its tile (a crosswise double between
    # touching neighbours) is one T-shaped mark with that gap: cut where lines meet.
    split = split_junctions(
        lines, planes.pip, img, bright, max_area, lines is not planes.blobs, s.meeting, s.dividers
    )
    if split is not None:
        lines = split
    cands = [
        c
        for c in hypotheses(lines, tile, s.dividers)
        if _half_fill(tile, faint, c) >= s.search.min_half_fill
    ]
    # how well each reads is judged on the marks at the pips' contrast: at a fainter
    # one pips merge with the divider, the rims and the gaps, and every tile of
    # touching wooden ones looked foreign
    agreed, _ = consensus(lines, cands, _trust(planes.blobs, cands, s), known, s.dividers)
    if divider_scale >= 1.0:
        return _read(lines, agreed, offset, planes)
    # Pips are the strong marks left once the dividers' pixels are taken out, so a
    # pip touching its divider is still one round blob. Only the dividers that win
    # their material are taken out in the end: a row of merged pips that passed for
    # a divider must come back as pips.
    first = _read(_without(planes, lines, agreed, max_area), agreed, offset, planes)
    if {t.blob for t in first.kept} == {t.blob for t in agreed}:
        return first  # every divider won its material: the same marks again
    return _read(_without(planes, lines, first.kept, max_area), first.kept, offset, planes)


Box = tuple[int, int, int, int]  # x0, y0, x1, y1 in the search image


def _room(tile: NDArray[np.bool_], found: Found, cfg: SearchSettings) -> list[Box] | None:
    """Where tile material (with its marks filled in) is left that no tile found
    claims and that could hold a tile, as boxes grown by a tile width; None when no
    tile was found (no width: look everywhere). Slivers between tiles and rims drop
    out. Worked out at a lower resolution (a tile still 8 px wide or more)."""
    w = found.width
    if not found.kept or w <= 0:
        return None
    f = int(np.clip(w // 8, 1, 4))
    h, wd = tile.shape
    small = cv2.resize(tile.astype(np.uint8), (max(1, wd // f), max(1, h // f)))
    claimed = np.zeros(small.shape, dtype=np.uint8)
    for t in found.kept:
        cv2.fillConvexPoly(claimed, np.rint(_rectangle(t, 1.05) / f).astype(np.int32), 1)
    free = np.asarray((small > 0) & (claimed == 0), dtype=np.uint8)
    k = max(3, round(2 * cfg.room_shrink * w / f) | 1)
    free = np.asarray(cv2.erode(free, np.ones((k, k), np.uint8)), dtype=np.uint8)
    count, _, stats, _ = components(free)
    grow = int(np.ceil(w))
    boxes: list[Box] = []
    for i in range(1, int(count)):
        if stats[i, cv2.CC_STAT_AREA] * f * f < cfg.room_area * w * w:
            continue
        x, y = f * int(stats[i, cv2.CC_STAT_LEFT]), f * int(stats[i, cv2.CC_STAT_TOP])
        bw, bh = f * int(stats[i, cv2.CC_STAT_WIDTH]), f * int(stats[i, cv2.CC_STAT_HEIGHT])
        boxes.append(
            (max(0, x - grow), max(0, y - grow), min(wd, x + bw + grow), min(h, y + bh + grow))
        )
    return boxes


def _explained(tile: NDArray[np.bool_], found: Found, cfg: SearchSettings) -> float:
    """The share of the tile material (slivers and specks eroded away) that the tiles
    read cover, worked out at a lower resolution; 0 when no tile was read."""
    w = found.width
    if not found.read or w <= 0:
        return 0.0
    f = int(np.clip(w // 8, 1, 4))
    h, wd = tile.shape
    small = cv2.resize(tile.astype(np.uint8), (max(1, wd // f), max(1, h // f)))
    k = max(3, round(2 * cfg.room_shrink * w / f) | 1)
    material = np.asarray(cv2.erode(small, np.ones((k, k), np.uint8)), dtype=np.uint8) > 0
    total = int(np.count_nonzero(material))
    if total == 0:
        return 0.0
    claimed = np.zeros(material.shape, dtype=np.uint8)
    for t in found.read:
        cv2.fillConvexPoly(claimed, np.rint(_rectangle(t, 1.05) / f).astype(np.int32), 1)
    return int(np.count_nonzero(material & (claimed > 0))) / total


def _rectangle(t: TileHypothesis, scale: float) -> NDArray[np.float64]:
    """The tile's four corners, its size times `scale`."""
    c = np.array([t.cx, t.cy])
    n = np.array([t.nx, t.ny]) * t.width * scale
    d = np.array([t.dx, t.dy]) * t.width * scale / 2.0
    return np.array([c + n + d, c + n - d, c - n - d, c - n + d])


def _thin_in(
    planes: _Planes, box: Box, offset: Point, width: float, s: Settings, known: float = 0.0
) -> Found:
    """The thin-line pass inside `box`, its tiles of the frame's `width` only, in the
    whole search image's coordinates (`known`: as for `_pass`)."""
    x0, y0, _, _ = box
    sub = planes.crop(box)
    ox, oy = offset
    found = _pass(
        sub, sub.tile, (ox + x0, oy + y0), s.search.divider_contrast, s, thin=True, known=known
    )
    pairs = [
        (tile, replace(t, cx=t.cx + x0, cy=t.cy + y0))
        for tile, t in zip(found.tiles, found.read, strict=True)
        if abs(t.width - width) <= s.dividers.width_tolerance * width
    ]
    read = [t for _, t in pairs]
    return Found([tile for tile, _ in pairs], [], [], width, read, read)


def _pip_size(blobs: Blobs, s: Settings) -> float:
    """The typical diameter of a round mark (a pip) in pixels, or 0."""
    round_ = round_blobs(blobs, s.pips) & (blobs.area >= 9)
    if round_.sum() < 3:
        return 0.0
    return float(np.median(2.0 * np.sqrt(blobs.area[round_] / np.pi)))


def _thin(mask: NDArray[np.uint8], pip: float, cfg: SearchSettings) -> NDArray[np.uint8]:
    """The parts of `mask` that hold a straight segment longer than a pip, in any
    direction: a divider line that a blurred pip touches comes apart from it, and the
    pip drops out. Nothing is taken when the pip size is unknown."""
    length = round(cfg.line_pips * pip) | 1
    if pip <= 0 or length < 7:
        return mask
    # pips and rows of merged pips are as thick as a pip: gone with an opening by a
    # disc of most of a pip's width; what is left of their rims is not straight
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (round(0.6 * pip),) * 2)
    pips = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, disc), dtype=np.uint8)
    mask = np.asarray(mask & (1 - pips), dtype=np.uint8)
    out = np.zeros_like(mask)
    for i in range(cfg.line_angles):
        kernel = line_kernel(length, np.pi * i / cfg.line_angles)
        out |= np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel), dtype=np.uint8)
    return out


def _without(
    planes: _Planes, lines: Blobs, dividers: list[TileHypothesis], max_area: float
) -> Blobs:
    """The pip-contrast marks with the pixels of `dividers` (found in `lines`) removed."""
    marks = planes.marks.copy()
    chosen = np.zeros(len(lines), dtype=np.uint8)
    chosen[[c.blob for c in dividers]] = 1
    on_divider = chosen[lines.labels]
    marks[cv2.dilate(on_divider, np.ones((3, 3), np.uint8)) > 0] = 0
    return find_blobs(marks, planes.img, planes.bright, max_area)


def _trust(blobs: Blobs, cands: list[TileHypothesis], s: Settings) -> list[float]:
    """How much each hypothesis reads like a domino: a stroke of print taken for a
    divider has letters, not pips, beside it."""
    ref = pip_area(blobs, cands, s.pips)
    if ref <= 0:
        return [1.0] * len(cands)
    out = []
    for c in cands:
        ra, rb = read_half(blobs, c, 0, ref, s.pips), read_half(blobs, c, 1, ref, s.pips)
        out.append(0.1 if ra.foreign or rb.foreign else min(ra.confidence, rb.confidence))
    return out


def _sure_width(found: Found, cfg: SearchSettings) -> bool:
    """True when `found` read tiles, one of them at least as a domino (`DOUBTFUL`),
    and most of their widths were measured between the tiles' edges: a width taken
    from the dividers' length (white tiles on white cloth, whose edges do not show)
    is a guess that pips read at it do not confirm (ivory tiles 28 px wide read
    surely at 25)."""
    sure = any(t.confidence >= cfg.doubtful for t in found.tiles)
    return sure and 2 * sum(t.measured for t in found.read) > len(found.read)


def _score(found: Found) -> float:
    return sum(t.confidence for t in found.tiles)


def search(
    img: NDArray[np.uint8],
    offset: Point,
    s: Settings,
    exclude: NDArray[np.bool_] | None = None,
) -> Found:
    """Find and read tiles in a tile-bright image (tiles light, marks dark).

    Tiles are lighter than their marks but not always lighter than the table: on a
    light table (most of the frame on the light side of Otsu's split) coloured faces
    read in grey (`Tone.GREY`, wooden tiles on white cloth) may be the darker
    material. Then both are tried, and the reading with more (and surer) tiles wins.
    (Tried for light sets too, it read shadows on white cloth as ivory tiles.) The
    stray pips the other reading saw outside the winner's tiles stay unsure places:
    both looked at the same table.

    `exclude` (True where to leave out, e.g. the corner markers' squares) is no tile
    material: no tile, mark or stray pip is found there and it is no material left
    unexplained. The split between face and mark contrast is still taken over it
    (left out of that too, on white cloth the split fell to the cloth's noise and
    ivory tiles read wrong).
    """
    tile, solid = tile_mask(img, img.size * s.marks.max_hole_share, s.marks)
    tile, solid, whole = _left_out(tile, solid, exclude)
    found = _search(img, offset, s, tile, solid, local_bright(img, s.marks.window), whole=whole)
    if s.tone is Tone.GREY and float(tile.mean()) > s.marks.light_table:
        # the table's level is taken over a dozen pips; with no pip seen on the light
        # material (wooden tiles are not on it: only the corner markers' squares
        # were, and they may be left out) a pip is guessed from the searched area
        pip = found.pip if found.pip > 0 else min(img.shape) / s.search.guess_pips
        dark, dark_solid = darker_material(img, pip, s.marks)
        dark, dark_solid, dark_whole = _left_out(dark, dark_solid, exclude)
        if dark.any():
            bright = local_bright(np.where(dark, img, 0).astype(np.uint8), s.marks.window)
            other = _search(
                img, offset, s, dark, dark_solid, bright, lighter_table=True, whole=dark_whole
            )
            best, worse = (other, found) if _score(other) > _score(found) else (found, other)
            return _with_strays(best, worse, offset, s.search)
    return found


def _left_out(
    tile: NDArray[np.bool_], solid: NDArray[np.uint8], exclude: NDArray[np.bool_] | None
) -> tuple[NDArray[np.bool_], NDArray[np.uint8], NDArray[np.uint8] | None]:
    """The tile material and its filled, eroded version without `exclude`, and the
    latter as it was (None when nothing is left out)."""
    if exclude is None or not exclude.any():
        return tile, solid, None
    kept = np.where(exclude, 0, solid).astype(np.uint8)
    return tile & ~exclude, kept, solid


def _with_strays(best: Found, worse: Found, offset: Point, cfg: SearchSettings) -> Found:
    """`best` with the stray pips of `worse` that lie outside `best`'s tiles too, and
    the places `worse` found a tile it could not read (marks that are not pips, a
    covered tile) outside them: both looked at the same table (a lone wooden 6-6 on
    white cloth whose pips merged is no tile to either, but the darker search sees
    its outline)."""
    ox, oy = offset

    def outside(x: float, y: float, tiles: list[TileHypothesis]) -> bool:
        return not any(_inside(x - ox, y - oy, t) for t in tiles)

    pips = best.stray + [(x, y) for x, y in worse.stray if outside(x, y, best.kept)]
    unsure = [u for u in best.unsure if u.reason is not UnsureReason.STRAY_PIPS]
    unsure += [
        u
        for u in worse.unsure
        if u.reason is not UnsureReason.STRAY_PIPS and outside(u.x, u.y, best.read)
    ]
    unsure += [
        UnsureRegion(x, y, UnsureReason.STRAY_PIPS)
        for x, y in _stray_places(pips, _reach(best, cfg), cfg)
    ]
    return replace(best, unsure=unsure, stray=pips)


def _reach(found: Found, cfg: SearchSettings) -> float:
    """How far apart stray pips may lie and belong together."""
    return cfg.stray_reach * (found.width if found.width > 0 else 5.0 * found.pip)


def _search(
    img: NDArray[np.uint8],
    offset: Point,
    s: Settings,
    tile: NDArray[np.bool_],
    solid: NDArray[np.uint8],
    bright: NDArray[np.uint8],
    lighter_table: bool = False,
    whole: NDArray[np.uint8] | None = None,
) -> Found:
    """One search with the tile material and its local brightness given
    (`lighter_table`: the tiles are the material darker than the table; `whole`:
    the material with what was left out, for the mark split)."""
    cfg = s.search
    split = mark_split(
        bright.astype(np.int16) - img.astype(np.int16),
        solid if whole is None else whole,
        s.marks.min_contrast,
    )
    marks = mark_mask(img, bright, solid, s.marks.min_contrast, s.marks.rel_contrast, split=split)
    blobs = find_blobs(marks, img, bright, img.size / 50.0)
    need = (s.marks.min_contrast, s.marks.rel_contrast, split)
    planes = _Planes(
        img,
        bright,
        solid,
        marks,
        blobs,
        tile,
        need,
        img.size / 50.0,
        _pip_size(blobs, s),
        s,
        lighter_table,
    )
    found = _pass(planes, tile, offset, 1.0, s)
    if found.width < s.search.small_tile_px or not found.tiles:
        # Small tiles (or none read): their dividers are thin, blurred and faint.
        # (On white cloth the corner markers' squares raise the mark split above a
        # coloured set's dividers: the first pass agrees on a width from stray
        # lines, twice the real one, and reads nothing.)
        # Each pass sees dividers the other misses (a faint line; a line that merged
        # with a tile gap at the lower threshold): the better is kept, and the
        # other's tiles fill the places it left empty.
        # A third pass keeps only the straight, thin parts of the faint marks: a
        # blurred divider that touches a pip comes apart from it there. It only
        # fills places the others left empty: on a table as light as the tiles
        # (ivory on white cloth) a tile's end or side is such a straight thin line
        # too, and a "tile" across it reads the real half and a blank one of table.
        # When the first pass read tiles surely, their width is the frame's: the
        # fainter passes place their tiles at it (a faint look at touching wooden
        # tiles sees dividers cut short, and agreed on a width a third too small).
        known = found.width if _sure_width(found, cfg) else 0.0
        again = _pass(planes, tile, offset, cfg.divider_contrast, s, known=known)
        found = (
            _merge(found, again, cfg)
            if _score(found) >= _score(again)
            else _merge(again, found, cfg)
        )
        # It only runs where tile material is left that no tile claims.
        boxes = _room(solid > 0, found, cfg)
        if boxes is None:
            thin = _pass(planes, tile, offset, cfg.divider_contrast, s, thin=True)
            found = _merge(found, thin, cfg)
        for box in boxes or []:
            found = _merge(found, _thin_in(planes, box, offset, found.width, s, known), cfg)
    found = _faint_doubts(planes, found, offset)
    # A tile read lop-sided (pips in no domino's layout) is reported with its low
    # confidence, and its place is unsure too: the snapshot is not judged on it (a
    # line of wood grain across a tile's end read as a 1-0 beside it).
    lopsided = [
        UnsureRegion(*_mid(t.px), UnsureReason.LOPSIDED)
        for t in found.tiles
        if t.confidence < cfg.doubtful
    ]
    found = replace(found, unsure=found.unsure + lopsided)
    width = found.width
    ox, oy = offset
    rest = leftovers(tile, marks, found.kept, width, s.face_down)
    facedown = [(r.x + ox, r.y + oy) for r in rest if not r.marked]
    unsure = found.unsure + [
        UnsureRegion(r.x + ox, r.y + oy, UnsureReason.NO_DIVIDER) for r in rest if r.marked
    ]
    stray = [(x + ox, y + oy) for x, y in _stray_pips(planes, found)]
    out = Found(
        found.tiles, facedown, unsure, width, found.kept, found.read, pip=planes.pip, stray=stray
    )
    places = [
        UnsureRegion(x, y, UnsureReason.STRAY_PIPS)
        for x, y in _stray_places(stray, _reach(out, cfg), cfg)
    ]
    return replace(out, unsure=unsure + places, explained=_explained(solid > 0, found, cfg))


def within(found: Found, area: PlayArea | None) -> Found:
    """What was found with its centre inside the play area."""
    if area is None:
        return found
    return Found(
        [t for t in found.tiles if area.contains(*_mid(t.px))],
        [p for p in found.facedown if area.contains(*p)],
        [u for u in found.unsure if area.contains(u.x, u.y)],
        found.width,
        found.kept,
        explained=found.explained,
    )


def _mid(px: tuple[Point, Point]) -> Point:
    (xa, ya), (xb, yb) = px
    return ((xa + xb) / 2.0, (ya + yb) / 2.0)
