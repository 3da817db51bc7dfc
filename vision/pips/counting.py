"""Counting the pips on each half of a found tile.

A pip is a roughly round dark blob of about the same size as the other pips in the
frame, whose centre lies inside the half (away from its rim and away from the
divider, which is where a brass centre pin sits). Two pips that merged into one blob
(blur, tiny pips close together) count twice when the blob is the size and shape of
two pips. Pip layouts of every standard set, 0 to 12, are symmetric under a half
turn about the half's centre, so a layout that is not is reported with low
confidence rather than trusted.
"""

from __future__ import annotations

import logging
import math
import threading
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision.pips.layouts import grid_layout
from vision.pips.settings import PIPS, PipSettings
from vision.tiles.dark_marks import Blobs
from vision.tiles.dividers import TileHypothesis
from vision.trace import Trace

logger = logging.getLogger(__name__)

# The thresholds (where a pip may lie, its shape, how a half is judged) are
# `vision.pips.settings.PipSettings`.
# length / thickness (second moments) of k touching round pips in a row
CHAIN = {k: float(np.sqrt(k * k - 0.25) / np.sqrt(0.75)) for k in (2, 3, 4)}


@dataclass(frozen=True, slots=True)
class HalfReading:
    """The pips read on one half, and how much to trust the reading (0..1)."""

    pips: int
    confidence: float
    foreign: bool  # dark marks that are neither pips nor the divider


FloatPair = NDArray[np.float64]

# The blobs' centres in order along x, for the last few `Blobs` looked at (known by
# their `cx` array, which nothing changes in place): `in_half` on a frame's thousands
# of marks looks only at those within its reach in x. Fewer marks than `_BY_X_FROM`:
# every one is looked at.
_BY_X: dict[int, tuple[FloatPair, NDArray[np.intp], FloatPair]] = {}
_BY_X_KEPT = 8
_BY_X_FROM = 256
_BY_X_LOCK = threading.Lock()


def _near_in_x(blobs: Blobs, x: float, reach: float) -> NDArray[np.intp]:
    """Every blob whose centre lies within `reach` of `x` in x, in index order."""
    cx = blobs.cx
    with _BY_X_LOCK:
        got = _BY_X.get(id(cx))
        if got is None or got[0] is not cx:
            order = np.argsort(cx, kind="stable")
            got = (cx, order, cx[order])
            while len(_BY_X) >= _BY_X_KEPT:
                del _BY_X[next(iter(_BY_X))]
            _BY_X[id(cx)] = got
    _, order, xs = got
    lo = int(np.searchsorted(xs, x - reach, side="left"))
    hi = int(np.searchsorted(xs, x + reach, side="right"))
    return np.sort(order[lo:hi])


def in_half(
    blobs: Blobs, tile: TileHypothesis, side: int, cfg: PipSettings = PIPS
) -> NDArray[np.intp]:
    """Blobs whose centre lies in half `side` (0 = a, 1 = b) of the tile."""
    centre = tile.half_centres()[side]
    reach = cfg.half_reach * tile.width
    idx: NDArray[np.intp] | None = None
    det = abs(tile.nx * tile.dy - tile.ny * tile.dx)
    if len(blobs) >= _BY_X_FROM and det > 1e-6:
        # within `reach` along and across the tile, a centre lies within this in x
        # (solved for x from the two), a pixel to spare for rounding
        span = reach * (abs(tile.dy) + abs(tile.ny)) / det + 1.0
        if np.isfinite(span):
            idx = _near_in_x(blobs, centre[0], span)
    ox = (blobs.cx if idx is None else blobs.cx[idx]) - centre[0]
    oy = (blobs.cy if idx is None else blobs.cy[idx]) - centre[1]
    along = ox * tile.nx + oy * tile.ny  # along the tile
    across = ox * tile.dx + oy * tile.dy
    sign = -1.0 if side == 0 else 1.0
    # distance from the divider line, on this half's side
    from_divider = sign * along + tile.width / 2.0
    ok = (
        ((blobs.area if idx is None else blobs.area[idx]) > 0)
        & (np.abs(along) < reach)
        & (np.abs(across) < reach)
        & (from_divider > cfg.divider_clearance * tile.width)
    )
    if idx is None:
        ok[0] = False
        return np.flatnonzero(ok)
    return np.asarray(idx[ok & (idx != 0)], dtype=np.intp)


def round_blobs(blobs: Blobs, cfg: PipSettings = PIPS) -> NDArray[np.bool_]:
    """Blobs round enough to be one pip."""
    return np.asarray(
        (blobs.area > 0) & (blobs.length <= cfg.max_round_elongation * blobs.thickness),
        dtype=np.bool_,
    )


