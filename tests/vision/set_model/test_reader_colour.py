"""The set reader's colour sums over a whole frame (`vision.set_model.reader`): the
table's median colour and each pixel's distance from the faces' colour, taken by
OpenCV's tables and histograms, give what numpy's median and norm give."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.set_model.reader import _far_squared, _median_lab


def _lab(seed: int, shape: tuple[int, int] = (97, 131)) -> np.ndarray:
    rng = np.random.default_rng(seed)
    bgr = rng.integers(0, 256, (*shape, 3), dtype=np.uint8)
    bgr[: shape[0] // 2] //= 3  # a dark part and a bright one: unlike halves
    return np.asarray(cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab), dtype=np.uint8)


@pytest.mark.parametrize("seed", range(6))
def test_the_median_colour_is_numpys_to_the_last_bit(seed: int) -> None:
    lab = _lab(seed)
    rng = np.random.default_rng(100 + seed)
    mask = (rng.random(lab.shape[:2]) < 0.6).astype(np.uint8)
    mask.flat[0] = 1
    for m in (mask, np.ones_like(mask)):
        want = np.median(lab.astype(np.float32)[m > 0], axis=0)
        got = _median_lab(lab, m)
        assert got.dtype == np.float32
        assert np.array_equal(got, want), (got, want, int(m.sum()))


def test_an_even_count_takes_the_mean_of_the_two_middle_levels() -> None:
    lab = np.zeros((1, 4, 3), dtype=np.uint8)
    lab[0, :, 0] = (10, 20, 31, 200)
    lab[0, :, 1] = (5, 5, 6, 6)
    got = _median_lab(lab, np.ones((1, 4), dtype=np.uint8))
    assert got.tolist() == [25.5, 5.5, 0.0]


@pytest.mark.parametrize("seed", range(3))
def test_the_distance_from_the_faces_is_numpys(seed: int) -> None:
    lab = _lab(seed)
    face = np.array([61.7, 140.2, 119.9], dtype=np.float32)
    want = np.linalg.norm(lab.astype(np.float32) - face, axis=2) ** 2
    got = _far_squared(lab, face)
    assert got.shape == lab.shape[:2]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-3)
    for most in (5.0, 12.5, 20.0, 40.0):  # the faces' mask is the same pixels
        limit = np.float32(most)
        same = (got < limit * limit) == (np.sqrt(want) < most)
        assert same.all()
