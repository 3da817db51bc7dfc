"""The set reader finds the set's tiles the detector missed: a wooden set on a light
wooden table (faces and table of much the same colour, both grained) laid as a chain
with doubles across it. The chain is one body of no tile's shape, so each tile is
found by its divider; a still frame's reading of it is whole and in place."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.enrolled_games import _holds, enrolled, looks
from engine.surface import SeenTile
from tablesim.render import Camera, Scene, render_frame
from vision.frames import Frame

Y = 300.0


def _across(a: int, cx: float) -> SeenTile:
    return SeenTile(a, a, cx, Y - 12.0, cx, Y + 12.0)


def _along(a: int, b: int, cx: float) -> SeenTile:
    return SeenTile(a, b, cx - 12.0, Y, cx + 12.0, Y)


# 4-2 2-0 0-5 [5-5] 5-6 [6-6] 6-3, touching end to end, the doubles across
CHAIN = (
    _along(4, 2, 276.0),
    _along(2, 0, 324.0),
    _along(0, 5, 372.0),
    _across(5, 408.0),
    _along(5, 6, 444.0),
    _across(6, 480.0),
    _along(6, 3, 516.0),
)


@pytest.mark.slow  # an enrolment from the mat
def test_a_wooden_chain_on_a_wooden_table_is_read_whole(tmp_path: Path) -> None:
    look = next(lk for lk in looks() if lk.name == "wooden")
    pipeline = enrolled(look, tmp_path)
    table = Scene(tiles=CHAIN, tile_mm=look.style.tile_set.size_mm)
    camera = Camera.overhead(table.size_mm, (1280, 960), margin_mm=table.margin_mm)
    image = render_frame(table, camera, look.style, seed=3).image
    for k in range(4):
        step = pipeline.step(Frame(image, k / 10))
    assert step.reading is not None
    missed = [f"{t.a}-{t.b}" for t in CHAIN if not _holds(step.reading, t)]
    assert not missed, f"missed {missed}; read {[(t.a, t.b) for t in step.reading.tiles]}"
    assert len(step.reading.tiles) == len(CHAIN)