def pip_area(blobs: Blobs, tiles: list[TileHypothesis], cfg: PipSettings = PIPS) -> float:
    """The typical pip area in this frame: the median round blob inside any half."""
    round_ = round_blobs(blobs, cfg)
    areas: list[NDArray[np.float64]] = []
    for t in tiles:
        for side in (0, 1):
            idx = in_half(blobs, t, side, cfg)
            idx = idx[round_[idx] & (blobs.area[idx] >= (cfg.min_pip * t.width) ** 2)]
            areas.append(blobs.area[idx])
    if not areas:
        return 0.0
    allareas = np.concatenate(areas)
    if allareas.size == 0:
        return 0.0
    return float(np.median(allareas))


def symmetric(points: NDArray[np.float64], centre: tuple[float, float], tol: float) -> bool:
    """True when the pips map onto themselves under a half turn about the half's centre."""
    if points.shape[0] == 0:
        return True
    p = points - np.asarray(centre)
    q = -p
    dist = np.sqrt(((p[:, None, :] - q[None, :, :]) ** 2).sum(axis=2))
    return bool((dist.min(axis=1) < tol).all())


def read_half(
    blobs: Blobs,
    tile: TileHypothesis,
    side: int,
    ref_area: float,
    cfg: PipSettings = PIPS,
    trace: Trace | None = None,
) -> HalfReading:
    """Count the pips on one half and judge the reading.

    `ref_area` is the frame's pip; when the half does not read as a domino's against it,
    it is read against its own: the pips of one half share one colour, and in a set
    with a colour per number a pale colour's pips come out smaller from the frame's
    mark threshold than a dark colour's (a lavender 7 beside a black 11: the 11's
    pips and the chains of its merged columns are twice as large as the frame's
    median pip; the look `own-pip`). `trace`: the frame's looks (`vision.trace`), which
    may turn `own-pip` and `crescent` off; None: both on."""
    idx = in_half(blobs, tile, side, cfg)
    if idx.size == 0:
        return HalfReading(0, 1.0, foreign=False)
    first = _judge(blobs, idx, tile, side, ref_area, cfg, trace=trace)
    if first.confidence >= cfg.own_below or (trace is not None and not trace.on("own-pip")):
        return first
    own = _own_pip(blobs, idx, ref_area, cfg)
    if own is None:
        return first
    again = _judge(blobs, idx, tile, side, own, cfg, whole_layout=True, trace=trace)
    sure = not again.foreign and again.confidence >= cfg.own_sure
    better = sure and again.confidence > first.confidence
    if trace is not None:
        trace.count("own-pip", better)
    return again if better else first


def _own_pip(
    blobs: Blobs, idx: NDArray[np.intp], ref_area: float, cfg: PipSettings
) -> float | None:
    """The half's own pip area: its median round mark of a pip's size, or None."""
    area = blobs.area[idx]
    rel = area / ref_area
    elong = blobs.length[idx] / np.maximum(blobs.thickness[idx], 1e-6)
    ok = (rel >= cfg.own_range[0]) & (rel <= cfg.own_range[1]) & (elong <= cfg.max_round_elongation)
    if not ok.any():
        return None
    own = float(np.median(area[ok]))
    return own if abs(own / ref_area - 1.0) > cfg.own_apart else None


def _pip_centres(
    blobs: Blobs, idx: NDArray[np.intp], single: NDArray[np.bool_], merged: NDArray[np.int64]
) -> NDArray[np.float64]:
    """The centres of a half's pips: each single pip's, and k evenly along each chain
    of k merged pips."""
    pts = [np.column_stack([blobs.cx[idx[single]], blobs.cy[idx[single]]])]
    for i, k in zip(idx[merged > 0], merged[merged > 0], strict=True):
        step = float(blobs.length[i]) / float(k)
        at = (np.arange(k, dtype=np.float64) - (k - 1) / 2.0) * step
        pts.append(
            np.column_stack([blobs.cx[i] + at * blobs.ux[i], blobs.cy[i] + at * blobs.uy[i]])
        )
    return np.concatenate(pts)


