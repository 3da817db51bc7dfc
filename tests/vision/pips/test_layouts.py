"""Pip layouts: every standard one is symmetric about its half's centre."""

from __future__ import annotations

import numpy as np

from tests.vision.detector.test_detect_synthetic import LAYOUTS
from vision.pips.counting import symmetric


def test_every_standard_layout_is_symmetric_about_its_centre() -> None:
    for value, layout in LAYOUTS.items():
        points = np.array(layout, dtype=np.float64).reshape(-1, 2) * 10.0 + 100.0
        assert symmetric(points, (100.0, 100.0), 2.0), value


def test_a_lopsided_layout_is_not_symmetric() -> None:
    three_missing_one = np.array([[90.0, 90.0], [100.0, 100.0]])
    assert not symmetric(three_missing_one, (100.0, 100.0), 2.0)
