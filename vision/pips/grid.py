"""Reading tiles of a known size by their pips on the grid of each half.

The camera path knows a tile's size in pixels on a calibrated frame
(`vision.camera_path.known_size`). Where the detector found no divider (a glare spot
fades it to a few grey levels) the pips still plainly show, and a person reads such a
tile at once by its pips sitting in the 3x3 grid of each square half. This module is
that second pip reader, beside the detector's (`counting`), sharing its layouts
(`layouts`):

- `GridLooks`: the marks of a window warped to the table plane: pips are the local
  peaks of a black-hat (a disc of `GridSettings.kernel` tile widths) that stand alone
  (lower all round at a pip's radius; a divider line or a gap between tiles is not)
  and are enclosed by face;
- `propose`: every tile of the known size that holds some free pip, fitted to its pips
  (every standard layout is centred on its half), each half a standard layout
  (`layouts.grid_layout`), the empty grid places clearly fainter than the half's own
  pips, no other dark mark on the face, and a divider line across the middle.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.pips.layouts import grid_layout
from vision.pips.settings import GRID, GridSettings

FloatArray = NDArray[np.float64]
U8 = NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class GridTile:
    """A tile proposal in window pixels: half centres, the long axis (a to b), pips."""

    a: FloatArray
    b: FloatArray
    pips: tuple[int, int]
    covers: frozenset[int]  # indices of the pips it holds
    confidence: float

    @property
    def centre(self) -> FloatArray:
        return np.asarray((self.a + self.b) / 2, dtype=np.float64)


class GridLooks:
    """The window's marks: a black-hat on a disc of half a tile width."""

    def __init__(self, grey: U8, width: float, cfg: GridSettings = GRID) -> None:
        self.grey = grey
        self.width = width
        self.cfg = cfg
        k = max(3, round(self.cfg.kernel * width) | 1)
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        hat = cv2.morphologyEx(grey, cv2.MORPH_BLACKHAT, disc)
        sigma = max(0.6, 0.04 * width)
        self.pip_values: FloatArray = np.zeros(0)
        self.hat = np.asarray(cv2.GaussianBlur(hat.astype(np.float32), (0, 0), sigma), np.float32)

    def sample(self, pts: FloatArray) -> FloatArray:
        """The black-hat at points (bilinear), 0 outside the window."""
        h, w = self.hat.shape
        x = np.clip(pts[..., 0], 0, w - 1.001)
        y = np.clip(pts[..., 1], 0, h - 1.001)
        x0 = np.floor(x).astype(np.intp)
        y0 = np.floor(y).astype(np.intp)
        fx = x - x0
        fy = y - y0
        v = self.hat
        out = (
            v[y0, x0] * (1 - fx) * (1 - fy)
            + v[y0, x0 + 1] * fx * (1 - fy)
            + v[y0 + 1, x0] * (1 - fx) * fy
            + v[y0 + 1, x0 + 1] * fx * fy
        )
        return np.asarray(out, dtype=np.float64)

    def grey_at(self, pts: FloatArray) -> FloatArray:
        h, w = self.grey.shape
        x = np.clip(np.rint(pts[..., 0]).astype(np.intp), 0, w - 1)
        y = np.clip(np.rint(pts[..., 1]).astype(np.intp), 0, h - 1)
        return np.asarray(self.grey[y, x], dtype=np.float64)

    def pips(self, most: int = 0) -> FloatArray:
        """Pip centres: local peaks of the black-hat lower all round at a pip's radius.
        With `most`, more such peaks than that are a texture's, returned as they are
        (not weighed against their neighbours: that costs their number squared)."""
        w = self.width
        hat = self.hat
        k = max(3, round(0.26 * w) | 1)
        peaks = (hat >= cv2.dilate(hat, np.ones((k, k), np.uint8))) & (hat >= self.cfg.min_peak)
        ys, xs = np.nonzero(peaks)
        if len(xs) == 0:
            return np.zeros((0, 2))
        pts = np.stack([xs, ys], axis=1).astype(np.float64)
        value = hat[ys, xs].astype(np.float64)
        angles = np.linspace(0, 2 * math.pi, 12, endpoint=False)
        ring = self.cfg.ring * w * np.stack([np.cos(angles), np.sin(angles)], axis=1)
        around = self.sample(pts[:, None, :] + ring[None, :, :]) / value[:, None]
        alone = (around.max(axis=1) <= self.cfg.ring_max) & (
            around.mean(axis=1) <= self.cfg.ring_mean
        )
        # ... and enclosed by face: a concave corner of tile material against the
        # table fills in the black-hat too, but the table lies beyond it on one side.
        angles = np.linspace(0, 2 * math.pi, 16, endpoint=False)
        rim = self.cfg.rim * w * np.stack([np.cos(angles), np.sin(angles)], axis=1)
        face = self.grey_at(pts[:, None, :] + rim[None, :, :])
        lit = face >= (self.grey_at(pts) + 0.5 * value)[:, None]
        alone &= _longest_run(~lit) <= self.cfg.rim_dark
        pts, value = pts[alone], value[alone]
        if len(pts) == 0:
            return np.zeros((0, 2))
        if 0 < most < len(pts):
            self.pip_values = value
            return np.asarray(pts, dtype=np.float64)
        # Each pip at least a share of the strongest pips within two tile widths.
        d = np.linalg.norm(pts[:, None, :] - pts[None, :, :], axis=2)
        strong = np.array([np.percentile(value[d[i] <= 2 * w], 75) for i in range(len(pts))])
        self.pip_values = value[value >= self.cfg.peak_share * strong]
        return np.asarray(pts[value >= self.cfg.peak_share * strong], dtype=np.float64)


