"""Tiles found by their divider lines.

Every face-up domino has one straight line across its middle. The line is a thin,
straight, dark blob enclosed by tile material, and it says where the tile is, which
way it lies and (with the tile's width) where both halves are. Tiles that touch, in a
row or side by side, merge into one light region but keep one divider each, so
finding dividers separates them with no grid and no blob splitting.

The gap between two tiles touching end to end can look like a divider too; it
competes with the two real dividers on either side for the same tile material, and
non-maximum suppression keeps the real ones (typical length and thickness, closed at
both ends by tile material).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from vision.tiles.dark_marks import Blobs
from vision.tiles.settings import DIVIDERS, DividerSettings

logger = logging.getLogger(__name__)

# The thresholds (a divider's shape, how closely the lines of a frame agree, a
# divider's share of its tile's width) are `vision.tiles.settings.DividerSettings`.


@dataclass(frozen=True, slots=True)
class TileHypothesis:
    """A tile placed around one divider blob: centre, axes and size in pixels."""

    blob: int
    cx: float
    cy: float
    dx: float  # unit vector along the divider (across the tile)
    dy: float
    nx: float  # unit vector along the tile, from half a to half b
    ny: float
    width: float  # short side; the tile is width x 2*width
    score: float  # higher is a more typical divider
    measured: bool = False  # its width was measured between the tile's edges
    short: bool = False  # the tile's edges were found, too far apart for this divider
    own: float = 0.0  # the width measured at its own divider (0: not measured)

    def half_centres(self) -> tuple[tuple[float, float], tuple[float, float]]:
        h = self.width / 2.0
        return (
            (self.cx - self.nx * h, self.cy - self.ny * h),
            (self.cx + self.nx * h, self.cy + self.ny * h),
        )


# A line with a bulge at its middle (a spinner pin or rivet, its rim as dark as the
# divider) is thickened there by its second moments; its length squared over its
# area (a line's length over its thickness, whatever bulges) still shows a line
# (`DividerSettings.bulged_elongation`, `min_length_per_area`, `bulged_weight`).


def line_like(blobs: Blobs, cfg: DividerSettings = DIVIDERS) -> NDArray[np.bool_]:
    """Blobs as thin as a divider: long beside their thickness, or beside their
    area when a pin at the middle bulges them."""
    thin = blobs.length >= cfg.min_elongation * blobs.thickness
    bulged = (blobs.length >= cfg.bulged_elongation * blobs.thickness) & (
        blobs.length**2 >= cfg.min_length_per_area * blobs.area
    )
    return np.asarray(thin | bulged, dtype=np.bool_)


def _pin_line(blobs: Blobs, i: int, cfg: DividerSettings) -> tuple[float, float, float] | None:
    """(length, arms' thickness, middle along the axis) of blob `i` when it is a thin
    line with a round head at its middle, else None: its outer halves (the arms) on
    both sides of the head, thin (pixels per unit of their length) and straight (their
    own second moments across), the head no wider than `pin_head` of the line's
    extent (two lines crossing are as wide as long)."""
    assert blobs.box is not None
    x0, y0, x1, y1 = (int(v) for v in blobs.box[i])
    ys, xs = np.nonzero(blobs.labels[y0:y1, x0:x1] == i)
    dx, dy = xs + x0 - blobs.cx[i], ys + y0 - blobs.cy[i]
    along = dx * blobs.ux[i] + dy * blobs.uy[i]
    across = dy * blobs.ux[i] - dx * blobs.uy[i]
    lo, hi = float(along.min()), float(along.max())
    extent, middle = hi - lo + 1.0, (hi + lo) / 2.0
    along = along - middle
    outer = np.abs(along) >= extent / 4.0
    sides = (int(np.count_nonzero(outer & (along > 0))), int(np.count_nonzero(outer & (along < 0))))
    if min(sides) < max(2.0, cfg.pin_arm_share * sum(sides)):
        return None
    arms = sum(sides) / (extent / 2.0)
    head = across[~outer]
    wide = float(head.max() - head.min() + 1.0) if head.size else 0.0
    # a line's length from its second moments, as a plain line's (`find_blobs`), but
    # over its arms alone: along a uniform line's outer halves the mean square
    # distance from its middle is 7/48 of its length squared
    length = float(np.sqrt(48.0 / 7.0 * float(np.mean(along[outer] ** 2)) + 1.0))
    if (
        arms > cfg.pin_arms * float(blobs.thickness[i])
        or wide > cfg.pin_head * extent
        or length < cfg.min_elongation * arms
    ):
        return None  # ruled out before the arms' own line is measured
    # the arms' own line (a head off the line's middle tilts the blob's axis a
    # little): thin about it, and the head on it (the corner of an L is not)
    pts = np.stack([dx[outer], dy[outer]])
    spread, axes = np.linalg.eigh(np.cov(pts))
    straight = float(np.sqrt(12.0 * max(float(spread[0]), 0.0) + 1.0))
    normal = axes[:, 0]
    off = 0.0
    if (~outer).any():
        centre = np.array([dx[~outer].mean(), dy[~outer].mean()])
        off = float(abs((centre - pts.mean(axis=1)) @ normal))
    if max(straight, 2.0 * off) <= cfg.pin_straight * extent:
        return length, arms, middle
    return None


def with_pins(blobs: Blobs, cfg: DividerSettings = DIVIDERS) -> Blobs:
    """`blobs` with every line that has a round head at its middle measured by its
    arms: a spinner pin's domed head, larger than a pip beside a thin divider seen
    from far, weighs in its second moments as much as the line and made it too short
    and thick for a divider (a line bulged at its middle, `line_like`, only when the
    head is slight). Such a line's length and thickness are its arms', its centre
    the middle of its extent: a divider whose pin is part of it."""
    if blobs.box is None:
        return blobs
    maybe = (
        (blobs.area >= cfg.min_divider_area)
        & (blobs.length >= cfg.pin_elongation * blobs.thickness)
        & (blobs.length < cfg.min_elongation * blobs.thickness)  # not a plain line
        & ~blobs.touches_edge
    )
    maybe[0] = False
    found = [(int(i), _pin_line(blobs, int(i), cfg)) for i in np.flatnonzero(maybe)]
    pinned = [(i, m) for i, m in found if m is not None]
    if not pinned:
        return blobs
    length, thickness = blobs.length.copy(), blobs.thickness.copy()
    cx, cy = blobs.cx.copy(), blobs.cy.copy()
    for i, (line, arms, middle) in pinned:
        length[i], thickness[i] = line, arms
        cx[i] += middle * blobs.ux[i]
        cy[i] += middle * blobs.uy[i]
    return replace(blobs, length=length, thickness=thickness, cx=cx, cy=cy)


def elongated(blobs: Blobs, cfg: DividerSettings = DIVIDERS) -> NDArray[np.intp]:
    """Indices of blobs shaped like a divider line."""
    ok = (
        (blobs.area >= cfg.min_divider_area)
        & (blobs.length >= cfg.min_divider_px)
        & line_like(blobs, cfg)
        & (blobs.thickness >= cfg.min_divider_thickness)
        & ~blobs.touches_edge
    )
    ok[0] = False
    return np.flatnonzero(ok)


def _run_length(
    tile: NDArray[np.bool_],
    start: tuple[float, float],
    step: tuple[float, float],
    limit: int,
    on: bool = True,
) -> int:
    """Steps from `start` along unit vector `step` while on tile material (`on`
    False: while off it), up to `limit`."""
    (x, y), (ux, uy) = start, step
    h, w = tile.shape
    steps = np.arange(1, limit + 1, dtype=np.float64)
    xs = np.clip(np.rint(x + ux * steps).astype(np.intp), 0, w - 1)
    ys = np.clip(np.rint(y + uy * steps).astype(np.intp), 0, h - 1)
    seen = tile[ys, xs]
    off = np.flatnonzero(~seen if on else seen)
    return int(off[0]) if off.size else limit


def measure_width(
    blobs: Blobs, i: int, tile: NDArray[np.bool_], cfg: DividerSettings = DIVIDERS
) -> tuple[float, float]:
    """The tile's short side in pixels around divider `i`, and the share of ends closed.

    The divider is extended to both tile edges. Where the tile cannot be told from
    what lies beyond (white tiles on white paper, a tile touching another side by
    side) the run never ends and the divider's length gives the width instead.
    """
    width, closed, _ = _measure(blobs, i, tile, cfg)
    return width, closed


MEASURED, ASSUMED, SHORT = "measured", "assumed", "short"


def _measure(
    blobs: Blobs, i: int, tile: NDArray[np.bool_], cfg: DividerSettings
) -> tuple[float, float, str]:
    """`measure_width`, and how the width was found: `MEASURED` between the tile's
    edges; `ASSUMED` from the divider's length, no edge found on one side; `SHORT`
    from its length too, though both edges were found, so far beyond its ends that
    it is no whole divider of that tile (a divider cut short where a pip or a rim
    touches it at a faint contrast, or a stroke on a larger region)."""
    length = float(blobs.length[i])
    half = length / 2.0
    limit = int(length)
    ux, uy = float(blobs.ux[i]), float(blobs.uy[i])
    reach: list[float] = []
    closed = 0.0
    for sign in (1.0, -1.0):
        sx = float(blobs.cx[i]) + sign * ux * half
        sy = float(blobs.cy[i]) + sign * uy * half
        step = (sign * ux, sign * uy)
        # skip the divider's own dark end pixels before measuring
        start = _run_length(tile, (sx, sy), step, 4, on=False)
        run = _run_length(tile, (sx + step[0] * start, sy + step[1] * start), step, limit)
        closed += 0.5 if run >= 2 else 0.0
        reach.append(float(start + run) if run < limit else np.inf)
    # A tile touching on one side runs on into its neighbour: the divider is centred
    # across its tile, so the nearer edge, twice, gives the width.
    width = length + 2.0 * min(reach)
    if length / width < cfg.min_divider_share and np.isfinite(width):
        return length / cfg.default_divider_share, closed, SHORT
    if not cfg.min_divider_share <= length / width <= cfg.max_divider_share:
        return length / cfg.default_divider_share, closed, ASSUMED
    return width, closed, MEASURED


def _hypothesis(
    blobs: Blobs, i: int, width: float, score: float, how: str = ASSUMED, own: float = 0.0
) -> TileHypothesis:
    ux, uy = float(blobs.ux[i]), float(blobs.uy[i])
    nx, ny = -uy, ux
    if nx + ny < 0:  # half a is the top or left one
        nx, ny = -nx, -ny
    return TileHypothesis(
        blob=i,
        cx=float(blobs.cx[i]),
        cy=float(blobs.cy[i]),
        dx=ux,
        dy=uy,
        nx=nx,
        ny=ny,
        width=width,
        score=score,
        measured=how == MEASURED,
        short=how == SHORT,
        own=own if how == MEASURED else 0.0,
    )


def _typical(values: NDArray[np.float64], weights: NDArray[np.float64], tol: float) -> float:
    """The value with the most weight within `tol` (a share) of it: the mode of a set.

    A frame's dividers all have one length; a few big printed strokes, however dark,
    do not outvote a dozen dividers.
    """
    near = np.abs(values[:, None] - values[None, :]) <= tol * values[:, None]
    support = near.astype(np.float64) @ weights
    best = int(np.argmax(support))
    return float(np.median(values[near[best]]))


def hypotheses(
    blobs: Blobs, tile: NDArray[np.bool_], cfg: DividerSettings = DIVIDERS
) -> list[TileHypothesis]:
    """A tile hypothesis around every divider-like blob, each with its own width."""
    out: list[TileHypothesis] = []
    for i in elongated(blobs, cfg):
        width, closed, how = _measure(blobs, int(i), tile, cfg)
        if blobs.thickness[i] > cfg.max_thickness * width:
            continue
        out.append(_hypothesis(blobs, int(i), width, closed, how, width))
    return out


def _weight(c: TileHypothesis, cfg: DividerSettings) -> float:
    return 1.0 if c.measured else cfg.short_weight if c.short else cfg.assumed_weight


def consensus(
    blobs: Blobs,
    cands: list[TileHypothesis],
    trust: list[float] | None = None,
    known: float = 0.0,
    cfg: DividerSettings = DIVIDERS,
    force: bool = False,
) -> tuple[list[TileHypothesis], float]:
    """Keep the hypotheses that agree on one tile size, all set to that size.

    Every tile in a frame is the same size: the divider length shared by the most
    dark lines (each weighted by `trust`, how well its tile reads) decides it; thin
    scratches and printed strokes of other lengths drop out. Each survivor is scored
    by how typical its divider is.

    Lines are weighted by how their width was found (`_weight`): measured between
    the tile's edges, assumed from the line's length, or assumed though the edges
    found lie too far beyond its ends (`short`). `known` is the tile width an
    earlier look at the frame measured (0: none). When no line of the length most
    lines share had its width measured, that width decides instead: the lines that
    fit a tile of it are kept (a usual share of it long, or their own width near
    it) and take it. (A fainter look at touching wooden tiles sees dividers cut
    short where they meet a rim or a pip; the mode of their lengths, a third short,
    placed tiles that read wrong.)
    """
    if not cands:
        return [], 0.0
    idx = np.array([c.blob for c in cands])
    weight = blobs.darkness[idx] * (np.asarray(trust) if trust is not None else 1.0)
    # a line whose tile's edges were found on both sides counts more than one whose
    # width is a guess from its length, and a line too short for the edges found
    # around it (a divider cut short where a pip or a rim touches it) least
    weight = weight * np.array([_weight(c, cfg) for c in cands])
    # a line bulged at its middle (a pinned divider) may also be a blot of print
    # or dirt: it counts half as much as a plain line
    plain = blobs.length[idx] >= cfg.min_elongation * blobs.thickness[idx]
    weight = weight * np.where(plain, 1.0, cfg.bulged_weight)
    med_len = _typical(blobs.length[idx], weight, cfg.mode_tolerance)
    near = np.abs(blobs.length[idx] - med_len) <= cfg.length_tolerance * med_len
    measured = any(c.measured for c, ok in zip(cands, near, strict=True) if ok)
    if known > 0 and (force or not measured):
        # no line of that length had its tile's width measured: the width known
        # from an earlier look decides, and the lines that fit it are kept
        share = blobs.length[idx] / known
        fits = np.array([abs(c.width - known) <= cfg.width_tolerance * known for c in cands])
        near = ((share >= cfg.min_divider_share) & (share <= cfg.max_divider_share)) | fits
        if not near.any():
            return [], known
        med_len = float(np.median(blobs.length[idx[near]]))
        cands = [replace(c, width=known) for c in cands]
        width = known
    else:
        widths = [c.width for c, ok in zip(cands, near, strict=True) if ok and not c.short]
        if not widths:
            widths = [c.width for c, ok in zip(cands, near, strict=True) if ok]
        width = float(np.median(widths))
    med_thick = float(np.median(blobs.thickness[idx[near]]))
    med_dark = float(np.median(blobs.darkness[idx[near]]))
    kept: list[TileHypothesis] = []
    for c, ok in zip(cands, near, strict=True):
        # a divider of the frame's length whose runs to its tile's edges both went on
        # into touching tiles (a double between two, each run stopped at a pip of
        # its neighbour) measures its tile too wide; it is still a tile of the frame
        wider = c.measured and c.width > width
        if not ok or (abs(c.width - width) > cfg.width_tolerance * width and not wider):
            continue
        length, thick = float(blobs.length[c.blob]), float(blobs.thickness[c.blob])
        score = (
            1.0
            - abs(length - med_len) / med_len
            - 0.5 * abs(thick - med_thick) / max(med_thick, 1.0)
            - 0.5 * max(0.0, 1.0 - float(blobs.darkness[c.blob]) / max(med_dark, 1.0))
            + 0.5 * c.score
        )
        how = MEASURED if c.measured else SHORT if c.short else ASSUMED
        kept.append(_hypothesis(blobs, c.blob, width, score, how, c.own))
    return kept, width


def _corners(t: TileHypothesis, shrink: float) -> NDArray[np.float64]:
    hw = t.width * shrink  # half of the long side (2w / 2)
    hd = t.width * shrink / 2.0
    c = np.array([t.cx, t.cy])
    n = np.array([t.nx, t.ny]) * hw
    d = np.array([t.dx, t.dy]) * hd
    return np.array([c + n + d, c + n - d, c - n - d, c - n + d])


def _separated(pa: NDArray[np.float64], pb: NDArray[np.float64], axes: NDArray[np.float64]) -> bool:
    qa, qb = pa @ axes.T, pb @ axes.T  # 4 corners x 4 axes
    return bool(((qa.max(axis=0) <= qb.min(axis=0)) | (qb.max(axis=0) <= qa.min(axis=0))).any())


def _axes(t: TileHypothesis) -> NDArray[np.float64]:
    return np.array([[t.nx, t.ny], [t.dx, t.dy]])


def overlap(a: TileHypothesis, b: TileHypothesis, shrink: float = 0.8) -> bool:
    """True when the two tiles, each shrunk by `shrink`, intersect (separating axes)."""
    axes = np.vstack([_axes(a), _axes(b)])
    return not _separated(_corners(a, shrink), _corners(b, shrink), axes)


def suppress(cands: list[TileHypothesis], shrink: float = 0.8) -> list[TileHypothesis]:
    """Keep the best hypotheses that do not claim the same tile material."""
    kept: list[TileHypothesis] = []
    kept_corners: list[NDArray[np.float64]] = []
    for c in sorted(cands, key=lambda t: -t.score):
        corners = _corners(c, shrink)
        reach = 2.3 * c.width  # beyond this two tiles of this size cannot meet
        clash = False
        for k, kc in zip(kept, kept_corners, strict=True):
            if abs(k.cx - c.cx) > reach or abs(k.cy - c.cy) > reach:
                continue
            if not _separated(corners, kc, np.vstack([_axes(c), _axes(k)])):
                clash = True
                break
        if not clash:
            kept.append(c)
            kept_corners.append(corners)
    return kept