def _on_grid(pts: NDArray[np.float64], tile: TileHypothesis, cfg: PipSettings) -> bool:
    """Whether a half's single pips (image pixels) sit on its 3x3 grid as a standard
    layout does (`vision.pips.layouts`), about their own centroid: every standard
    layout is centred, and `symmetric` has checked it lies near the half's centre.
    Only layouts up to `PipSettings.grid_pips` are looked at (larger ones differ from
    set to set: two columns of four, lines of four)."""
    n = len(pts)
    if n <= 1 or n > cfg.grid_pips:
        return True
    rel = pts - pts.mean(axis=0)
    along = rel[:, 0] * tile.nx + rel[:, 1] * tile.ny
    across = rel[:, 0] * tile.dx + rel[:, 1] * tile.dy
    return grid_layout(along, across, tile.width, most=cfg.grid_pips) is not None


def _judge(
    blobs: Blobs,
    idx: NDArray[np.intp],
    tile: TileHypothesis,
    side: int,
    ref_area: float,
    cfg: PipSettings,
    *,
    whole_layout: bool = False,
    trace: Trace | None = None,
) -> HalfReading:
    """The half's marks `idx` judged against a pip of `ref_area`. The layout must be
    symmetric: its single pips, or with `whole_layout` its merged lines' centres too
    (a 12's columns of four merged are three lines about the half's centre). A half
    of `_FEW` marks or fewer is judged mark by mark (`_judge_few`: the same
    judgement, without NumPy's cost per call on a few numbers)."""
    if idx.size <= _FEW:
        return _judge_few(
            blobs, idx, tile, side, ref_area, cfg, whole_layout=whole_layout, trace=trace
        )
    area = blobs.area[idx]
    elong = blobs.length[idx] / np.maximum(blobs.thickness[idx], 1e-6)
    rel = area / ref_area
    low, high = cfg.single_area
    single = (rel >= low) & (rel <= high) & (elong <= cfg.max_round_elongation)
    # a glossy pip whose highlight bites into its edge is a crescent: smaller than a
    # pip and a little longer than round (the look `crescent`)
    if trace is None or trace.on("crescent"):
        crescent = (rel >= low) & (rel <= cfg.crescent_area) & (elong <= cfg.crescent_elongation)
        if trace is not None:
            trace.count("crescent", bool((crescent & ~single).any()))
        single |= crescent
    chain = np.zeros_like(single)
    merged = np.zeros(idx.size, dtype=np.int64)
    for k in (2, 3, 4):  # k pips merged in a row: k times the area, stretched to match
        near_k = np.abs(rel - k) <= cfg.chain_area[k - 2]
        fits = ~single & ~chain & near_k & (np.abs(elong - CHAIN[k]) <= cfg.chain_elongation)
        merged[fits] = k
        chain |= fits
    double = chain
    tiny = rel < cfg.tiny
    # a dark region larger than a quarter of the half is the table showing through a
    # gap, not a mark on this tile
    backdrop = (area > cfg.backdrop * tile.width**2) | (blobs.length[idx] > tile.width)
    foreign = ~(single | double | tiny | backdrop)
    pips = int(single.sum() + merged.sum())
    confidence = 1.0
    if foreign.any():
        confidence = cfg.foreign_confidence
    elif (rel[~tiny & ~backdrop] < low).any():
        confidence = cfg.small_confidence
    if double.any():
        confidence = min(confidence, cfg.chain_confidence)
    marks = single | double if whole_layout else single
    pts = np.column_stack([blobs.cx[idx[marks]], blobs.cy[idx[marks]]])
    centre = tile.half_centres()[side]
    judged = whole_layout or not double.any()
    # a layout no domino has: not symmetric about the half's centre, or its single
    # pips not on the half's grid
    lopsided = judged and not symmetric(pts, centre, cfg.symmetry_tolerance * tile.width)
    if not lopsided and not whole_layout:
        lopsided = not _on_grid(_pip_centres(blobs, idx, single, merged), tile, cfg)
    if lopsided:
        confidence = min(confidence, cfg.lopsided_confidence)
    if pips > cfg.max_pips:
        confidence = min(confidence, cfg.too_many_confidence)
    # pips should be alike: a much smaller or larger one is suspicious
    if single.sum() >= 2:
        a = area[single]
        spread = float(a.max() / max(a.min(), 1.0))
        if spread > cfg.spread:
            confidence = min(confidence, cfg.spread_confidence)
    return HalfReading(pips, confidence, foreign=bool(foreign.any()))


_FEW = 32  # a half with this many marks or fewer is judged mark by mark


