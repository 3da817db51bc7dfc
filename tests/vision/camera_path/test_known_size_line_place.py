"""A divider-like line on no tile read is an unsure place where it lies.

The benchmark's game 13 (black tiles under the harsh lamp): a 0-0 crosswise beside a
5-0 has no pip to be read from. Its divider, a line on no tile read, kept the places of
its window unsure, but the place reported was the one whose window found the line (a
5-4 some 75 mm away), so UNREADABLE pointed the players at the wrong tile. Now the line
itself is an unsure place, at the 0-0, and the first one listed.
"""

from __future__ import annotations

import math

import pytest

from engine.surface import SeenTile
from tablesim.render import Camera, RenderStyle, Scene, TileStyle, render_frame
from vision.camera_path.pipeline import Pipeline, PipelineSettings
from vision.detector.results import UnsureReason
from vision.detector.settings import Settings
from vision.frames import Frame
from vision.tiles.dark_marks import Tone

CAMERA = Camera.overhead((900, 600))
ROW = (
    SeenTile(6, 6, 450, 288, 450, 312),
    SeenTile(6, 4, 474, 300, 498, 300),
    SeenTile(5, 4, 546, 300, 522, 300),
    SeenTile(5, 0, 570, 300, 594, 300),
    SeenTile(0, 0, 618, 288, 618, 312),
)


@pytest.mark.slow
def test_the_unread_double_blank_is_the_unsure_place_reported() -> None:
    pipeline = Pipeline(PipelineSettings(detector=Settings(tone=Tone.DARK), unreadable_s=0.2))
    style = RenderStyle.harsh(TileStyle.BLACK)
    readings = 0
    for i in range(8):
        image = render_frame(Scene(tiles=ROW), CAMERA, style, seed=14, frame=i).image
        step = pipeline.step(Frame(image, i / 10))
        if step.reading is None or any(s.tile.pips == 0 for s in step.reading.tiles):
            continue
        readings += 1
        first = step.reading.unsure[0]
        assert first.reason == UnsureReason.LOOSE_LINE, step.reading.unsure
        assert math.hypot(first.x - 618, first.y - 300) <= 12, first
    assert readings >= 3
    spot = pipeline.unreadable
    assert spot is not None and math.hypot(spot.x_mm - 618, spot.y_mm - 300) <= 12, spot
