"""Frames modelled on the real photos the detector failed on (issue 26): each kind
draws what its name says, from its seed alone."""

from __future__ import annotations

import numpy as np
import pytest

from tablesim.render.lookalikes import Kind, lookalike
from tablesim.render.scene import TileTruth
from tablesim.render.sets import DOMES
from tablesim.render.styles import Surface


def _width(t: TileTruth) -> float:
    c = np.array(t.corners_px)
    return float(np.linalg.norm(c[0] - c[3]))  # across the tile at b's end


def _in_frame(t: TileTruth, w: int, h: int) -> bool:
    c = np.array(t.corners_px)
    return bool(np.all(c >= 0) and np.all(c[:, 0] < w) and np.all(c[:, 1] < h))


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(Kind))
def test_each_kind_is_fixed_by_its_seed_and_shows_its_tiles_whole(kind: Kind) -> None:
    first = lookalike(kind, 3)
    again = lookalike(kind, 3)
    assert np.array_equal(first.rendered.image, again.rendered.image)
    h, w = first.rendered.image.shape[:2]
    assert first.rendered.truth.tiles
    for t in first.rendered.truth.tiles:
        assert _in_frame(t, w, h), f"{kind}: {t.tile} is cut by the frame"
    assert first.style.jpeg_quality is not None and first.style.sharpen > 0  # a phone's photo


@pytest.mark.slow
def test_close_ups_are_close_and_on_the_textures_named() -> None:
    for seed in range(2):
        pink = lookalike(Kind.PINK_CLOSE_UP, seed)
        assert pink.style.surface in (Surface.KNOTTY_WOOD, Surface.BLACK_LEATHER)
        face = pink.style.tile_set.face
        assert face[2] > face[1] + 50  # pink: red well over green
        assert all(_width(t) > 250 for t in pink.rendered.truth.tiles)
        silver = lookalike(Kind.SILVER_PIN_CLOSE_UP, seed)
        assert silver.style.surface is Surface.DARK_CLOTH
        assert all(_width(t) > 300 for t in silver.rendered.truth.tiles)
        assert all(t.spinner_px is not None for t in silver.rendered.truth.tiles)


@pytest.mark.slow
def test_white_on_white_has_a_blank_and_soft_shadows() -> None:
    for seed in range(3):
        frame = lookalike(Kind.WHITE_ON_WHITE, seed)
        assert frame.style.surface is Surface.WHITE_PAPER
        assert frame.style.shadow_mm >= 5.0
        pairs = {(t.tile.a, t.tile.b) for t in frame.rendered.truth.tiles}
        assert (0, 0) in pairs


@pytest.mark.slow
def test_pinned_tiles_have_domed_pins_larger_than_their_pips() -> None:
    for seed in range(3):
        frame = lookalike(Kind.BRASS_PINS, seed)
        tiles = frame.style.tile_set
        assert frame.style.spinner in DOMES
        pip_mm = tiles.pip_radius(6, 6) * tiles.size_mm[1] / 2
        assert tiles.spinner_radius_mm(frame.style.spinner, tiles.size_mm[1]) > pip_mm


def test_a_lone_tile_in_a_small_frame() -> None:
    for seed in range(3):
        frame = lookalike(Kind.LONE_SMALL, seed)
        assert frame.rendered.image.shape[:2] == (640, 640)
        assert len(frame.rendered.truth.tiles) == 1
