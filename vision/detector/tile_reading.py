"""Reading the tiles of one search pass: each hypothesis's pips, then which win.

`read_tiles` reads every hypothesis that agreed on the frame's size (a short divider
at a few places along its line, a doubtful tile at other widths), lets the best
readings win contested material, drops blanks without an outline, and reports
what it could not read as unsure (marks that are not pips, a covered tile).
`faint_doubts` makes a tile unsure when a faint look sees more pips than it read.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.detector.planes import Found, Planes
from vision.detector.results import FoundTile, Point, UnsureReason, UnsureRegion
from vision.detector.settings import SearchSettings
from vision.pips.counting import HalfReading, pip_area, read_half
from vision.pips.second_look import apart_half, faint_pips, reread_half
from vision.tiles.dark_marks import Blobs, components
from vision.tiles.dividers import TileHypothesis, suppress
from vision.tiles.outline import face_ends, fitted_to_face, outlined


def _near_marks(blobs: Blobs, width: float, cfg: SearchSettings) -> NDArray[np.bool_]:
    """Pixels on or within `SearchSettings.rim_px` of a pip-sized mark (a pip's soft
    rim included)."""
    small = (blobs.area > 0) & (blobs.area <= cfg.mark_area * width**2)
    small[0] = False
    mask = small[blobs.labels].astype(np.uint8)
    grow = np.ones((2 * cfg.rim_px + 1,) * 2, np.uint8)
    return np.asarray(cv2.dilate(mask, grow) > 0, dtype=np.bool_)


def _samples(t: TileHypothesis, cfg: SearchSettings) -> tuple[NDArray[np.float64], ...]:
    """The sample grid over a half (`SearchSettings.sample_reach`, `samples`), along
    and across the tile, in pixels from the half's centre."""
    grid = np.linspace(-cfg.sample_reach, cfg.sample_reach, cfg.samples) * t.width
    aa, dd = np.meshgrid(grid, grid)
    return aa, dd


def _face_share(
    img: NDArray[np.uint8], near_marks: NDArray[np.bool_], t: TileHypothesis, cfg: SearchSettings
) -> float:
    """The smaller share, over the two halves, of sample points showing the tile's
    face (as bright as it, or at a pip or the divider): a hand or a sleeve over part
    of a tile is darker than the face and no mark of the size of a pip."""
    h, w = img.shape
    aa, dd = _samples(t, cfg)
    samples: list[tuple[NDArray[np.uint8], NDArray[np.bool_]]] = []
    for hx, hy in t.half_centres():
        xs = np.clip(np.rint(hx + aa * t.nx + dd * t.dx).astype(np.intp), 0, w - 1)
        ys = np.clip(np.rint(hy + aa * t.ny + dd * t.dy).astype(np.intp), 0, h - 1)
        samples.append((img[ys, xs], near_marks[ys, xs]))
    face = float(np.percentile(np.concatenate([v for v, _ in samples]), cfg.face_percentile))
    return min(float(((v >= cfg.face_share * face) | on_mark).mean()) for v, on_mark in samples)


def _face_share_anywhere(planes: Planes, t: TileHypothesis) -> float:
    """`_face_share` with the pip-sized marks looked for on the whole tile, tile
    material or not: a pip at a tile's corner that touches its shaded rim is joined
    through it to the table, lies outside the tile material and is no mark there
    (a wooden 3 on green felt was taken for a tile partly covered)."""
    h, w = planes.img.shape
    cfg = planes.s.search
    r = int(np.ceil(cfg.anywhere_reach * t.width)) + 3
    x0, y0 = max(0, int(t.cx) - r), max(0, int(t.cy) - r)
    x1, y1 = min(w, int(t.cx) + r + 1), min(h, int(t.cy) + r + 1)
    img, bright = planes.img[y0:y1, x0:x1], planes.bright[y0:y1, x0:x1]
    min_contrast, rel_contrast, split = planes.need
    lit = bright.astype(np.float32)
    marks = (lit - img.astype(np.float32)) > np.maximum(
        min_contrast, np.minimum(split, lit * rel_contrast)
    )
    count, labels, stats, _ = components(marks.astype(np.uint8))
    small = stats[:, cv2.CC_STAT_AREA] <= cfg.mark_area * t.width**2
    small[0] = False
    grow = np.ones((2 * cfg.rim_px + 1,) * 2, np.uint8)
    grown = cv2.dilate(small[labels].astype(np.uint8), grow)
    near = np.asarray(grown > 0, dtype=np.bool_)
    local = replace(t, cx=t.cx - x0, cy=t.cy - y0)
    return _face_share(img, near, local, cfg) if count > 0 else 0.0