def _judge_few(
    blobs: Blobs,
    idx: NDArray[np.intp],
    tile: TileHypothesis,
    side: int,
    ref_area: float,
    cfg: PipSettings,
    *,
    whole_layout: bool = False,
    trace: Trace | None = None,
) -> HalfReading:
    """`_judge` mark by mark in plain floats: the same sums, products and square
    roots in the same order, so the same judgement."""
    area = [float(a) for a in blobs.area[idx]]
    length = [float(v) for v in blobs.length[idx]]
    rel = [a / ref_area for a in area]
    single, chain, merged = _kinds_few(blobs, idx, rel, cfg, trace)
    n = len(area)
    low = cfg.single_area[0]
    tiny = [r < cfg.tiny for r in rel]
    gap = cfg.backdrop * tile.width**2
    backdrop = [a > gap or v > tile.width for a, v in zip(area, length, strict=True)]
    foreign = any(not (single[i] or chain[i] or tiny[i] or backdrop[i]) for i in range(n))
    pips = sum(single) + sum(merged)
    confidence = 1.0
    if foreign:
        confidence = cfg.foreign_confidence
    elif any(rel[i] < low for i in range(n) if not tiny[i] and not backdrop[i]):
        confidence = cfg.small_confidence
    doubled = any(chain)
    if doubled:
        confidence = min(confidence, cfg.chain_confidence)
    marks = [s or c for s, c in zip(single, chain, strict=True)] if whole_layout else single
    chosen = idx[np.asarray(marks, dtype=np.bool_)] if n else idx
    xs = [float(v) for v in blobs.cx[chosen]]
    ys = [float(v) for v in blobs.cy[chosen]]
    centre = tile.half_centres()[side]
    judged = whole_layout or not doubled
    lopsided = judged and not _symmetric_few(xs, ys, centre, cfg.symmetry_tolerance * tile.width)
    if not lopsided and not whole_layout:
        single_np = np.asarray(single, dtype=np.bool_)
        pts = _pip_centres(blobs, idx, single_np, np.asarray(merged, dtype=np.int64))
        lopsided = not _on_grid(pts, tile, cfg)
    if lopsided:
        confidence = min(confidence, cfg.lopsided_confidence)
    if pips > cfg.max_pips:
        confidence = min(confidence, cfg.too_many_confidence)
    singles = [v for v, s in zip(area, single, strict=True) if s]
    if len(singles) >= 2 and max(singles) / max(min(singles), 1.0) > cfg.spread:
        confidence = min(confidence, cfg.spread_confidence)
    return HalfReading(pips, confidence, foreign=foreign)


def _kinds_few(
    blobs: Blobs,
    idx: NDArray[np.intp],
    rel: list[float],
    cfg: PipSettings,
    trace: Trace | None,
) -> tuple[list[bool], list[bool], list[int]]:
    """`_judge`'s single pips (crescents among them) and chains of k merged pips
    (`merged`: k, else 0), mark by mark."""
    thickness = [float(v) for v in blobs.thickness[idx]]
    elong = [float(v) / max(t, 1e-6) for v, t in zip(blobs.length[idx], thickness, strict=True)]
    low, high = cfg.single_area
    roundest = cfg.max_round_elongation
    single = [low <= r <= high and e <= roundest for r, e in zip(rel, elong, strict=True)]
    if trace is None or trace.on("crescent"):
        crescent = [
            low <= r <= cfg.crescent_area and e <= cfg.crescent_elongation
            for r, e in zip(rel, elong, strict=True)
        ]
        if trace is not None:
            trace.count("crescent", any(c and not s for c, s in zip(crescent, single, strict=True)))
        single = [s or c for s, c in zip(single, crescent, strict=True)]
    n = len(rel)
    chain = [False] * n
    merged = [0] * n
    for k in (2, 3, 4):
        near, shape = cfg.chain_area[k - 2], CHAIN[k]
        fits = [
            not single[i]
            and not chain[i]
            and abs(rel[i] - k) <= near
            and abs(elong[i] - shape) <= cfg.chain_elongation
            for i in range(n)
        ]
        for i in range(n):
            if fits[i]:
                merged[i] = k
                chain[i] = True
    return single, chain, merged


def _symmetric_few(
    xs: list[float], ys: list[float], centre: tuple[float, float], tol: float
) -> bool:
    """`symmetric` of the points (`xs`, `ys`) in plain floats."""
    px = [x - centre[0] for x in xs]
    py = [y - centre[1] for y in ys]
    qx = [-v for v in px]
    qy = [-v for v in py]
    for ax, ay in zip(px, py, strict=True):
        near = min(
            (
                math.sqrt((ax - bx) * (ax - bx) + (ay - by) * (ay - by))
                for bx, by in zip(qx, qy, strict=True)
            ),
            default=math.inf,
        )
        if not near < tol:
            return False
    return True
