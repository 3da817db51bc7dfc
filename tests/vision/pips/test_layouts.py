"""Pip layouts: every standard one is symmetric about its half's centre."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision.detector.test_detect_synthetic import LAYOUTS
from vision.pips.counting import _symmetric, symmetric
from vision.pips.layouts import LAYOUTS as SHARED
from vision.pips.layouts import grid_layout


def test_every_standard_layout_is_symmetric_about_its_centre() -> None:
    for value, layout in LAYOUTS.items():
        points = np.array(layout, dtype=np.float64).reshape(-1, 2) * 10.0 + 100.0
        assert symmetric(points, (100.0, 100.0), 2.0), value


def test_a_lopsided_layout_is_not_symmetric() -> None:
    three_missing_one = np.array([[90.0, 90.0], [100.0, 100.0]])
    assert not symmetric(three_missing_one, (100.0, 100.0), 2.0)


def test_the_shared_layouts_are_symmetric_and_read_back_by_the_grid_reader() -> None:
    width, step = 100.0, 27.0
    for n, layouts in SHARED.items():
        for places in layouts:
            assert len(places) == n
            pts = np.array([(i * step, j * step) for i, j in sorted(places)], dtype=np.float64)
            assert symmetric(pts.reshape(-1, 2), (0.0, 0.0), 2.0), (n, places)
            xs, ys = (pts[:, 0], pts[:, 1]) if n else (np.zeros(0), np.zeros(0))
            read = grid_layout(xs, ys, width, most=7)
            assert read is not None and read[0] == n and read[2] == places, (n, places, read)
            # a double-six reader (most=6) reads no 7
            assert (grid_layout(xs, ys, width) is None) == (n == 7)


def test_the_grid_reader_refuses_what_no_layout_has() -> None:
    width, step = 100.0, 27.0
    lopsided = np.array([(-step, -step), (0.0, 0.0)])  # a 3 missing one pip
    assert grid_layout(lopsided[:, 0], lopsided[:, 1], width) is None
    seven = np.array([(i * step, j * step) for i in (-1, 0, 1) for j in (-1, 1)] + [(0.0, 0.0)])
    assert grid_layout(seven[:, 0], seven[:, 1], width) is None


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.floats(-60.0, 60.0), st.floats(-60.0, 60.0)), min_size=0, max_size=12),
    st.tuples(st.floats(-5.0, 5.0), st.floats(-5.0, 5.0)),
    st.floats(0.1, 30.0),
)
def test_the_plain_float_symmetry_check_is_numpys(
    points: list[tuple[float, float]], centre: tuple[float, float], tol: float
) -> None:
    """A half's few marks are judged in plain floats (`counting._judge`): the same sums
    in the same order as `symmetric`'s arrays, so the same answer at every tolerance."""
    mirrored = points + [(-x + 2 * centre[0], -y + 2 * centre[1]) for x, y in points[::2]]
    xs, ys = [p[0] for p in mirrored], [p[1] for p in mirrored]
    pts = np.array(mirrored, dtype=np.float64).reshape(-1, 2)
    assert _symmetric(xs, ys, centre, tol) == symmetric(pts, centre, tol)