def half_fill(
    tile: NDArray[np.bool_], marks: NDArray[np.uint8], t: TileHypothesis, cfg: SearchSettings
) -> float:
    """The smaller share, over the two halves, of sample points on tile material."""
    h, w = tile.shape
    aa, dd = _samples(t, cfg)
    shares = []
    for hx, hy in t.half_centres():
        xs = np.clip(np.rint(hx + aa * t.nx + dd * t.dx).astype(np.intp), 0, w - 1)
        ys = np.clip(np.rint(hy + aa * t.ny + dd * t.dy).astype(np.intp), 0, h - 1)
        on = tile[ys, xs] | (marks[ys, xs] > 0)
        shares.append(float(on.mean()))
    return min(shares)


def _read_tile(
    blobs: Blobs, t: TileHypothesis, ref: float, planes: Planes
) -> tuple[HalfReading, HalfReading]:
    """Both halves of a hypothesis; a doubtful half gets a second look of its own."""
    cfg, pips, trace = planes.s.search, planes.s.pips, planes.trace
    out: list[HalfReading] = []
    for side in (0, 1):
        first = read_half(blobs, t, side, ref, pips, trace)
        if first.confidence < cfg.sure and trace.on("reread-half"):
            # pale pips (a lavender 7 beside black 11s) fall short of the frame's mark
            # threshold and read as marks too small to be pips: their half's own
            # threshold takes them whole
            with trace.inner("reread-half") as note:
                again = reread_half(
                    planes.img, planes.bright, planes.solid, t, side, ref, pips, trace
                )
                if again is not None and note.took(_takes_over(first, again, cfg)):
                    first = again
        if first.confidence < cfg.sure and not first.foreign and trace.on("apart-half"):
            # a pip merged with a line (its divider, a neighbour's edge) comes apart
            with trace.inner("apart-half") as note:
                pip = planes.pip or 2.0 * float(np.sqrt(ref / np.pi))
                apart = apart_half(
                    planes.img, planes.bright, planes.need, t, side, ref, pip, pips, trace
                )
                if note.took(
                    apart is not None
                    and not apart.foreign
                    and apart.confidence >= cfg.sure  # a chain of merged grain is no pip
                    and apart.pips >= first.pips  # fewer: the opening took a small pip away
                ):
                    assert apart is not None
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
    t: TileHypothesis, ref: float, planes: Planes
) -> tuple[HalfReading, HalfReading] | None:
    """Both halves of a kept tile with marks that are no pips read again with their
    marks opened (`second_look.apart_half`), when both then read surely as pips and
    show one at least: a 6's columns of pips merged with each other and with the
    divider into one mark at a low mark threshold (a lone wooden 6-6 on white cloth)."""
    pip = planes.pip or 2.0 * float(np.sqrt(ref / np.pi))
    again = [
        apart_half(
            planes.img, planes.bright, planes.need, t, side, ref, pip, planes.s.pips, planes.trace
        )
        for side in (0, 1)
    ]
    ra, rb = again
    if ra is None or rb is None or ra.foreign or rb.foreign or ra.pips + rb.pips == 0:
        return None
    if min(ra.confidence, rb.confidence) < planes.s.search.sure:
        return None
    return ra, rb


