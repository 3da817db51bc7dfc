"""Finding tiles, part by part: tile overlap and suppression, marks measured, tones."""

from __future__ import annotations

import numpy as np
import pytest

from vision.tiles.dark_marks import Tone, find_blobs, tone_image
from vision.tiles.dividers import TileHypothesis, _run_length, overlap, suppress


def _tile(cx: float, cy: float, vertical: bool = False, score: float = 1.0) -> TileHypothesis:
    # a horizontal tile has a vertical divider: d = (0, 1), n = (1, 0)
    d, n = ((1.0, 0.0), (0.0, 1.0)) if vertical else ((0.0, 1.0), (1.0, 0.0))
    return TileHypothesis(0, cx, cy, d[0], d[1], n[0], n[1], 50.0, score)


def test_tiles_touching_end_to_end_or_side_by_side_do_not_overlap() -> None:
    assert not overlap(_tile(100, 100), _tile(200, 100))  # end to end
    assert not overlap(_tile(100, 100), _tile(100, 150))  # side by side
    assert not overlap(_tile(100, 100), _tile(175, 125, vertical=True))  # an L
    assert overlap(_tile(100, 100), _tile(150, 100))  # the gap between two tiles


def test_suppression_keeps_the_better_of_two_claims() -> None:
    real_a, real_b = _tile(100, 100, score=1.5), _tile(200, 100, score=1.4)
    gap = _tile(150, 100, score=1.2)
    assert suppress([gap, real_a, real_b]) == [real_a, real_b]


def test_marks_are_measured_as_lines_and_dots() -> None:
    mask = np.zeros((60, 80), np.uint8)
    mask[10:40, 20:22] = 1  # a line 30 px long, 2 thick
    mask[45:51, 50:56] = 1  # a 6 px square dot
    grey = np.where(mask > 0, 20, 220).astype(np.uint8)
    bright = np.full_like(grey, 220)
    blobs = find_blobs(mask, grey, bright, max_area=1000)
    line, dot = 1, 2
    assert blobs.length[line] == pytest.approx(30, abs=1)
    assert blobs.thickness[line] == pytest.approx(2, abs=0.6)
    assert abs(blobs.uy[line]) == pytest.approx(1.0)
    assert blobs.area[dot] == 36
    assert (blobs.cx[dot], blobs.cy[dot]) == (52.5, 47.5)
    assert blobs.darkness[dot] == 200


def test_tones_make_tiles_bright_and_marks_dark() -> None:
    ivory_red_pip = np.array([[[220, 235, 240], [40, 40, 200]]], np.uint8)
    assert tone_image(ivory_red_pip, Tone.LIGHT).tolist() == [[220, 40]]
    black_white_pip = np.array([[[20, 20, 25], [235, 235, 235]]], np.uint8)
    assert tone_image(black_white_pip, Tone.DARK).tolist() == [[230, 20]]
    wood_burnt_pip = np.array([[[90, 150, 210], [30, 45, 70]]], np.uint8)
    grey = tone_image(wood_burnt_pip, Tone.GREY)
    assert grey[0, 0] > grey[0, 1] + 80


def test_run_length_off_the_material_is_the_run_on_its_inverse() -> None:
    """Stepping while off the tile material (`on=False`) is stepping while on the
    material's inverse: the same steps, without inverting the whole image."""
    rng = np.random.default_rng(23)
    for _ in range(300):
        tile = rng.random((40, 50)) < rng.uniform(0.1, 0.9)
        start = (float(rng.uniform(-5, 55)), float(rng.uniform(-5, 45)))
        angle = float(rng.uniform(0, 2 * np.pi))
        step = (float(np.cos(angle)), float(np.sin(angle)))
        limit = int(rng.integers(1, 30))
        assert _run_length(tile, start, step, limit, on=False) == _run_length(
            ~tile, start, step, limit
        )
