"""Tiles laid as players lay them, at any angle: lines, T and L layouts, scattered.

Plain geometry in table millimetres, for scenes that make a detector's life hard:
tiles touching end to end, doubles crosswise in a line, a line meeting another at its
middle (T) or at its end (L), tiles turned any way and strewn about. Angles are in
degrees, clockwise on screen from the x axis (y points down). A tile's half `a` is the
one a line reaches first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.surface import SeenTile
from tablesim.errors import RenderError

__all__ = [
    "Layout",
    "Pair",
    "Rect",
    "corners",
    "ell",
    "line",
    "overlaps",
    "scattered",
    "tee",
    "tile_at",
]

Pair = tuple[int, int]
Point = tuple[float, float]
Rect = tuple[float, float, float, float]  # x0, y0, x1, y1
Points = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Layout:
    """Tiles laid out, and where the last line ends (its cursor: the point past its
    last tile on the line's axis)."""

    tiles: tuple[SeenTile, ...]
    end: Point


def _unit(angle_deg: float) -> Points:
    a = math.radians(angle_deg)
    return np.array([math.cos(a), math.sin(a)])


def tile_at(
    pair: Pair, centre: Point, angle_deg: float, tile_mm: tuple[float, float] = (48.0, 24.0)
) -> SeenTile:
    """Tile `pair` centred at `centre`, its long axis at `angle_deg` from half a to b."""
    u = _unit(angle_deg) * (tile_mm[0] / 4)
    c = np.array(centre)
    a, b = c - u, c + u
    return SeenTile(pair[0], pair[1], float(a[0]), float(a[1]), float(b[0]), float(b[1]))


def line(
    pairs: Sequence[Pair],
    start: Point,
    angle_deg: float,
    tile_mm: tuple[float, float] = (48.0, 24.0),
    *,
    gap_mm: float = 0.0,
    doubles_across: bool = True,
) -> Layout:
    """Tiles end to end from `start` along `angle_deg`, `gap_mm` apart (0: touching),
    the line's axis through their middles; a double lies across the line when
    `doubles_across` (its middle on the axis), else in line."""
    length, width = tile_mm
    d = _unit(angle_deg)
    at = np.array(start, dtype=np.float64)
    out = []
    for a, b in pairs:
        across = doubles_across and a == b
        extent = width if across else length
        centre = at + d * (extent / 2)
        turn = angle_deg + 90.0 if across else angle_deg
        out.append(tile_at((a, b), (float(centre[0]), float(centre[1])), turn, tile_mm))
        at = at + d * (extent + gap_mm)
    return Layout(tuple(out), (float(at[0]), float(at[1])))


def tee(
    bar: Sequence[Pair],
    stem: Sequence[Pair],
    start: Point,
    angle_deg: float,
    tile_mm: tuple[float, float] = (48.0, 24.0),
    *,
    gap_mm: float = 0.0,
) -> Layout:
    """A T: the `bar` line from `start` along `angle_deg`, and the `stem` line leaving
    its middle tile's side at a right angle (clockwise on screen), touching it."""
    if not bar:
        raise RenderError("a T needs a bar of one tile at least")
    top = line(bar, start, angle_deg, tile_mm, gap_mm=gap_mm)
    middle = top.tiles[len(bar) // 2]
    c = np.array(middle.centre)
    along = np.array([middle.xb - middle.xa, middle.yb - middle.ya])
    crosswise = abs(float(along @ _unit(angle_deg))) < 1e-6  # a double across the bar
    reach = tile_mm[0] / 2 if crosswise else tile_mm[1] / 2
    foot = c + _unit(angle_deg + 90.0) * (reach + gap_mm)
    down = line(stem, (float(foot[0]), float(foot[1])), angle_deg + 90.0, tile_mm, gap_mm=gap_mm)
    return Layout(top.tiles + down.tiles, down.end)


def ell(
    first: Sequence[Pair],
    second: Sequence[Pair],
    start: Point,
    angle_deg: float,
    tile_mm: tuple[float, float] = (48.0, 24.0),
    *,
    gap_mm: float = 0.0,
) -> Layout:
    """An L: the `first` line from `start` along `angle_deg`; the `second` turns a right
    angle (clockwise on screen) at its end, its first tile lying across the first
    line's end, flush with its outer side."""
    one = line(first, start, angle_deg, tile_mm, gap_mm=gap_mm, doubles_across=False)
    width = tile_mm[1]
    d, n = _unit(angle_deg), _unit(angle_deg + 90.0)
    corner = np.array(one.end) + d * (width / 2) - n * (width / 2)
    two = line(
        second,
        (float(corner[0]), float(corner[1])),
        angle_deg + 90.0,
        tile_mm,
        gap_mm=gap_mm,
        doubles_across=False,
    )
    return Layout(one.tiles + two.tiles, two.end)


def corners(tile: SeenTile, tile_mm: tuple[float, float] = (48.0, 24.0)) -> Points:
    """The four corners of a tile's rectangle in mm, (4, 2)."""
    a, b = np.array([tile.xa, tile.ya]), np.array([tile.xb, tile.yb])
    u = (b - a) / max(1e-9, float(np.linalg.norm(b - a)))
    v = np.array([-u[1], u[0]])
    c = (a + b) / 2
    hl, hw = tile_mm[0] / 2, tile_mm[1] / 2
    return np.array(
        [c + su * hl * u + sv * hw * v for su, sv in ((1, 1), (-1, 1), (-1, -1), (1, -1))]
    )


def overlaps(first: Points, second: Points, gap_mm: float = 0.0) -> bool:
    """Whether two convex outlines (n, 2) come closer than `gap_mm` along any of their
    edges' normals (separating axes; 0: they touch or overlap)."""
    for poly in (first, second):
        edges = np.roll(poly, -1, axis=0) - poly
        for ex, ey in edges:
            axis = np.array([-ey, ex]) / max(1e-9, math.hypot(ex, ey))
            p, q = first @ axis, second @ axis
            if p.max() + gap_mm <= q.min() or q.max() + gap_mm <= p.min():
                return False
    return True


def scattered(
    pairs: Sequence[Pair],
    area: Rect,
    rng: np.random.Generator,
    tile_mm: tuple[float, float] = (48.0, 24.0),
    *,
    gap_mm: float = 4.0,
    taken: Sequence[SeenTile] = (),
    tries: int = 60,
) -> tuple[SeenTile, ...]:
    """`pairs` strewn over `area` at random angles, `gap_mm` clear of each other and of
    `taken`; a tile that finds no place in `tries` throws is left out."""
    x0, y0, x1, y1 = area
    margin = tile_mm[0] / 2
    reach = math.hypot(*tile_mm) + gap_mm  # centres farther apart never meet
    placed: list[SeenTile] = []
    outlines = [corners(t, tile_mm) for t in taken]
    for pair in pairs:
        for _ in range(tries):
            if x1 - x0 < 2 * margin or y1 - y0 < 2 * margin:
                break
            centre = (float(rng.uniform(x0 + margin, x1 - margin)),
                      float(rng.uniform(y0 + margin, y1 - margin)))  # fmt: skip
            tile = tile_at(pair, centre, float(rng.uniform(0.0, 360.0)), tile_mm)
            box = corners(tile, tile_mm)
            near = (o for o in outlines if math.dist(o.mean(axis=0), centre) < reach)
            if not any(overlaps(box, other, gap_mm) for other in near):
                placed.append(tile)
                outlines.append(box)
                break
    return tuple(placed)