def _longest_run(flags: NDArray[np.bool_]) -> NDArray[np.intp]:
    """The longest run of True, going round, in each row."""
    run = np.zeros(flags.shape[0], dtype=np.intp)
    best = np.zeros(flags.shape[0], dtype=np.intp)
    for k in range(2 * flags.shape[1]):
        col = flags[:, k % flags.shape[1]]
        run = np.where(col, run + 1, 0)
        best = np.maximum(best, run)
    return np.minimum(best, flags.shape[1])


def propose(
    pips: FloatArray,
    free: list[int],
    axes: list[float],
    length: float,
    width: float,
    looks: GridLooks,
    read: Sequence[tuple[FloatArray, FloatArray]],
) -> list[GridTile]:
    """Every tile of the known size that holds some free pip and reads as a domino."""
    cfg = looks.cfg
    out: list[GridTile] = []
    tried: set[tuple[int, ...]] = set()
    step = cfg.grid * width
    half = length / 2
    free_set = frozenset(free)
    grid = np.array([(gi, gj) for gi in (-1, 0, 1) for gj in (-1, 0, 1)], dtype=np.float64)
    for ang in axes:
        u = np.array([math.cos(ang), math.sin(ang)])
        v = np.array([-u[1], u[0]])
        frame = np.stack([u, v])
        # A half centre holding pip i at each grid place; a true one is the centroid of
        # the pips on its square (every standard layout is centred).
        seeds = (pips[free][:, None, :] - step * (grid @ frame)[None, :, :]).reshape(-1, 2)
        rel = (pips[None, :, :] - seeds[:, None, :]) @ frame.T
        on = np.all(np.abs(rel) <= 0.5 * width, axis=2)
        count = on.sum(axis=1)
        mean = (rel * on[:, :, None]).sum(axis=1) / np.maximum(count, 1)[:, None]
        good = (count > 0) & (np.hypot(mean[:, 0], mean[:, 1]) <= cfg.grid_tol * step)
        centres = seeds[good] + mean[good] @ frame
        keys = {tuple(np.rint(c / (0.1 * width)).astype(int).tolist()): c for c in centres}
        for c in keys.values():
            for w in (u, v, -u, -v):
                t = _fit(pips, c, c + half * w, width, looks, free_set, tried)
                if t is None or any(overlaps((t.a, t.b), r, width, cfg) for r in read):
                    continue
                out.append(t)
    return out


@dataclass(frozen=True, slots=True)
class _Fitted:
    """A tile fitted to its pips: half centres, axes, the pips of each half, all held."""

    a: FloatArray
    b: FloatArray
    u: FloatArray
    v: FloatArray
    sides: tuple[NDArray[np.intp], NDArray[np.intp]]
    held: NDArray[np.intp]


