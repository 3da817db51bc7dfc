"""Stray pips grouped into unsure places (`vision.detector.strays`)."""

from __future__ import annotations

import numpy as np

from vision.detector.settings import SearchSettings
from vision.detector.strays import near_pairs, stray_places


def _all_pairs(x: np.ndarray, y: np.ndarray, reach: float) -> set[tuple[int, int]]:
    near = np.hypot(x[:, None] - x[None, :], y[:, None] - y[None, :]) <= reach
    return {(int(i), int(j)) for i, j in zip(*np.nonzero(np.triu(near, 1)), strict=True)}


def test_near_pairs_are_every_pair_within_reach() -> None:
    rng = np.random.default_rng(7)
    for n, side, reach in ((1, 50.0, 5.0), (40, 100.0, 12.0), (300, 800.0, 60.0), (200, 30.0, 4.0)):
        x, y = rng.uniform(0, side, n), rng.uniform(0, side, n)
        x[: n // 3] = np.round(x[: n // 3])  # ties in x, and pairs exactly at the reach
        a, b = near_pairs(x, y, reach)
        got = {(min(int(i), int(j)), max(int(i), int(j))) for i, j in zip(a, b, strict=True)}
        assert len(got) == a.size  # each pair once
        assert got == _all_pairs(x, y, reach)


def test_stray_pips_group_through_one_another() -> None:
    cfg = SearchSettings(stray_pips=2)
    # a chain 0-1-2 (each within reach of the next only), a pair far off, a lone pip
    pips = [(0.0, 0.0), (9.0, 0.0), (18.0, 0.0), (100.0, 100.0), (100.0, 108.0), (300.0, 0.0)]
    assert stray_places(pips, 10.0, cfg) == [(9.0, 0.0), (100.0, 104.0)]
    # the places in the order of each group's first pip
    assert stray_places(pips[3:] + pips[:3], 10.0, cfg) == [(100.0, 104.0), (9.0, 0.0)]
    assert stray_places(pips, 10.0, SearchSettings(stray_pips=3)) == [(9.0, 0.0)]
    assert stray_places(pips, 0.0, cfg) == []


def test_a_lattice_of_thousands_of_marks_is_one_place() -> None:
    # a checked cloth's weave: a lattice of pip-like marks, one group
    xs, ys = np.meshgrid(np.arange(80) * 16.0, np.arange(60) * 16.0)
    pips = list(zip(xs.ravel().tolist(), ys.ravel().tolist(), strict=True))
    places = stray_places(pips, 20.0, SearchSettings())
    assert places == [(float(xs.mean()), float(ys.mean()))]
