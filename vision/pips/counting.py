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
    # in plain floats, as `_judge`: the same arithmetic as NumPy's, and a median as its
    low, high = cfg.own_range
    ref = float(ref_area)
    if ref == 0:  # NumPy's a / 0 is inf or nan: no mark in range
        return None
    sizes = sorted(
        a
        for a, n, t in zip(
            blobs.area[idx].tolist(), blobs.length[idx].tolist(), blobs.thickness[idx].tolist(),
            strict=True,
        )
        if low <= a / ref <= high and n / max(t, 1e-6) <= cfg.max_round_elongation
    )  # fmt: skip
    if not sizes:
        return None
    mid = len(sizes) // 2
    own = sizes[mid] if len(sizes) % 2 else (sizes[mid - 1] + sizes[mid]) / 2.0
    return own if abs(own / ref_area - 1.0) > cfg.own_apart else None


def _pip_centres(
    blobs: Blobs, idx: NDArray[np.intp], kinds: list[int]
) -> tuple[list[float], list[float]]:
    """The centres of a half's pips (x and y): each single pip's (kind 1), then k evenly
    along each chain of k merged pips (kind k), in the order of `idx`."""
    at = idx.tolist()
    xs = [float(blobs.cx[i]) for i, k in zip(at, kinds, strict=True) if k == 1]
    ys = [float(blobs.cy[i]) for i, k in zip(at, kinds, strict=True) if k == 1]
    for i, k in zip(at, kinds, strict=True):
        if k > 1:
            step = float(blobs.length[i]) / float(k)
            cx, cy, ux, uy = (float(v[i]) for v in (blobs.cx, blobs.cy, blobs.ux, blobs.uy))
            for j in range(k):
                along = (j - (k - 1) / 2.0) * step
                xs.append(cx + along * ux)
                ys.append(cy + along * uy)
    return xs, ys


def _on_grid(xs: list[float], ys: list[float], tile: TileHypothesis, cfg: PipSettings) -> bool:
    """Whether a half's pips (image pixels) sit on its 3x3 grid as a standard
    layout does (`vision.pips.layouts`), about their own centroid: every standard
    layout is centred, and `symmetric` has checked it lies near the half's centre.
    Only layouts up to `PipSettings.grid_pips` are looked at (larger ones differ from
    set to set: two columns of four, lines of four)."""
    n = len(xs)
    if n <= 1 or n > cfg.grid_pips:
        return True
    mx, my = sum(xs) / n, sum(ys) / n
    nx, ny, dx, dy = float(tile.nx), float(tile.ny), float(tile.dx), float(tile.dy)
    along = [(x - mx) * nx + (y - my) * ny for x, y in zip(xs, ys, strict=True)]
    across = [(x - mx) * dx + (y - my) * dy for x, y in zip(xs, ys, strict=True)]
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
    (a 12's columns of four merged are three lines about the half's centre)."""
    # Marks one by one in plain floats: a half holds a few, and the same arithmetic on
    # each as NumPy's (the same operations in the same order) gives the same reading.
    area = blobs.area[idx].tolist()
    crescents = trace is None or trace.on("crescent")
    kinds, bitten, small = _kinds(
        area, blobs.length[idx].tolist(), blobs.thickness[idx].tolist(),
        float(ref_area), float(tile.width), cfg, crescents=crescents,
    )  # fmt: skip
    if crescents and trace is not None:
        trace.count("crescent", bitten)
    foreign = -1 in kinds
    double = any(k > 1 for k in kinds)
    pips = sum(k for k in kinds if k > 0)
    confidence = 1.0
    if foreign:
        confidence = cfg.foreign_confidence
    elif small:
        confidence = cfg.small_confidence
    if double:
        confidence = min(confidence, cfg.chain_confidence)
    centre = tile.half_centres()[side]
    judged = whole_layout or not double
    lopsided = False
    if judged:
        marks = [i for i, k in enumerate(kinds) if k == 1 or (whole_layout and k > 1)]
        at = idx[marks] if marks else idx[:0]
        xs, ys = blobs.cx[at].tolist(), blobs.cy[at].tolist()
        lopsided = not _symmetric(xs, ys, centre, cfg.symmetry_tolerance * tile.width)
    if not lopsided and not whole_layout and 1 < pips <= cfg.grid_pips:
        lopsided = not _on_grid(*_pip_centres(blobs, idx, kinds), tile, cfg)
    if lopsided:
        confidence = min(confidence, cfg.lopsided_confidence)
    if pips > cfg.max_pips:
        confidence = min(confidence, cfg.too_many_confidence)
    singles = [a for a, k in zip(area, kinds, strict=True) if k == 1]
    if len(singles) >= 2:
        spread = float(max(singles) / max(min(singles), 1.0))
        if spread > cfg.spread:
            confidence = min(confidence, cfg.spread_confidence)
    return HalfReading(pips, confidence, foreign=foreign)


def _kinds(
    area: list[float],
    length: list[float],
    thickness: list[float],
    ref_area: float,
    width: float,
    cfg: PipSettings,
    *,
    crescents: bool,
) -> tuple[list[int], bool, bool]:
    """What each mark of a half is: 1 a pip, k > 1 k pips merged in a row, 0 a speck or
    the table showing through a gap, -1 foreign; whether a pip bitten by its highlight
    (a crescent, when `crescents`) was taken, and whether a mark other than a speck or
    the backdrop is smaller than a pip."""
    low, high = cfg.single_area
    backdrop_area = cfg.backdrop * width**2
    kinds: list[int] = []
    bitten = small = False
    for a, n, t in zip(area, length, thickness, strict=True):
        elong = n / max(t, 1e-6)
        rel = a / ref_area if ref_area else (math.inf if a else math.nan)  # as NumPy's
        kind = -1
        if low <= rel <= high and elong <= cfg.max_round_elongation:
            kind = 1
        elif crescents and low <= rel <= cfg.crescent_area and elong <= cfg.crescent_elongation:
            kind, bitten = 1, True
        else:  # k pips merged in a row: k times the area, stretched to match
            kind = next(
                (
                    k
                    for k in (2, 3, 4)
                    if abs(rel - k) <= cfg.chain_area[k - 2]
                    and abs(elong - CHAIN[k]) <= cfg.chain_elongation
                ),
                -1,
            )
        # a dark region larger than a quarter of the half is the table showing through
        # a gap, not a mark on this tile
        speck, backdrop = rel < cfg.tiny, a > backdrop_area or n > width
        if kind == -1 and (speck or backdrop):
            kind = 0
        small = small or (not speck and not backdrop and rel < low)
        kinds.append(kind)
    return kinds, bitten, small


def _symmetric(xs: list[float], ys: list[float], centre: tuple[float, float], tol: float) -> bool:
    """`symmetric` for a few points given as lists: the same sums in the same order."""
    if len(xs) > 8:
        return symmetric(np.column_stack([xs, ys]), centre, tol)
    cx, cy = float(centre[0]), float(centre[1])
    px = [x - cx for x in xs]
    py = [y - cy for y in ys]
    for x, y in zip(px, py, strict=True):
        near = min(
            math.sqrt((x + u) * (x + u) + (y + v) * (y + v)) for u, v in zip(px, py, strict=True)
        )
        if not near < tol:
            return False
    return True
