"""Filled enrolment mats, rendered once per test session (each frame costs seconds)."""

from __future__ import annotations

from functools import cache

from engine.tiles import DominoSet, Tile
from mat import mat_for
from tablesim.render import RenderStyle, Surface, TileStyle
from tablesim.render.mat import MatScene, filled_mat, render_mat
from tablesim.render.scene import Rendered

PINK_ON_WOOD = RenderStyle(TileStyle.PINK_YELLOW, Surface.WOOD)
FAULTS = {
    "empty": (Tile(3, 2),),
    "swapped": ((Tile(6, 6), Tile(5, 4)),),
    "face_down": (Tile(1, 0),),
}


@cache
def filled(
    style: RenderStyle = PINK_ON_WOOD,
    domino_set: DominoSet = DominoSet.DOUBLE_SIX,
    paper: str = "a4",
    *,
    faults: bool = False,
    seed: int = 2,
) -> tuple[MatScene, Rendered]:
    """A mat of `domino_set` on `paper`, every tile in its slot (either end up), or with
    `FAULTS`: 3-2 missing, 6-6 and 5-4 swapped, 1-0 face down."""
    mat = mat_for(domino_set, paper)
    kind = dict(FAULTS) if faults else {}
    scene = filled_mat(mat, style.tile_set.size_mm, seed=seed, **kind)  # type: ignore[arg-type]
    return scene, render_mat(scene, style, seed=seed)
