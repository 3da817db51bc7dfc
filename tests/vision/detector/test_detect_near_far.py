"""Near and far tiles in one frame: one width per frame is the frame's median, and
tiles nearer or farther than most (a phone held at a tilt) are read at their own.

Before `tile_reading._resized` and `tile_reading._face_fit`, the farthest tiles of the
drawn frame below looked partly covered (the table around them, sampled at the frame's
width, passed for a hand) and were not reported; before `tile_reading._blank_outlined`,
a 0-0 larger than the others was taken for a line on the table.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tests.vision.drawn import Look, blur, draw, table
from vision.detector.detect import Settings, detect
from vision.tiles.dividers import TileHypothesis

VALUES = [(6, 6), (5, 6), (4, 6), (3, 6), (6, 2), (1, 6), (5, 5), (4, 5), (3, 5), (2, 5)]
ANGLES = [0.0, 90.0, 35.0, -20.0, 60.0]


def test_tiles_from_42_to_62_px_wide_in_one_frame_are_all_read() -> None:
    img = table(560, 900, (60, 90, 140))  # a brown table
    for i, pips in enumerate(VALUES):
        centre = (100.0 + (i % 5) * 170, 140.0 + (i // 5) * 260)
        draw(img, centre, pips, ANGLES[i % 5], 42.0 + 2.2 * i, Look())
    det = detect(blur(img), settings=Settings(tone=None))
    assert not det.unsure, det.unsure
    assert sorted(tuple(sorted(t.pips)) for t in det.tiles) == sorted(
        tuple(sorted(v)) for v in VALUES
    )
    assert all(t.confidence >= 0.85 for t in det.tiles)  # none lop-sided


def test_a_blank_nearer_than_most_shows_its_edges_at_its_own_width() -> None:
    # a 0-0 is read only when its outline shows (wood grain is no tile); sampled
    # at the frame's width, the edges of a larger 0-0 lay beyond the lines looked at
    img = table(560, 900, (60, 130, 40))  # green card
    values = [*VALUES[:8], (0, 0), VALUES[9]]
    for i, pips in enumerate(values):
        centre = (100.0 + (i % 5) * 170, 140.0 + (i // 5) * 260)
        draw(img, centre, pips, ANGLES[i % 5], 58.0 if pips == (0, 0) else 48.0, Look())
    det = detect(blur(img), settings=Settings(tone=None))
    assert sorted(tuple(sorted(t.pips)) for t in det.tiles) == sorted(
        tuple(sorted(v)) for v in values
    )


def test_a_hypothesis_keeps_the_width_its_own_divider_measured() -> None:
    t = TileHypothesis(1, 10.0, 10.0, 1.0, 0.0, 0.0, 1.0, 50.0, 1.0, measured=True, own=42.0)
    assert replace(t, width=45.0).own == 42.0
    assert np.isclose(t.half_centres()[1][1], 35.0)
