"""`Pipeline.calibrate`: the `calibrate` command's look for the four markers, now."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.surface import SeenTile
from tablesim.render import Hand, RenderStyle, Scene, render_frame
from vision.calibration.homography import Calibration
from vision.camera_path.pipeline import Pipeline
from vision.errors import MarkersMissingError

SCENE = Scene(tiles=(SeenTile(6, 6, 450, 288, 450, 312),))


def test_calibrate_uses_and_saves_the_markers(tmp_path: Path) -> None:
    pipeline = Pipeline(state_dir=tmp_path)
    assert pipeline.calibration is None
    fresh = pipeline.calibrate(render_frame(SCENE, None, RenderStyle(), seed=2).image)
    assert pipeline.calibration is fresh and fresh.method.value == "markers"
    assert fresh.reprojection_px < 1.0
    assert Calibration.load(tmp_path) == fresh


def test_calibrate_names_the_marker_a_hand_covers(tmp_path: Path) -> None:
    pipeline = Pipeline(state_dir=tmp_path)
    image = render_frame(SCENE, None, RenderStyle(), seed=2).image
    known = pipeline.calibrate(image)
    x, y = known.corners_px[2]
    covered = render_frame(
        SCENE, None, RenderStyle(), seed=2, hand=Hand((x - 8, y - 8), (1300, 1000))
    )
    with pytest.raises(MarkersMissingError) as caught:
        pipeline.calibrate(covered.image)
    assert caught.value.missing == (2,) and caught.value.found == (0, 1, 3)
    assert "2" in str(caught.value)
    assert pipeline.calibration is known  # the one in use stays
