"""The textured tables real photos showed the detector failing on (issue 26) have the
look they name: `tablesim.render.textured`."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from tablesim.render.noise import compose
from tablesim.render.styles import Surface
from tablesim.render.textures import surface_texture

Floats = npt.NDArray[np.float64]


def _texture(surface: Surface, scale: float = 8.0, seed: int = 1) -> Floats:
    return surface_texture(surface, (320, 400), scale, seed).astype(np.float64)


def _grey(image: Floats) -> Floats:
    return np.asarray(image @ np.array([0.114, 0.587, 0.299]), dtype=np.float64)


def test_black_leather_is_black_with_glints_on_its_ridges() -> None:
    greys = [_grey(_texture(Surface.BLACK_LEATHER, scale=20.0, seed=s)) for s in range(4)]
    assert np.median([np.median(g) for g in greys]) < 60  # black
    assert np.median([np.percentile(g, 99.5) for g in greys]) > 120  # glints
    b, g, r = (float(c) for c in _texture(Surface.BLACK_LEATHER).reshape(-1, 3).mean(axis=0))
    assert max(b, g, r) - min(b, g, r) < 6  # neutral
    # crinkled: the grain changes pixel to pixel far more than smooth leather would
    assert np.median([np.abs(np.diff(g, axis=1)).mean() for g in greys]) > 4


def test_knotty_wood_has_knots_darker_than_its_grain() -> None:
    image = _texture(Surface.KNOTTY_WOOD, scale=4.0, seed=2)
    b, g, r = (float(c) for c in image.reshape(-1, 3).mean(axis=0))
    assert r > g > b  # wood
    grey = _grey(image)
    rows = np.abs(np.diff(grey, axis=0)).mean()
    cols = np.abs(np.diff(grey, axis=1)).mean()
    assert rows > cols  # the grain runs along x
    dark = grey < 0.6 * np.median(grey)
    assert 0.002 < dark.mean() < 0.3  # knots, gaps between slats and specks, not the whole


def test_red_damask_is_burgundy_with_lighter_motifs() -> None:
    image = _texture(Surface.RED_DAMASK, scale=4.0)
    b, g, r = (float(c) for c in image.reshape(-1, 3).mean(axis=0))
    assert r > 1.8 * g and r > 1.5 * b
    red = image[..., 2]
    # tone on tone: the motifs' outlines are lighter than the ground, a few percent of it
    assert 0.01 < (red > np.median(red) * 1.15).mean() < 0.3


def test_plaid_crosses_bands_of_several_pastel_colours() -> None:
    image = _texture(Surface.PLAID, scale=3.0)
    colours = {tuple(int(v) // 24 for v in px) for px in image[::8, ::8].reshape(-1, 3)}
    assert len(colours) >= 4
    grey = _grey(image)
    assert grey.mean() > 150  # pastel
    # bands: a row's mean changes in steps, so neighbouring rows mostly agree
    rows = grey.mean(axis=1)
    assert np.median(np.abs(np.diff(rows))) < 2 < np.abs(np.diff(rows)).max()


def test_speckled_mat_is_dark_grey_with_light_and_dark_flecks() -> None:
    grey = _grey(_texture(Surface.SPECKLED_MAT))
    assert 30 < np.median(grey) < 80
    flecks = (grey > np.median(grey) * 1.25) | (grey < np.median(grey) * 0.75)
    assert 0.005 < flecks.mean() < 0.25


@pytest.mark.parametrize(
    "surface",
    [Surface.KNOTTY_WOOD, Surface.BLACK_LEATHER, Surface.RED_DAMASK, Surface.PLAID,
     Surface.SPECKLED_MAT],
)  # fmt: skip
def test_each_texture_holds_at_every_scale_a_camera_sees(surface: Surface) -> None:
    for scale in (1.0, 3.0, 30.0):
        image = surface_texture(surface, (64, 96), scale, 3)
        assert image.shape == (64, 96, 3)
        assert 5 < float(image.mean()) < 250


@pytest.mark.parametrize("types", [(np.float32, np.float32), (np.float64, np.float32),
                                   (np.float32, np.float64)])  # fmt: skip
def test_compose_is_the_colour_times_the_shade_plus_the_grain_in_8_bits(
    types: tuple[type[np.floating], type[np.floating]],
) -> None:
    rng = np.random.default_rng(4)
    base = np.array([0.9, 1.03, 1.2], dtype=types[0])
    shade = (rng.standard_normal((37, 53)) * 120 + 110).astype(np.float32)  # beyond 0..255
    add = (rng.standard_normal((37, 53)) * 3).astype(types[1])
    whole = base[None, None, :] * shade[:, :, None] + add[:, :, None]  # in its own types
    assert np.array_equal(compose(base, shade, add), np.clip(whole, 0, 255).astype(np.uint8))
