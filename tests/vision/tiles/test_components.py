"""Connected marks labelled and measured (`vision.tiles.dark_marks.components`): the
same components, stats and centroids as OpenCV's `connectedComponentsWithStats`,
whichever way a mask is measured (summed over its marked pixels when sparse, by
OpenCV when dense)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.tiles import dark_marks
from vision.tiles.dark_marks import components, find_blobs


def _opencv(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    count, labels, stats, centroids = cv2.connectedComponentsWithStatsWithAlgorithm(
        mask, 8, cv2.CV_32S, cv2.CCL_GRANA
    )
    return int(count), labels, stats, centroids


def _masks() -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    out = [
        np.zeros((5, 7), np.uint8),
        np.ones((5, 7), np.uint8),  # no background pixel at all
        np.ones((1, 1), np.uint8),
        np.zeros((1, 1), np.uint8),
        np.ones((1, 9), np.uint8),
        np.full((6, 4), 255, np.uint8),
    ]
    for k in range(200):
        h, w = (int(v) for v in rng.integers(1, 60, 2))
        mask = (rng.random((h, w)) < rng.random()).astype(np.uint8)
        if k % 3 == 0:
            mask = np.asarray(cv2.dilate(mask, np.ones((3, 3), np.uint8)), np.uint8)
        if k % 5 == 0:
            mask = mask * np.uint8(255)
        out.append(mask)
    return out


@pytest.mark.parametrize("dense", [8, 10**9, 1])  # as set, never dense, always dense
def test_components_are_opencvs(dense: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dark_marks, "DENSE", dense)
    for mask in _masks():
        want = _opencv(mask)
        got = components(mask)
        assert got[0] == want[0]
        assert np.array_equal(got[1], want[1])
        assert np.array_equal(got[2], want[2]), (mask.shape, got[2][:3], want[2][:3])
        assert np.array_equal(got[3], want[3], equal_nan=True)


def test_find_blobs_the_same_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(3)
    mask = (rng.random((120, 160)) < 0.08).astype(np.uint8)
    mask = np.asarray(cv2.dilate(mask, np.ones((2, 2), np.uint8)), np.uint8)
    img = rng.integers(0, 255, mask.shape).astype(np.uint8)
    bright = np.full_like(img, 255)
    monkeypatch.setattr(dark_marks, "DENSE", 10**9)
    sparse = find_blobs(mask, img, bright, 40.0)
    monkeypatch.setattr(dark_marks, "DENSE", 1)
    dense = find_blobs(mask, img, bright, 40.0)
    given = find_blobs(mask, img, bright, 40.0, labelled=_opencv(mask))
    for name in ("labels", "area", "cx", "cy", "length", "thickness", "darkness", "box"):
        assert np.array_equal(getattr(sparse, name), getattr(dense, name)), name
        assert np.array_equal(getattr(sparse, name), getattr(given, name)), name
    assert np.array_equal(sparse.touches_edge, dense.touches_edge)
    assert len(sparse) > 50