def _placed(
    blobs: Blobs, t: TileHypothesis, ref: float, planes: Planes
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
    if not t.short or not planes.trace.on("slide"):
        return t, first
    best, rank = (t, first), _rank(first)
    with planes.trace.inner("slide") as note:
        for share in planes.s.search.slide[1:]:
            moved = replace(t, cx=t.cx + share * t.width * t.dx, cy=t.cy + share * t.width * t.dy)
            reading = _read_tile(blobs, moved, ref, planes)
            if note.took(_rank(reading) > rank):
                best, rank = (moved, reading), _rank(reading)
    return best


def _resized(
    blobs: Blobs,
    t: TileHypothesis,
    reading: tuple[HalfReading, HalfReading],
    ref: float,
    planes: Planes,
) -> tuple[TileHypothesis, tuple[HalfReading, HalfReading]]:
    """`t` and its reading, or `t` read at another width (`RESIZE`) when that reads
    surely and `t` did not: one width per frame is the frame's median, and a tile
    nearer the camera than most (a tilted phone), or of a set longer than twice its
    width, has pips beyond the halves read at it (a lop-sided reading). A tile that
    read marks that are no pips is not read again. It competes for its material as
    read first, and its confidence is at most `RESIZED`: a column of a 12's merged
    pips taken for a divider across its tile reads surely at another width too."""
    cfg, trace = planes.s.search, planes.trace
    if min(r.confidence for r in reading) >= cfg.sure or any(r.foreign for r in reading):
        return t, reading
    if not trace.on("resize"):
        return t, reading
    with trace.inner("resize") as note:
        for share in cfg.resize:
            other = replace(t, width=t.width * share)
            again = _read_tile(blobs, other, ref, planes)
            sure = min(r.confidence for r in again) >= cfg.sure
            if note.took(sure and not any(r.foreign for r in again)):
                capped = tuple(replace(r, confidence=min(r.confidence, cfg.resized)) for r in again)
                return other, (capped[0], capped[1])
    return t, reading


def _rank(reading: tuple[HalfReading, HalfReading]) -> tuple[bool, float, int]:
    ra, rb = reading
    return (not (ra.foreign or rb.foreign), min(ra.confidence, rb.confidence), ra.pips + rb.pips)


def read_tiles(blobs: Blobs, agreed: list[TileHypothesis], offset: Point, planes: Planes) -> Found:
    """Read every hypothesis, let the best readings win contested material, report them.

    A hypothesis whose halves hold marks that are no pips (printed letters, a stroke
    of a pattern taken for a divider) loses against one that reads as a domino.
    """
    width = agreed[0].width if agreed else 0.0
    cfg = planes.s.search
    ref = pip_area(blobs, agreed, planes.s.pips) or float(np.pi * (cfg.pip_guess * width) ** 2)
    readings: dict[int, tuple[HalfReading, HalfReading]] = {}
    rescored: list[TileHypothesis] = []
    for hyp in agreed:
        t, first = _placed(blobs, hyp, ref, planes)
        bonus = cfg.read_bonus * min(r.confidence for r in first)
        t, (ra, rb) = _resized(blobs, t, first, ref, planes)
        penalty = cfg.foreign_penalty if ra.foreign or rb.foreign else 0.0
        readings[t.blob] = (ra, rb)
        rescored.append(replace(t, score=t.score - penalty + bonus))
    tiles: list[FoundTile] = []
    unsure: list[UnsureRegion] = []
    ox, oy = offset
    kept = suppress(rescored)
    near = _near_marks(blobs, width, cfg)
    read: list[TileHypothesis] = []
    lines: list[TileHypothesis] = []
    for t in kept:
        ra, rb = readings[t.blob]
        if (ra.foreign or rb.foreign) and planes.trace.on("apart-tile"):
            with planes.trace.inner("apart-tile") as note:
                apart = _apart_tile(t, ref, planes)
                if note.took(apart is not None):
                    assert apart is not None
                    ra, rb = apart
        if ra.pips == rb.pips == 0 and not _blank_outlined(planes, t, kept):
            lines.append(t)
            continue  # a blank "tile" with no edge is a line on the table
        if ra.foreign or rb.foreign:
            unsure.append(UnsureRegion(t.cx + ox, t.cy + oy, UnsureReason.NOT_PIPS))
            continue
        placed: tuple[TileHypothesis, tuple[HalfReading, HalfReading]] | None = (t, (ra, rb))
        if not _whole(planes, near, t):
            placed = _face_fit(blobs, t, (ra, rb), ref, planes, near, width)
        if placed is None:
            unsure.append(UnsureRegion(t.cx + ox, t.cy + oy, UnsureReason.COVERED))
            continue
        at, (ra, rb) = placed
        (xa, ya), (xb, yb) = at.half_centres()
        conf = round(min(ra.confidence, rb.confidence), 3)
        tiles.append(FoundTile((ra.pips, rb.pips), ((xa + ox, ya + oy), (xb + ox, yb + oy)), conf))
        read.append(at)
    return Found(tiles, [], unsure, width, kept, read, lines=lines)


def _blank_outlined(planes: Planes, t: TileHypothesis, kept: list[TileHypothesis]) -> bool:
    """`outlined` at the frame's width, or at its face's own size: a blank nearer
    the camera than most has its edges beyond the lines looked at for the frame's
    width (a 0-0 of a set photographed at a tilt)."""
    cfg, trace = planes.s.outline, planes.trace
    if outlined(planes.img, t, cfg, kept, planes.lighter_table):
        return True
    if t.own <= 0 or not trace.on("blank-face"):
        return False
    # a tile longer than twice the width measured at its divider (a pinned blank seen
    # nearer than most, its divider's ends blurred into the rim) has its ends beyond
    # both; a tile up to the frame's tolerance wider than its width is one of its tiles
    with trace.inner("blank-face") as note:
        reach = (cfg.face_reach, 1.0 + planes.s.dividers.width_tolerance)
        ends = face_ends(planes.solid, t, reach, cfg)
        if ends is None or abs(sum(ends) / (2.0 * t.own) - 1.0) > cfg.face_fit:
            return False
        fitted = fitted_to_face(t, ends)
        return note.took(outlined(planes.img, fitted, cfg, kept, planes.lighter_table))


def _whole(planes: Planes, near: NDArray[np.bool_], t: TileHypothesis) -> bool:
    """True when both halves of `t` show its face (no hand or sleeve over it)."""
    cfg, trace = planes.s.search, planes.trace
    if _face_share(planes.img, near, t, cfg) >= cfg.whole:
        return True
    if not trace.on("face-anywhere"):
        return False
    with trace.inner("face-anywhere") as note:
        return note.took(_face_share_anywhere(planes, t) >= cfg.whole)


def _face_fit(
    blobs: Blobs,
    t: TileHypothesis,
    reading: tuple[HalfReading, HalfReading],
    ref: float,
    planes: Planes,
    near: NDArray[np.bool_],
    width: float,
) -> tuple[TileHypothesis, tuple[HalfReading, HalfReading]] | None:
    """`t` fitted to its face's ends (`_fitted`, the look `face-fit`) when it looked
    partly covered at the frame's width: a tile farther from the camera than most,
    or whose divider is off its middle, had the table around it sampled, which
    looked like a hand over it."""
    trace = planes.trace
    if not trace.on("face-fit"):
        return None
    with trace.inner("face-fit") as note:
        fitted = _fitted(blobs, t, reading, ref, planes, near, width)
        note.took(fitted is not None)
        return fitted


def _read_whole(
    blobs: Blobs,
    t: TileHypothesis,
    reading: tuple[HalfReading, HalfReading],
    ref: float,
    planes: Planes,
    near: NDArray[np.bool_],
) -> tuple[HalfReading, HalfReading] | None:
    """`t`'s reading when its face shows whole and it reads the pips of `reading`
    surely; else None."""
    if not _whole(planes, near, t):
        return None
    again = _read_tile(blobs, t, ref, planes)
    same = [r.pips for r in again] == [r.pips for r in reading]
    return again if same and min(r.confidence for r in again) >= planes.s.search.sure else None


def _fitted(
    blobs: Blobs,
    t: TileHypothesis,
    reading: tuple[HalfReading, HalfReading],
    ref: float,
    planes: Planes,
    near: NDArray[np.bool_],
    width: float,
) -> tuple[TileHypothesis, tuple[HalfReading, HalfReading]] | None:
    """`t` with its halves where its face's ends put them (`outline.face_ends`), when
    that face is a whole tile's: twice as long as the width measured across its
    divider (within a tenth) and showing its face on both halves. A tile whose
    divider is not quite at its middle, or which lies farther than most, looked
    covered at the frame's width: the table beyond its end was sampled. A hand over
    its end shortens the face and is still covered. Its reading there, when sure and
    the same as at the frame's width (`width`); else the reading at the frame's
    width when that was sure, or at another width (`_resized`: a face seen at a
    slant, its nearer half the larger, whose pips sit off the fitted halves'
    centres) when that was (its confidence capped at `resized`): the pips lay
    within the face."""
    cfg = planes.s.search
    ends = face_ends(planes.solid, t, cfg=planes.s.outline)
    if ends is None or t.own <= 0 or abs(sum(ends) / (2.0 * t.own) - 1.0) > cfg.face_fit:
        return None
    other = fitted_to_face(t, ends)
    if not _whole(planes, near, other):
        return None
    again = _read_whole(blobs, other, reading, ref, planes, near)
    if again is not None:
        return other, again
    sure = cfg.resized if abs(t.width - width) > cfg.resized_apart * width else cfg.sure
    if min(r.confidence for r in reading) >= sure and not any(r.foreign for r in reading):
        return other, reading
    return None


def faint_doubts(planes: Planes, found: Found, offset: Point) -> Found:
    """`found` with every tile a half of which shows more pip-like marks at half the
    contrast than it was read with (a pale or washed-out pip the reading missed: a 1
    read as a blank) reported as unsure instead."""
    if not found.read:
        return found
    ref = pip_area(planes.blobs, found.read, planes.s.pips) or float(
        np.pi * (planes.s.search.pip_guess * found.width) ** 2
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
    planes: Planes, tile: FoundTile, t: TileHypothesis, ref: float
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
