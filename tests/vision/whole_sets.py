"""A whole set lying face up, rendered, for enrolment's tests: every tile of a
double-six, double-nine or double-twelve set in rows on the table, turned this way
and that, with the corner markers in view (a calibrated camera's frame)."""

from __future__ import annotations

import math
import random

from engine.surface import SeenTile
from engine.tiles import DominoSet, Tile
from tablesim.render import Camera, RenderStyle, Scene, render_frame
from tablesim.render.scene import Rendered

COLUMNS = {28: 7, 55: 11, 91: 13}


def laid_out(
    tiles: list[Tile],
    size_mm: tuple[float, float] = (900.0, 600.0),
    seed: int = 0,
    tile_mm: tuple[float, float] = (48.0, 24.0),
) -> tuple[SeenTile, ...]:
    """`tiles` (of `tile_mm`, length and width) shuffled into rows over the play area,
    each turned by a multiple of 90 degrees give or take 10, half `a` either end."""
    rng = random.Random(seed)
    order = list(tiles)
    rng.shuffle(order)
    cols = COLUMNS.get(len(order), 13)
    rows = max(1, math.ceil(len(order) / cols))
    dx, dy = size_mm[0] / cols, size_mm[1] / rows
    out = []
    for k, tile in enumerate(order):
        r, c = divmod(k, cols)
        cx, cy = dx * (c + 0.5), dy * (r + 0.5)
        turn = math.radians(90 * rng.randrange(2) + rng.uniform(-10, 10))
        half = tile_mm[0] / 4  # from the tile's centre to a half's
        ux, uy = half * math.cos(turn), half * math.sin(turn)
        a, b = (tile.high, tile.low) if rng.random() < 0.5 else (tile.low, tile.high)
        out.append(SeenTile(a, b, cx - ux, cy - uy, cx + ux, cy + uy))
    return tuple(out)


def set_scene(
    domino_set: DominoSet,
    *,
    leave_out: tuple[Tile, ...] = (),
    seed: int = 0,
    tile_mm: tuple[float, float] = (48.0, 24.0),
) -> Scene:
    tiles = [t for t in domino_set.tiles() if t not in leave_out]
    return Scene(tiles=laid_out(tiles, seed=seed, tile_mm=tile_mm), tile_mm=tile_mm)


def render_set(
    domino_set: DominoSet,
    style: RenderStyle,
    *,
    leave_out: tuple[Tile, ...] = (),
    seed: int = 0,
    resolution: tuple[int, int] = (1280, 960),
) -> Rendered:
    """A frame of the whole set (but `leave_out`) as an overhead camera sees it, its
    tiles of the size of the style's set."""
    tile_mm = style.tile_set.size_mm
    scene = set_scene(domino_set, leave_out=leave_out, seed=seed, tile_mm=tile_mm)
    return render_frame(scene, Camera.overhead(resolution=resolution), style, seed=seed)
