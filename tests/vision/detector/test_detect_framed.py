"""Tiles cut by the frame's edge are unsure places, not tiles read in part (before
`vision.detector.frame_edge`, the cut tiles below were reported with the pips that showed)."""

from __future__ import annotations

from tests.vision.drawn import Look, blur, draw, table
from vision.detector.detect import Settings, detect
from vision.detector.frame_edge import cut_by_frame, outline
from vision.detector.planes import Found
from vision.detector.results import FoundTile, UnsureReason


def test_a_tile_cut_by_the_edge_is_unsure_and_one_inside_it_is_read() -> None:
    img = table(400, 600, (50, 60, 70))
    draw(img, (300.0, 200.0), (5, 6), 0.0, 50.0, Look())  # whole
    draw(img, (560.0, 100.0), (6, 6), 0.0, 50.0, Look())  # a third of it past the right edge
    draw(img, (150.0, 10.0), (4, 3), 90.0, 50.0, Look())  # its 4 half past the top
    draw(img, (120.0, 300.0), (2, 1), 0.0, 50.0, Look())  # whole, 45 px from the edge
    det = detect(blur(img), settings=Settings(tone=None))
    assert sorted(t.pips for t in det.tiles) in ([(1, 2), (5, 6)], [(2, 1), (5, 6)])
    cut = [u for u in det.unsure if u.reason is UnsureReason.CUT]
    assert len(cut) == 2, det.unsure


def test_the_outline_of_a_found_tile_reaches_half_a_width_past_each_half() -> None:
    tile = FoundTile((1, 2), ((100.0, 50.0), (100.0, 90.0)), 1.0)
    xs, ys = outline(tile)[:, 0], outline(tile)[:, 1]
    assert (min(xs), max(xs), min(ys), max(ys)) == (80.0, 120.0, 30.0, 110.0)
    found = Found([tile], [], [], 40.0)
    assert cut_by_frame(found, (200, 111)) is found  # one pixel short: within the slack
    assert cut_by_frame(found, (200, 100)).tiles == []
