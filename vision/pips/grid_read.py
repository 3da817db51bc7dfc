"""Reading every tile of a known size in a window, by the pips on its halves' grids.

`read_grid` runs the grid reader (`grid`) over one window of a tone image (tiles
bright, marks dark) whose tiles are `length` x `width` pixels: pips found, tiles
proposed over them, and the pips explained exactly, each by one tile, the tiles not
overlapping: every way of doing so is looked for (`GridSettings.covers` at most), and
only the tiles in all of them are read. A group's tiles stand only with no mark as
dark as the pips beside them that is neither on a tile nor a pip (a row read a half
off explains every pip it saw when one pip of the row was not seen). A divider-like
line on no tile (a tile without pips) is returned too. The camera path runs it on a
window warped to the table (`vision.camera_path.known_size`), the detector on its own
search image at the frame's measured width.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.pips.grid import GridLooks, GridTile, overlaps, propose
from vision.pips.settings import GRID, GridSettings

FloatArray = NDArray[np.float64]
U8 = NDArray[np.uint8]
Halves = tuple[FloatArray, FloatArray]  # a tile's half centres a, b


@dataclass(frozen=True, slots=True)
class GridReading:
    """What the grid reader read in a window (window pixels): the tiles, the pips on
    no tile read (`left`), those on no tile known before (`free`), and the centres
    of divider-like lines on no tile (`lines`)."""

    tiles: list[GridTile]
    left: FloatArray
    free: FloatArray
    lines: FloatArray


def _none() -> FloatArray:
    return np.zeros((0, 2))


def read_grid(
    grey: U8,
    length: float,
    width: float,
    known: Sequence[Halves],
    cfg: GridSettings = GRID,
    margin: float = 0.5,
    max_free: int = 0,
) -> GridReading:
    """The tiles of `length` x `width` px read in `grey` (tiles bright) beside the
    tiles `known` already (their half centres, window px), whose pips are not free.
    Tiles reaching within `margin` widths of the window's edge are not read (what
    lies beyond it was not looked at). With `max_free`, a window with more free pips
    than that is read no further (a texture's specks, not a few tiles' pips)."""
    looks = GridLooks(grey, width, cfg)
    pips = looks.pips(cfg.texture_peaks * max_free)
    free = [i for i in range(len(pips)) if not any(_holds(r, pips[i], width, 0.05) for r in known)]
    if not free or 0 < max_free < len(free):
        return GridReading([], pips[free], pips[free], _none())
    cands = propose(pips, free, _axes(known), length, width, looks, known)
    solved: list[tuple[frozenset[int], list[GridTile]]] = []
    for group in _groups(free, cands):
        common = _common(group, [c for c in cands if c.covers <= group], cfg)
        if common:
            solved.append((group, common))
    # A group's tiles stand only with no unexplained mark beside them (other groups'
    # tiles explain theirs); dropping one group may leave marks beside another.
    while solved:
        everyone = [t for _, ts in solved for t in ts]
        bad = [
            i
            for i, (_, ts) in enumerate(solved)
            if not _unhidden(looks, pips, ts, everyone, known, width, cfg)
        ]
        if not bad:
            break
        solved = [g for i, g in enumerate(solved) if i not in bad]
    edge = margin * width
    size = np.array(grey.shape[::-1], dtype=np.float64)
    tiles: list[GridTile] = []
    for _, common in solved:
        ends = np.array([p for t in common for p in (t.a, t.b)])
        if np.all((ends >= edge) & (ends <= size - edge)):
            tiles += common
    held: set[int] = set()
    for t in tiles:
        held |= t.covers
    left = [i for i in free if i not in held]
    # A divider-like line on no tile is a tile not read (a double blank has no pip to
    # be proposed from).
    lines = _loose_lines(looks, [*known, *((t.a, t.b) for t in tiles)], width, cfg)
    return GridReading(tiles, pips[left], pips[free], lines)


def _loose_lines(
    looks: GridLooks,
    on: Sequence[Halves],
    width: float,
    cfg: GridSettings,
) -> FloatArray:
    """The centres of straight dark marks of a divider's length and thinness that lie
    on no tile (grown by a tenth of a width)."""
    level = cfg.min_peak
    if len(looks.pip_values):
        level = max(cfg.min_peak, cfg.line_share * float(np.median(looks.pip_values)))
    marks = (looks.hat >= level).astype(np.uint8)
    for r in on:
        cv2.fillConvexPoly(marks, np.rint(_grown(r, width, 0.1 * width)).astype(np.int32), 0)
    n, labels, stats, centres = cv2.connectedComponentsWithStats(marks)
    out = []
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] < 0.1 * width:
            continue
        x0, y0, w, h = stats[i, :4]
        if max(w, h) < cfg.line_length[0] * width or max(w, h) > cfg.line_length[1] * width * 1.5:
            continue
        ys, xs = np.nonzero(labels[y0 : y0 + h, x0 : x0 + w] == i)
        cov = np.cov(np.stack([xs, ys]).astype(np.float64))
        small, big = np.linalg.eigvalsh(cov)
        length, thick = 4 * math.sqrt(max(big, 0.0)), 4 * math.sqrt(max(small, 0.0))
        if (
            cfg.line_length[0] * width <= length <= cfg.line_length[1] * width
            and thick <= 0.25 * width
        ):
            out.append(centres[i])
    return np.array(out, dtype=np.float64).reshape(-1, 2)


def _unhidden(
    looks: GridLooks,
    pips: FloatArray,
    tiles: list[GridTile],
    others: list[GridTile],
    read: Sequence[Halves],
    width: float,
    cfg: GridSettings,
) -> bool:
    """Whether no mark lies beside the tiles read that is neither on a tile nor a pip.

    Marks as dark as pips that the pip test did not take (merged pips, a pip touching
    a line) lying within a tile width of the tiles read here, outside every tile,
    mean the pips around them were not all seen: a row of tiles read a half off (each
    "tile" made of two neighbours' halves) explains every pip it saw.
    """
    hat = looks.hat
    level = cfg.min_peak
    if len(looks.pip_values):
        level = max(cfg.min_peak, cfg.mark_share * float(np.median(looks.pip_values)))
    marks = (hat >= level).astype(np.uint8)
    covered = np.zeros_like(marks)
    near = np.zeros_like(marks)
    for r in [*read, *((t.a, t.b) for t in others)]:
        cv2.fillConvexPoly(covered, np.rint(_grown(r, width, 0.2 * width)).astype(np.int32), 1)
    for p in np.rint(pips).astype(int):
        cv2.circle(covered, (int(p[0]), int(p[1])), max(1, round(0.15 * width)), 1, -1)
    for t in tiles:
        cv2.fillConvexPoly(near, np.rint(_grown((t.a, t.b), width, width)).astype(np.int32), 1)
    loose = marks & (1 - covered) & near
    _, _, stats, _ = cv2.connectedComponentsWithStats(loose)
    return not bool(np.any(stats[1:, cv2.CC_STAT_AREA] >= (cfg.pip_area * width) ** 2))


def _grown(r: Halves, width: float, grow: float) -> FloatArray:
    """The corners of the tile with half centres r, grown by `grow` pixels all round."""
    a, b = r
    c = (a + b) / 2
    n = float(np.linalg.norm(b - a))
    u = (b - a) / n
    v = np.array([-u[1], u[0]])
    hu, hv = n + grow, width / 2 + grow
    return np.array([c + s * hu * u + t * hv * v for s, t in ((-1, -1), (1, -1), (1, 1), (-1, 1))])


def _holds(r: Halves, p: FloatArray, width: float, grow: float) -> bool:
    """Whether point p lies on the tile with half centres r (grown by `grow` widths)."""
    a, b = r
    c = (a + b) / 2
    u = b - a
    half = float(np.linalg.norm(u))
    if half == 0:
        return False
    u = u / half
    d = p - c
    along = abs(float(d @ u))
    across = abs(float(d[0] * -u[1] + d[1] * u[0]))
    return along <= half + grow * width and across <= (0.5 + grow) * width


def _axes(read: Sequence[Halves]) -> list[float]:
    """Tile directions to look at (radians, modulo a quarter turn): the table's, and
    those of the tiles read."""
    out = [0.0]
    for a, b in read:
        d = b - a
        ang = math.atan2(float(d[1]), float(d[0])) % (math.pi / 2)
        if all(min(abs(ang - o), math.pi / 2 - abs(ang - o)) > math.radians(4) for o in out):
            out.append(ang)
    return out


def _groups(free: list[int], cands: list[GridTile]) -> list[frozenset[int]]:
    """The free pips in groups joined by the tiles proposed over them."""
    parent = {i: i for i in free}

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for c in cands:
        items = sorted(c.covers)
        for j in items[1:]:
            parent[root(j)] = root(items[0])
    out: dict[int, set[int]] = {}
    for i in free:
        out.setdefault(root(i), set()).add(i)
    return [frozenset(g) for g in out.values()]


def _common(
    group: frozenset[int], cands: list[GridTile], cfg: GridSettings
) -> list[GridTile] | None:
    """The tiles in every exact cover of the group's pips, or None when there is no
    cover (or too many to look at)."""
    covers: list[list[GridTile]] = []
    by_pip: dict[int, list[GridTile]] = {i: [] for i in group}
    for c in cands:
        for i in c.covers:
            by_pip[i].append(c)

    def search(left: frozenset[int], chosen: list[GridTile]) -> bool:
        if len(covers) >= cfg.covers:
            return False
        if not left:
            covers.append(list(chosen))
            return True
        pick = min(left, key=lambda i: len(by_pip[i]))
        for c in by_pip[pick]:
            if not c.covers <= left:
                continue
            if any(overlaps((c.a, c.b), (o.a, o.b), _width(c), cfg) for o in chosen):
                continue
            chosen.append(c)
            search(left - c.covers, chosen)
            chosen.pop()
        return True

    search(group, [])
    if not covers or len(covers) >= cfg.covers:
        return None
    first = covers[0]
    return [t for t in first if all(any(_same(o, t) for o in cov) for cov in covers[1:])]


def _same(s: GridTile, t: GridTile) -> bool:
    """The same reading at the same place (a quarter of a tile width), either way round."""
    tol = 0.25 * _width(t)
    if s.pips == t.pips and max(np.linalg.norm(s.a - t.a), np.linalg.norm(s.b - t.b)) <= tol:
        return True
    return bool(
        s.pips == t.pips[::-1] and max(np.linalg.norm(s.a - t.b), np.linalg.norm(s.b - t.a)) <= tol
    )


def _width(t: GridTile) -> float:
    return float(np.linalg.norm(t.b - t.a))
