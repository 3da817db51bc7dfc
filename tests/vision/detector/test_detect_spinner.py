"""Spinner pins: a metal pin at the divider's centre, its dark rim as dark as the
divider, is neither a pip nor the end of a tile.

The pin bulges the divider's mark at its middle, so by its second moments the line
is no longer four times as long as it is thick; before `dividers.line_like` took a
line's length over its area too, no tile of these frames was found (and four of the
eight spinner tiles of diverse-dev's `dbu` photos with the brass-pinned set).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tests.vision.drawn import Look, blur, draw, table
from vision.detector.detect import Settings, detect
from vision.tiles.dark_marks import Blobs
from vision.tiles.dividers import TileHypothesis, consensus, line_like

TILES = [
    ((2, 3), 0.0),
    ((3, 6), 90.0),
    ((0, 0), 30.0),
    ((6, 6), 120.0),
    ((1, 4), -60.0),
    ((5, 2), 15.0),
    ((0, 5), 75.0),
    ((4, 4), 160.0),
]


def test_tiles_with_a_pin_at_the_divider_are_read_at_any_angle() -> None:
    img = table(500, 800, (120, 160, 40))  # green card
    look = Look(pin=0.12, divider_share=0.7)
    drawn = [
        draw(img, (110.0 + (i % 4) * 190, 130.0 + (i // 4) * 240), pips, angle, 52.0, look)
        for i, (pips, angle) in enumerate(TILES)
    ]
    det = detect(blur(img), settings=Settings(tone=None))
    assert not det.unsure, det.unsure
    assert len(det.tiles) == len(drawn), [str(t) for t in det.tiles]
    for d in drawn:
        found = [
            t
            for t in det.tiles
            if {t.pips, t.pips[::-1]} >= {(d.a, d.b)}
            and min(
                max(np.hypot(*np.subtract(t.px[0], d.pa)), np.hypot(*np.subtract(t.px[1], d.pb))),
                max(np.hypot(*np.subtract(t.px[0], d.pb)), np.hypot(*np.subtract(t.px[1], d.pa))),
            )
            < 6.0
        ]
        assert found, (d, [str(t) for t in det.tiles])


def _blobs(length: list[float], thickness: list[float], area: list[float]) -> Blobs:
    n = len(length) + 1
    zero = np.zeros(n)
    return Blobs(
        labels=np.zeros((1, 1), np.int32),
        area=np.array([0.0, *area]),
        cx=zero,
        cy=zero,
        length=np.array([0.0, *length]),
        thickness=np.array([1.0, *thickness]),
        ux=zero,
        uy=zero,
        darkness=zero,
        touches_edge=np.zeros(n, dtype=np.bool_),
    )


def test_line_like_takes_a_bulged_line_but_no_pips_in_a_row() -> None:
    r = 4.0
    blobs = _blobs(
        # a plain line; dbu's pinned divider (moments 34.8 x 9.4, 191 px); two and
        # three touching pips in a row (second moments of k discs of radius r)
        [40.0, 34.8, np.sqrt(15.0) * r, np.sqrt(35.0) * r],
        [3.0, 9.4, np.sqrt(3.0) * r, np.sqrt(3.0) * r],
        [120.0, 191.0, 2 * np.pi * r * r, 3 * np.pi * r * r],
    )
    assert line_like(blobs)[1:].tolist() == [True, True, False, False]


def test_bulged_blots_weigh_less_than_a_plain_divider_in_the_frames_size() -> None:
    # ddd-a 2_01: one tile whose width was assumed, beside a blot of print bulged
    # like a pinned divider and a short stroke of the same length: with the blot
    # counting fully the frame agreed on 26 px tiles, read nothing, and the
    # fainter passes had to run (twice the time)
    blobs = _blobs([45.7, 19.3, 18.8], [4.5, 5.4, 3.4], [197.0, 60.0, 25.0])
    blobs = replace(blobs, darkness=np.array([0.0, 197.0, 97.0, 62.0]))
    cands = [
        TileHypothesis(1, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 57.2, 0.5),
        TileHypothesis(2, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 29.3, 1.0, measured=True),
        TileHypothesis(3, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 22.8, 1.0, measured=True),
    ]
    kept, width = consensus(blobs, cands, [1.0, 0.8, 0.4])
    assert width == 57.2
    assert [k.blob for k in kept] == [1]
