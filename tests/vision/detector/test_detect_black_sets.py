"""Black sets read as any other (issue 31): black tiles with white pips, black wooden
ones, ringed halves, played with round black stones laid against the tiles and a cup
beside them, read with the tone unknown (as `vision detect` reads)."""

from __future__ import annotations

import random

import pytest

from benchmarks.vision_looks import black_scene
from tablesim.render import (
    Camera,
    Lighting,
    RenderStyle,
    Surface,
    TileStyle,
    Truth,
    render_frame,
)
from vision.detector.detect import Settings, detect
from vision.detector.results import Detection

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
    ("style", "resolution", "least"),
    [
        (TileStyle.BLACK_WOOD, (960, 720), 9),  # tiles 20 px wide: 5 read without
        (TileStyle.IVORY, (800, 600), 7),  # tiles 17 px wide: none read without
    ],
)
def test_small_tiles_are_read_enlarged(
    style: TileStyle, resolution: tuple[int, int], least: int
) -> None:
    """Tiles too small for the search's pixel sizes (a whole table seen by a small
    camera, among stones): the frame is read again enlarged (the look `finer`), and
    what that reads surely is added; nothing is read wrong."""
    scene = black_scene(random.Random(5))
    camera = Camera.overhead(scene.size_mm, resolution, margin_mm=scene.margin_mm)
    look = RenderStyle(tiles=style, surface=Surface.GREEN_FELT, lighting=Lighting.DAYLIGHT)
    frame = render_frame(scene, camera, look, seed=3)
    det = detect(frame.image, settings=Settings(tone=None))
    right, reported = _right(det, frame.truth)
    assert right == reported >= least, [str(t) for t in det.tiles]
    assert any(r.name == "finer" and r.added for r in det.looks)


@pytest.mark.parametrize("surface", [Surface.SPECKLED_MAT, Surface.WOOD])
def test_ringed_halves_read_by_their_filled_pips(surface: Surface) -> None:
    """A ringed set: each half shows 9 rings, the value's filled white; the rings are
    no pips, tiles touching stones and one another are not covered."""
    scene = black_scene(random.Random(11))
    look = RenderStyle(tiles=TileStyle.BLACK_RINGED, surface=surface, lighting=Lighting.LAMP)
    frame = render_frame(scene, style=look, seed=4)
    det = detect(frame.image, settings=Settings(tone=None))
    right, reported = _right(det, frame.truth)
    assert right == reported == len(frame.truth.tiles), [str(t) for t in det.tiles]
