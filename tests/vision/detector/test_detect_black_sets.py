"""Black sets read as any other (issue 31): black tiles with white pips, black wooden
ones, ringed halves, played with round black stones laid against the tiles and a cup
beside them, read with the tone unknown (as `vision detect` reads)."""

from __future__ import annotations

import random

import pytest

from benchmarks.vision_looks import black_scene
from tablesim.render import (
    Lighting,
    RenderStyle,
    Surface,
    TileStyle,
    Truth,
    render_frame,
)
from vision.detector.detect import Settings, detect
from vision.detector.results import Detection, UnsureReason

NEAR_PX = 8.0


def _right(det: Detection, truth: Truth) -> tuple[int, int]:
    """(tiles read right at their place, tiles reported)."""
    right = 0
    for t in truth.tiles:
        want = (t.tile.a, t.tile.b)
        for got in det.tiles:
            for (pa, pb), pips in (
                ((got.px[0], got.px[1]), got.pips),
                ((got.px[1], got.px[0]), (got.pips[1], got.pips[0])),
            ):
                near = all(
                    abs(p[0] - q[0]) < NEAR_PX and abs(p[1] - q[1]) < NEAR_PX
                    for p, q in ((pa, t.a_px), (pb, t.b_px))
                )
                if near and pips == want:
                    right += 1
    return right, len(det.tiles)


@pytest.mark.parametrize(
    ("style", "surface"),
    [
        (TileStyle.BLACK_RINGED, Surface.SPECKLED_MAT),
        (TileStyle.BLACK_RINGED, Surface.WOOD),
        (TileStyle.BLACK_WOOD, Surface.SPECKLED_MAT),
        (TileStyle.BLACK, Surface.WHITE_CLOTH),
    ],
)
def test_black_sets_among_stones_and_a_cup_are_read(style: TileStyle, surface: Surface) -> None:
    """Black tiles (ringed halves: 9 rings each, the value's filled white; the rings
    are no pips) touching one another, stones laid against them, a cup beside one:
    every tile read where it lies, none judged covered, nothing more."""
    scene = black_scene(random.Random(11))
    look = RenderStyle(tiles=style, surface=surface, lighting=Lighting.LAMP)
    frame = render_frame(scene, style=look, seed=4)
    det = detect(frame.image, settings=Settings(tone=None))
    right, reported = _right(det, frame.truth)
    assert right == reported == len(frame.truth.tiles), [str(t) for t in det.tiles]
    assert not [u for u in det.unsure if u.reason is UnsureReason.COVERED]
