"""A tile a player corrects teaches the set model: the camera path keeps the frame it
read last, cuts the misread half out of it and adds it to the model at its true number
(saved at once), so the same misread does not come back; an ambiguous or absent tile
teaches nothing."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.surface import SeenTile
from engine.tiles import DominoSet, Tile
from tablesim.render import Camera, RenderStyle, Scene, Surface, TileStyle, render_frame
from tests.vision.enrolment.mats import filled
from vision import Pipeline, PipelineSettings
from vision.frames import Frame
from vision.set_model.model import load_model

AT = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
BLACK = RenderStyle(TileStyle.BLACK, Surface.WOOD)


@pytest.mark.slow  # an enrolment from the mat: its reading and its tone tried
def test_a_correction_adds_the_misread_half_and_is_kept(tmp_path: Path) -> None:
    _, mat = filled(BLACK)
    pipeline = Pipeline(PipelineSettings(), tmp_path)
    assert pipeline.learn(Tile(6, 4), Tile(6, 3)) == "no set is enrolled: nothing learned"
    enrolled = pipeline.enrol_mat([Frame(mat.image, 0.0)], DominoSet.DOUBLE_SIX, AT)
    assert enrolled.ok
    before = len(pipeline.model.halves) if pipeline.model else 0
    tiles = (SeenTile(6, 4, 400.0, 288.0, 400.0, 312.0),)
    image = render_frame(Scene(tiles=tiles), Camera.overhead(), BLACK, seed=5).image
    for k in range(5):
        pipeline.step(Frame(image, 1.0 + k / 10))
    assert pipeline.last_read is not None
    read = sorted(sorted(t.pips) for t in pipeline.last_read[1].tiles)
    assert read == [[4, 6]]
    # the players say the 6-4 is a 6-3: its 4 half was a 3
    assert pipeline.learn(Tile(6, 4), Tile(6, 3)) == "learned a 3 read as 4"
    model = load_model(tmp_path)
    assert model is not None and len(model.halves) == before + 1
    assert [h.value for h in model.halves if h.corrected] == [3]
    assert pipeline.learn(Tile(5, 5), Tile(5, 4)) == (
        "5-5 was read 0 times in the latest frame: nothing learned"
    )