def _refine(
    pips: FloatArray,
    a: FloatArray,
    b: FloatArray,
    width: float,
    free: frozenset[int],
    cfg: GridSettings,
) -> _Fitted | None:
    """The tile near half centres a, b moved onto its pips (every standard layout is
    centred on its half), or None when it holds a pip that is not free, no pip, or
    halves not a half length apart."""
    half = float(np.linalg.norm(b - a))
    u = (b - a) / half
    for rnd in range(4):
        v = np.array([-u[1], u[0]])
        d = pips - (a + b) / 2
        along = d @ u
        near = (np.abs(along) <= half + cfg.edge * width) & (
            np.abs(d @ v) <= (0.5 + cfg.edge) * width
        )
        held = np.nonzero(near)[0]
        if not set(held.tolist()) <= free:
            return None
        # A mark on the divider line is the divider's own (a faded divider breaks up
        # into blobs) or a centre pin: held by the tile, counted in no half.
        idx = held[np.abs(along[held]) >= cfg.divider_clear * width]
        if len(idx) == 0:
            return None
        sides = (idx[along[idx] < 0], idx[along[idx] > 0])
        if rnd == 3:
            return _Fitted(a, b, u, v, sides, held)
        if len(sides[0]) and len(sides[1]):
            na, nb = pips[sides[0]].mean(axis=0), pips[sides[1]].mean(axis=0)
            gap = float(np.linalg.norm(nb - na))
            if abs(gap - half) > 0.12 * width:
                return None
            u = (nb - na) / gap
            c = (na + nb) / 2
            a, b = c - u * half / 2, c + u * half / 2
        elif len(sides[0]):
            a = pips[sides[0]].mean(axis=0)
            b = a + u * half
        else:
            b = pips[sides[1]].mean(axis=0)
            a = b - u * half
    return None


def _fit(
    pips: FloatArray,
    a: FloatArray,
    b: FloatArray,
    width: float,
    looks: GridLooks,
    free: frozenset[int],
    tried: set[tuple[int, ...]],
) -> GridTile | None:
    """The tile with half centres near a, b fitted to its pips, if it reads as a domino
    and was not `tried` already."""
    cfg = looks.cfg
    fitted = _refine(pips, a, b, width, free, cfg)
    if fitted is None:
        return None
    a, b, u, v, sides = fitted.a, fitted.b, fitted.u, fitted.v, fitted.sides
    key = tuple(np.rint(np.concatenate([a, b]) / (0.1 * width)).astype(int).tolist())
    if key in tried:
        return None
    tried.add(key)
    counts: list[int] = []
    lows: list[float] = []
    empties: list[list[FloatArray]] = []
    for centre, side in zip((a, b), sides, strict=True):
        q = pips[side] - centre
        grid = grid_layout(q @ u, q @ v, width, cfg)
        if grid is None:
            return None
        n, step, places = grid
        counts.append(n)
        lows.append(float(looks.sample(pips[side]).min()) if n else 0.0)
        empties.append(
            [
                centre + step * (gi * u + gj * v)
                for gi in (-1, 0, 1)
                for gj in (-1, 0, 1)
                if (gi, gj) not in places
            ]
        )
    if not any(counts):
        return None
    weakest = min(low for low in lows if low > 0)
    # A pip missed would read a 5 as a 4: each half's empty grid places must be
    # clearly fainter than its own pips (a coloured set's pips differ by number),
    # a blank half's than the other half's.
    for low, spots in zip(lows, empties, strict=True):
        ref = low if low > 0 else weakest
        if spots and float(looks.sample(np.array(spots)).max()) > max(
            cfg.faint * ref, cfg.faint_floor
        ):
            return None
    most = [max(cfg.faint * (low if low > 0 else weakest), cfg.faint_floor) for low in lows]
    if not _clean(looks, fitted, pips, width, (most[0], most[1])):
        return None
    if not _divider(looks, (a + b) / 2, u, v, width, weakest):
        return None
    covers = frozenset(int(i) for i in fitted.held.tolist())
    return GridTile(np.asarray(a), np.asarray(b), (counts[0], counts[1]), covers, cfg.confidence)


