"""A candidate tile's patch: the tile lies along it at a fixed scale, whatever its
angle and size in the frame, with half a width of what surrounds it."""

from __future__ import annotations

import numpy as np
import pytest

from vision.learned import patch, patches
from vision.learned.patches import ACROSS, LONG, PER_WIDTH, net_input

Px = tuple[tuple[float, float], tuple[float, float]]


def _frame_with_tile(width: float, degrees: float) -> tuple[np.ndarray, Px]:
    """A grey frame with a white 2w x w rectangle, red on half a and blue on half b,
    centred at (200, 150) turned by `degrees`; and its half centres."""
    h, w = 300, 400
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    r = np.radians(degrees)
    ux, uy = np.cos(r), np.sin(r)
    along = (xx - 200) * ux + (yy - 150) * uy
    across = -(xx - 200) * uy + (yy - 150) * ux
    frame = np.full((h, w, 3), 90, dtype=np.uint8)
    inside = (np.abs(along) < width) & (np.abs(across) < width / 2)
    frame[inside & (along < 0)] = (40, 40, 230)  # half a: red
    frame[inside & (along >= 0)] = (230, 40, 40)  # half b: blue
    a = (float(200 - ux * width / 2), float(150 - uy * width / 2))
    b = (float(200 + ux * width / 2), float(150 + uy * width / 2))
    return frame, (a, b)


@pytest.mark.parametrize("width", [12.0, 16.0, 40.0, 120.0])
@pytest.mark.parametrize("degrees", [0.0, 37.0, 90.0, 200.0])
def test_the_tile_lies_along_the_patch_half_a_first(width: float, degrees: float) -> None:
    frame, px = _frame_with_tile(width, degrees)
    p = patch(frame, px).astype(int)
    assert p.shape == (ACROSS, LONG, 3)
    q = PER_WIDTH // 2
    mid = ACROSS // 2
    # half a (red) on the left, half b (blue) on the right, table beyond the ends and sides
    assert p[mid, q + 3, 2] > 180 and p[mid, q + 3, 0] < 80
    assert p[mid, LONG - q - 4, 0] > 180 and p[mid, LONG - q - 4, 2] < 80
    for y, x in ((mid, 2), (mid, LONG - 3), (2, LONG // 2), (ACROSS - 3, LONG // 2)):
        assert abs(p[y, x] - 90).max() < 25, (y, x, p[y, x])


def test_half_b_first_turns_the_patch_half_a_turn() -> None:
    frame, (a, b) = _frame_with_tile(40.0, 20.0)
    one = patch(frame, (a, b)).astype(int)
    other = patch(frame, (b, a)).astype(int)
    assert np.abs(one - other[::-1, ::-1]).mean() < 6


def test_a_candidate_off_the_frame_repeats_its_edge() -> None:
    frame = np.zeros((50, 60, 3), dtype=np.uint8)
    frame[:, -1] = 200
    p = patch(frame, ((500.0, 20.0), (530.0, 20.0)))
    assert p.shape == (ACROSS, LONG, 3)
    assert (p == 200).all()


def test_patches_of_none_and_the_net_input() -> None:
    frame, px = _frame_with_tile(30.0, 0.0)
    assert patches(frame, []).shape == (0, ACROSS, LONG, 3)
    stack = patches(frame, [px, px])
    x = net_input(stack)
    assert x.shape == (2, 3, ACROSS, LONG) and x.dtype == np.float32
    assert abs(float(x[0].mean())) < 1e-4  # less its mean ...
    brighter = net_input(np.clip(stack.astype(int) + 20, 0, 255).astype(np.uint8))
    assert np.abs(brighter - x).max() < 0.2  # ... light is no evidence
