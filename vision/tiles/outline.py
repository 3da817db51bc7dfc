"""A tile's outline: whether the sides of a tile found show as edges.

A raised tile has a rim, a shadow or a gap to its neighbour all round; a stretch of
table (wood grain taken for a blank tile's divider) does not. `outlined` judges a
tile by its four sides, `inside` says whether a point lies on a tile.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from vision.tiles.dividers import TileHypothesis
from vision.tiles.settings import OUTLINE, OutlineSettings


def outlined(
    img: NDArray[np.uint8],
    t: TileHypothesis,
    cfg: OutlineSettings,
    others: list[TileHypothesis] | None = None,
    lighter_table: bool = False,
) -> bool:
    """True when at least three of the tile's four sides show as a darker edge, on an
    even face or strongly (`OutlineSettings.strong` steps), or every side shows and
    two of them clearly, on an even face.

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
    steps: list[float] = []  # how many edge steps each darker side stands out by
    levels = _side_levels(img, t, cfg)
    for (along, across), level in zip(SIDES, levels, strict=True):
        outside, inside = float(level[0]), float(level[1])
        step = _step(inside, cfg)
        if outside < inside - step or (lighter_table and outside > inside + step):
            darker += 1
            steps.append(abs(inside - outside) / step)
            continue
        beyond = [outside, *(float(v) for v in level[2:])]
        edge = inside - min(beyond)
        clear += edge > step
        shows = max(edge, max(beyond) - inside) > cfg.faint_edge * step
        faint += shows or _against(t, along, across, others, cfg)

    if darker >= 3:
        # three sides darker: the face must be even, or the outline strong (wood
        # grain beside a stretch of table is darker by a step or two, not more)
        return sorted(steps)[-3] >= cfg.strong or _plain_face(img, t, cfg)
    return darker + clear >= 2 and darker + faint == 4 and _plain_face(img, t, cfg)


def _step(face: float, cfg: OutlineSettings) -> float:
    """How much darker than a face of grey level `face` its edge must be."""
    return max(cfg.step_min, cfg.step_share * face)


# a tile's sides: (along, across) of each side's middle, in tile widths (an end:
# along = +-1; a long side: across = +-0.5)
SIDES = ((-1.0, 0.0), (1.0, 0.0), (0.0, -0.5), (0.0, 0.5))


def _side_levels(
    img: NDArray[np.uint8], t: TileHypothesis, cfg: OutlineSettings
) -> NDArray[np.float64]:
    """For each side of `t` (`SIDES`), the median grey level on each of the lines
    `OutlineSettings.outside`, -`inside` and every `rim` tile widths past it
    (negative: inside), sampled at `side_points` points over +-`side_reach` widths
    along it: one row per side, one column per line, all sampled at once."""
    h, w = img.shape
    steps = np.linspace(-cfg.side_reach, cfg.side_reach, cfg.side_points)
    beyond = np.array([cfg.outside, -cfg.inside, *cfg.rim], dtype=np.float64)
    xs: list[NDArray[np.float64]] = []
    ys: list[NDArray[np.float64]] = []
    for along, across in SIDES:
        reach = (1.0 + beyond / max(abs(along), 0.5))[:, None]
        u = along * reach + (steps * 2.0 if along == 0 else 0.0)
        v = across * reach + (0.0 if along == 0 else steps)
        shape = (beyond.size, steps.size)
        xs.append(np.broadcast_to(t.cx + (u * t.nx + v * t.dx) * t.width, shape))
        ys.append(np.broadcast_to(t.cy + (u * t.ny + v * t.dy) * t.width, shape))
    xi = np.clip(np.rint(np.stack(xs)).astype(np.intp), 0, w - 1)
    yi = np.clip(np.rint(np.stack(ys)).astype(np.intp), 0, h - 1)
    return np.asarray(np.median(img[yi, xi], axis=2), dtype=np.float64)


