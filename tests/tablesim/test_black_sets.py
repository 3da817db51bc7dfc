"""Black sets as the renderer draws them: black wood with white pips, ringed halves
(an empty raised ring at each of the 9 grid places, the value's pips filled white),
and the things beside them on the table: round black stones and a cup."""

from __future__ import annotations

import numpy as np
import pytest

from engine.surface import SeenTile
from tablesim.errors import RenderError
from tablesim.render import Camera, RenderStyle, Scene, Surface, TileStyle, render_frame
from tablesim.render.pip_layouts import GRID
from tablesim.render.props import Cup, Stone

# a small table seen close (a large one at 6 px/mm is a canvas of 35 megapixels)
CAMERA = Camera.over((80.0, 60.0), 6.0, (640, 480), fov_deg=8.0)


def _scene(tiles: tuple[SeenTile, ...], props: tuple[Stone | Cup, ...] = ()) -> Scene:
    return Scene(tiles=tiles, size_mm=(160.0, 120.0), markers=False, margin_mm=30.0, props=props)


def _grey(image: np.ndarray, p: tuple[float, float]) -> float:
    x, y = round(p[0]), round(p[1])
    return float(image[y - 1 : y + 2, x - 1 : x + 2].mean())


def test_a_ringed_half_shows_nine_rings_and_only_its_pips_filled() -> None:
    tile = SeenTile(1, 0, 68.0, 60.0, 92.0, 60.0)
    style = RenderStyle.clean(TileStyle.BLACK_RINGED)
    frame = render_frame(_scene((tile,)), CAMERA, style, seed=2)
    truth = frame.truth.tiles[0]
    image = frame.image
    face = _grey(image, truth.a_px)  # the 1's pip, filled white
    assert face > 180
    # each grid place of the 0 half: an empty ring (lighter rim, dark middle)
    px_per_mm = CAMERA.px_per_mm((92.0, 60.0))
    half = 12.0 * px_per_mm
    ring_r = 0.22 * half
    cx, cy = truth.b_px
    for gu in (-GRID, 0.0, GRID):
        for gv in (-GRID, 0.0, GRID):
            x, y = cx + gu * half, cy + gv * half
            middle = _grey(image, (x, y))
            rim = max(_grey(image, (x + dx * ring_r, y + dy * ring_r)) for dx, dy in _AROUND)
            assert middle < 60, (gu, gv, middle)  # not filled: no pip
            assert rim > middle + 25, (gu, gv, rim, middle)


_AROUND = ((1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0))


@pytest.mark.parametrize("style", [TileStyle.BLACK_WOOD, TileStyle.BLACK_RINGED])
def test_black_sets_have_white_pips_on_black_faces(style: TileStyle) -> None:
    tile = SeenTile(6, 5, 68.0, 60.0, 92.0, 60.0)
    frame = render_frame(_scene((tile,)), CAMERA, RenderStyle.clean(style), seed=1)
    truth = frame.truth.tiles[0]
    pips = [_grey(frame.image, p) for p in (*truth.pips_a_px, *truth.pips_b_px)]
    assert len(pips) == 11 and min(pips) > 170
    corner = np.mean(np.array(truth.corners_px[:2]), axis=0)
    inside = (np.array(truth.a_px) * 0.8 + corner * 0.2).tolist()
    assert _grey(frame.image, (inside[0], inside[1])) < 70


def test_stones_and_a_cup_are_drawn_and_leave_the_tiles_as_they_were() -> None:
    tiles = (SeenTile(3, 4, 68.0, 60.0, 92.0, 60.0),)
    props = (Stone(115.0, 60.0), Stone(80.0, 84.0), Cup(50.0, 40.0, radius_mm=12.0, handle_deg=0.0))
    style = RenderStyle(tiles=TileStyle.BLACK_WOOD, surface=Surface.WOOD)
    a = render_frame(_scene(tiles), CAMERA, style, seed=4)
    b = render_frame(_scene(tiles, props), CAMERA, style, seed=4)
    assert a.truth.tiles == b.truth.tiles
    for stone in props[:2]:
        at = CAMERA.mm_to_px([stone.x, stone.y])
        assert _grey(b.image, (at[0], at[1])) < _grey(a.image, (at[0], at[1])) - 20
    # the cup stands above the table: seen from the camera over the frame's middle,
    # its white rim and side lie farther out than its base
    white = b.image.min(axis=2).astype(int) > a.image.max(axis=2).astype(int) + 40
    ys, xs = np.nonzero(white)
    base = CAMERA.mm_to_px([50.0, 40.0])
    r_px = 12.0 * CAMERA.px_per_mm((50.0, 40.0))
    assert xs.size > 0
    assert xs.min() < base[0] - r_px - 10 and ys.min() < base[1] - r_px - 10


def test_props_refuse_sizes_that_are_no_sizes() -> None:
    with pytest.raises(RenderError):
        Stone(0.0, 0.0, radius_mm=0.0)
    with pytest.raises(RenderError):
        Cup(0.0, 0.0, height_mm=-1.0)
