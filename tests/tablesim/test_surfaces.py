"""The tables a detector must not take for tiles: each surface has the look it names."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from engine.surface import SeenTile
from tablesim.render import RenderStyle, Scene, render_frame
from tablesim.render.styles import Surface, TileStyle
from tablesim.render.textures import surface_texture

SCALE = 3.0  # px per mm
SHAPE = (360, 480)  # 120 x 160 mm


def _texture(surface: Surface, seed: int = 1) -> npt.NDArray[np.float64]:
    return surface_texture(surface, SHAPE, SCALE, seed).astype(np.float64)


def _grey(image: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    return np.asarray(image @ np.array([0.114, 0.587, 0.299]), dtype=np.float64)


@pytest.mark.parametrize("surface", list(Surface))
def test_each_surface_is_fixed_by_its_seed(surface: Surface) -> None:
    first = surface_texture(surface, SHAPE, SCALE, 4)
    assert first.shape == (*SHAPE, 3) and first.dtype == np.uint8
    assert not first.flags.writeable  # cached: callers copy it
    assert np.array_equal(first, surface_texture(surface, SHAPE, SCALE, 4))
    assert not np.array_equal(first, surface_texture(surface, SHAPE, SCALE, 5))


def test_white_paper_is_nearly_flat_white() -> None:
    grey = _grey(_texture(Surface.WHITE_PAPER))
    assert grey.mean() > 225
    assert grey.std() < 4


def test_dark_cloth_is_dark_and_woven() -> None:
    image = _texture(Surface.DARK_CLOTH)
    b, g, r = (float(c) for c in image.reshape(-1, 3).mean(axis=0))
    assert max(b, g, r) < 70 and b > r  # navy-black
    grey = _grey(image)
    assert np.abs(np.diff(grey, axis=1)).mean() > 2  # the weave, pixel to pixel


def test_leather_is_brown_with_dark_creases() -> None:
    image = _texture(Surface.LEATHER)
    b, g, r = (float(c) for c in image.reshape(-1, 3).mean(axis=0))
    assert r > g > b
    grey = _grey(image)
    creases = grey < 0.8 * np.median(grey)
    assert 0.002 < creases.mean() < 0.2


def test_checked_cloth_repeats_every_16_mm_both_ways() -> None:
    grey = _grey(_texture(Surface.CHECKED_CLOTH))
    period = round(16 * SCALE)
    rows, cols = grey.mean(axis=1), grey.mean(axis=0)
    for profile in (rows, cols):
        same = np.corrcoef(profile[:-period], profile[period:])[0, 1]
        opposite = np.corrcoef(profile[: -period // 2], profile[period // 2 :])[0, 1]
        assert same > 0.9 and opposite < -0.5
    image = _texture(Surface.CHECKED_CLOTH)
    red = (image[..., 2] > 150) & (image[..., 0] < 100)
    white = image.min(axis=2) > 200
    assert 0.15 < red.mean() < 0.35 and 0.15 < white.mean() < 0.35


@pytest.mark.parametrize("surface", [Surface.WOOD, Surface.LIGHT_WOOD])
def test_wood_grain_runs_along_the_table(surface: Surface) -> None:
    grey = _grey(_texture(surface))
    along = np.abs(np.diff(grey, axis=1)).mean()
    across = np.abs(np.diff(grey, axis=0)).mean()
    assert across > along


def test_light_wood_is_paler_and_finer_than_planks() -> None:
    planks, desk = _grey(_texture(Surface.WOOD)), _grey(_texture(Surface.LIGHT_WOOD))
    assert desk.mean() > planks.mean() + 30
    assert desk.min() > 0.5 * desk.mean()  # no dark joints between planks
    assert planks.min() < 0.5 * planks.mean()


def test_a_tint_changes_the_table_and_not_the_tiles() -> None:
    scene = Scene((SeenTile(3, 4, 140, 100, 164, 100),), size_mm=(300, 200), margin_mm=40)
    plain = RenderStyle.clean(TileStyle.IVORY)
    tinted = RenderStyle(
        tiles=TileStyle.IVORY, shadows=False, blur_px=0, noise=0, surface_tint=(1.0, 0.6, 1.3)
    )
    a, b = render_frame(scene, style=plain, seed=2), render_frame(scene, style=tinted, seed=2)
    x, y = (round(v) for v in a.truth.tiles[0].a_px)
    assert np.array_equal(a.image[y, x], b.image[y, x])  # the tile's face
    fx, fy = x, y + 60  # felt below the tile
    g0, g1 = int(a.image[fy, fx][1]), int(b.image[fy, fx][1])
    assert g1 < 0.7 * g0