def _against(
    t: TileHypothesis,
    along: float,
    across: float,
    others: list[TileHypothesis] | None,
    cfg: OutlineSettings,
) -> bool:
    """True when another tile found lies just beyond the side of `t` at (`along`,
    `across`) (a touching neighbour, the gap to which may not show)."""
    past = cfg.against
    u, v = along * (1.0 + past / max(abs(along), 0.5)), across + past * np.sign(across)
    x = t.cx + (u * t.nx + v * t.dx) * t.width
    y = t.cy + (u * t.ny + v * t.dy) * t.width
    return any(inside(x, y, k) for k in others or [] if k is not t)


def _plain_face(img: NDArray[np.uint8], t: TileHypothesis, cfg: OutlineSettings) -> bool:
    """True when the face of a blank tile is as even as a tile's face: its grey
    levels (the divider left out) spread, from the 10th to the 90th percentile, over
    at most `PLAIN` times the edge step of its median. Wood grain is not even."""
    h, w = img.shape
    along, across = np.meshgrid(
        np.linspace(-cfg.plain_along, cfg.plain_along, 13),
        np.linspace(-cfg.side_reach, cfg.side_reach, 7),
    )
    keep = np.abs(along) > cfg.plain_divider
    xs = t.cx + (along[keep] * t.nx + across[keep] * t.dx) * t.width
    ys = t.cy + (along[keep] * t.ny + across[keep] * t.dy) * t.width
    xi = np.clip(np.rint(xs).astype(np.intp), 0, w - 1)
    yi = np.clip(np.rint(ys).astype(np.intp), 0, h - 1)
    low, mid, high = np.percentile(img[yi, xi], [10, 50, 90])
    return float(high - low) <= cfg.plain * _step(float(mid), cfg)


def inside(x: float, y: float, t: TileHypothesis) -> bool:
    """True when (x, y) lies on tile `t` (grown a little)."""
    along = (x - t.cx) * t.nx + (y - t.cy) * t.ny
    across = (x - t.cx) * t.dx + (y - t.cy) * t.dy
    return abs(along) <= 1.1 * t.width and abs(across) <= 0.6 * t.width


def face_ends(
    solid: NDArray[np.uint8],
    t: TileHypothesis,
    reach: tuple[float, float] = (0.6, 1.2),
    cfg: OutlineSettings = OUTLINE,
) -> tuple[float, float] | None:
    """How far the tile's face runs from its divider to each end (half a's, half
    b's), in pixels, measured on the tile material with its marks filled in
    (`solid`, eroded 2 px: added back): along the tile's axis on three lines across
    it, the first pixel off the material, the median of the three. None when an end
    is not found within `reach` tile widths (a touching neighbour runs on, the table
    is as light as the face) or the lines disagree by more than `face_agree` of a
    width."""
    h, w = solid.shape
    steps = np.arange(cfg.face_start * t.width, reach[1] * t.width, 1.0)
    out: list[float] = []
    for sign in (-1.0, 1.0):
        ends: list[float] = []
        for across in (-cfg.face_lines, 0.0, cfg.face_lines):
            xs = t.cx + sign * steps * t.nx + across * t.width * t.dx
            ys = t.cy + sign * steps * t.ny + across * t.width * t.dy
            xi = np.clip(np.rint(xs).astype(np.intp), 0, w - 1)
            yi = np.clip(np.rint(ys).astype(np.intp), 0, h - 1)
            off = np.flatnonzero(solid[yi, xi] == 0)
            if off.size == 0:
                return None
            ends.append(float(steps[off[0]]) + cfg.eroded_px)
        if max(ends) - min(ends) > cfg.face_agree * t.width:
            return None
        end = float(np.median(ends))
        if not reach[0] * t.width <= end <= reach[1] * t.width:
            return None
        out.append(end)
    return out[0], out[1]


def fitted_to_face(t: TileHypothesis, ends: tuple[float, float]) -> TileHypothesis:
    """`t` with its halves where its face's ends (`face_ends`) put them: each half's
    centre halfway between the divider and its end, the tile's width their mean."""
    ea, eb = ends
    shift = (eb - ea) / 4.0
    return replace(t, cx=t.cx + shift * t.nx, cy=t.cy + shift * t.ny, width=(ea + eb) / 2.0)