def _clean(
    looks: GridLooks, fitted: _Fitted, pips: FloatArray, width: float, most: tuple[float, float]
) -> bool:
    """Whether the face shows no mark but the pips and the divider (in each half, none
    darker than `most` of that half): a smudge, a coin or lettering off the grid is
    no part of any domino (the faint look only sees the grid)."""
    cfg = looks.cfg
    c = (fitted.a + fitted.b) / 2
    half = float(np.linalg.norm(fitted.b - fitted.a))
    inner = cfg.rim_clear * width
    along = np.arange(-half + inner, half - inner, 0.08 * width)
    across = np.arange(-0.5 * width + inner, 0.5 * width - inner, 0.08 * width)
    ga, gc = np.meshgrid(along, across)
    keep = np.abs(ga) >= cfg.divider_clear * width
    ga, gc = ga[keep], gc[keep]
    pts = c + ga[:, None] * fitted.u + gc[:, None] * fitted.v
    held = pips[fitted.held]
    if len(held):
        gap = np.linalg.norm(pts[:, None, :] - held[None, :, :], axis=2).min(axis=1)
        pts, ga = pts[gap >= cfg.pip_clear * width], ga[gap >= cfg.pip_clear * width]
    if len(pts) == 0:
        return True
    limit = np.where(ga < 0, most[0], most[1])
    return bool(np.all(looks.sample(pts) <= limit))


def _divider(
    looks: GridLooks, c: FloatArray, u: FloatArray, v: FloatArray, width: float, pip: float
) -> bool:
    """Whether a line across the tile at c is a divider: darker in the black-hat than
    the face just beside it on both sides, and not darker in grey beside it than on
    it (a tile's end against a darker table is no divider). The face beside it is
    looked at between the divider and the nearest pips, across the middle of the tile
    where no pip lies."""
    line = (np.linspace(-0.3, 0.3, 13) * width)[:, None] * v[None, :]
    middle = (np.linspace(-0.15, 0.15, 7) * width)[:, None] * v[None, :]
    on = np.linspace(-0.06, 0.06, 5) * width
    beside = np.linspace(0.09, 0.17, 5) * width
    pts_on = c + on[:, None, None] * u + line[None, :, :]  # (5, 13, 2)
    pts_beside = c + np.concatenate([-beside, beside])[:, None, None] * u + middle[None, :, :]
    hat = float(np.median(looks.sample(pts_on), axis=1).max())
    grey = float(np.median(looks.grey_at(pts_on), axis=1).min())
    hats = np.median(looks.sample(pts_beside), axis=1).reshape(2, -1)
    greys = np.median(looks.grey_at(pts_beside), axis=1).reshape(2, -1)
    hat_beside = float(hats.min(axis=1).max())
    grey_beside = float(greys.max(axis=1).min())
    need = max(looks.cfg.divider_contrast, looks.cfg.divider_share * pip)
    return hat - hat_beside >= need and grey_beside >= grey


def overlaps(
    r1: tuple[FloatArray, FloatArray],
    r2: tuple[FloatArray, FloatArray],
    width: float,
    cfg: GridSettings = GRID,
) -> bool:
    """Whether the tiles with half centres r1 and r2, each shrunk to `cfg.overlap`,
    overlap."""
    return bool(_separation(r1, r2, width, cfg.overlap) < 0)


def _corners(r: tuple[FloatArray, FloatArray], width: float, shrink: float) -> FloatArray:
    a, b = r
    c = (a + b) / 2
    u = b - a
    n = float(np.linalg.norm(u))
    u = u / n
    v = np.array([-u[1], u[0]])
    hu = n * shrink
    hv = (width / 2) * shrink
    return np.array([c + s * hu * u + t * hv * v for s, t in ((-1, -1), (1, -1), (1, 1), (-1, 1))])


def _separation(
    r1: tuple[FloatArray, FloatArray],
    r2: tuple[FloatArray, FloatArray],
    width: float,
    shrink: float,
) -> float:
    """Positive when the two tiles (shrunk to `shrink`) are apart along some axis."""
    p1 = _corners(r1, width, shrink)
    p2 = _corners(r2, width, shrink)
    best = -1e9
    for poly in (p1, p2):
        for k in range(2):
            e = poly[k + 1] - poly[k]
            n = np.array([-e[1], e[0]]) / float(np.linalg.norm(e))
            s1, s2 = p1 @ n, p2 @ n
            best = max(best, float(max(s2.min() - s1.max(), s1.min() - s2.max())))
    return best
