"""Several still frames of one view agreed on tile by tile (`vision.enrolment.agree`),
and the pipeline's enrolment reading the still frames it read (issue 26 point 5: a
pink double-six whose 6-6 read as 7-6 on some still frames was enrolled in 1 run of
4 on the same frames)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.tiles import DominoSet
from tablesim.render import Camera, Lighting, RenderStyle, Surface, TileStyle, render_frame
from tablesim.render.scene import Rendered
from tests.vision.whole_sets import set_scene
from vision.camera_path.pipeline import Pipeline, PipelineSettings
from vision.detector.results import Detection, FoundTile, UnsureReason
from vision.enrolment.agree import agreed
from vision.enrolment.read import Enrolment
from vision.frames import Frame

SIX = DominoSet.DOUBLE_SIX


def tile(a: int, b: int, x: float, y: float = 100.0) -> FoundTile:
    return FoundTile((a, b), ((x, y), (x + 24.0, y)), 1.0)


def test_most_frames_decide_each_place_and_a_number_the_set_has_not_never_wins() -> None:
    first = Detection((tile(6, 6, 100), tile(3, 1, 200)))
    turned = FoundTile((1, 3), ((224.5, 100.0), (200.5, 100.0)), 1.0)  # the 3-1, b first
    second = Detection((tile(7, 6, 101), turned, tile(2, 2, 400)))
    third = Detection((tile(6, 6, 99), tile(3, 1, 201)))
    out = agreed([first, second, third], SIX)
    assert sorted(t.pips for t in out.tiles) == [(3, 1), (6, 6)]  # the 2-2 in one of 3: no
    # two frames, one 7-6: the 6-6 has one vote of two, a 7 none: the place is not read
    assert sorted(t.pips for t in agreed([first, second], SIX).tiles) == [(3, 1)]
    # one frame is read as it is, its 7-6 the misread the check reports
    assert agreed([second], SIX) is second


def pink_set() -> tuple[Rendered, Rendered]:
    """The pink double-six with yellow pips on a wooden table, two still frames."""
    style = RenderStyle(tiles=TileStyle.PINK_YELLOW, surface=Surface.WOOD, lighting=Lighting.LAMP)
    scene = set_scene(SIX, tile_mm=style.tile_set.size_mm)
    camera = Camera.overhead(resolution=(1280, 960))
    return tuple(render_frame(scene, camera, style, seed=0, frame=i) for i in (1, 2))  # type: ignore[return-value]


def with_a_seventh_pip(out: Rendered) -> np.ndarray:
    """The frame with a yellow speck at the centre of the 6-6's first half: read alone,
    that frame reads 7-6."""
    six = next(t for t in out.truth.tiles if (t.tile.a, t.tile.b) == (6, 6))
    (ax, ay), (bx, by) = six.a_px, six.b_px
    radius = max(2, round(0.09 * float(np.hypot(bx - ax, by - ay))))
    image = out.image.copy()
    colour = tuple(int(c) for c in six.pip_colour_a)
    cv2.circle(image, (round(ax), round(ay)), radius, colour, -1, cv2.LINE_AA)
    return image


@pytest.mark.slow
def test_enrolment_agrees_on_the_still_frames_the_pipeline_read(tmp_path: Path) -> None:
    clean, other = pink_set()
    speck = with_a_seventh_pip(other)
    at = datetime(2026, 11, 29, tzinfo=UTC)
    pipeline = Pipeline(PipelineSettings(), tmp_path)
    frames = [Frame(speck, 0.1 * i) for i in range(3)]
    frames += [Frame(clean.image, 0.3), Frame(other.image, 0.4)]
    for f in frames:
        step = pipeline.step(f)
    assert step.detection is not None and pipeline.still_read == 3
    still = pipeline.still_frames
    assert still[0].image is speck  # the first still frame of the period ...
    first = pipeline.enrol_still(SIX, at, frames=still[:1])
    assert not first.ok  # ... reads 7-6 alone
    enrolment = pipeline.enrol_still(SIX, at)
    assert enrolment.ok and isinstance(enrolment, Enrolment), enrolment  # the three agree
    # one photo alone (nothing to agree with) is what it reads
    alone = Pipeline(PipelineSettings(), tmp_path / "alone").enrol([Frame(speck, 0.0)], SIX, at)
    assert not alone.ok
    assert [(t.text, read.text) for t, read in alone.check.misread] == [("6-6", "7-6")]


@pytest.mark.slow
def test_with_a_set_enrolled_a_number_it_has_not_is_read_by_its_halves(tmp_path: Path) -> None:
    clean, other = pink_set()
    at = datetime(2026, 11, 29, tzinfo=UTC)
    pipeline = Pipeline(PipelineSettings(), tmp_path)
    for i in range(3):
        pipeline.step(Frame(clean.image, 0.1 * i))
    assert pipeline.enrol([Frame(clean.image, 0.2)], SIX, at).ok
    model = pipeline.model
    assert model is not None and len(model.halves) == 56
    speck = with_a_seventh_pip(other)
    for i in range(3):
        pipeline.step(Frame(speck, 1.0 + 0.1 * i))
    detection = latest_read(pipeline, after=1.0)
    # the set's own halves know no 7: the half is its nearest, a 6
    read = {t.pips for t in detection.tiles}
    assert (6, 6) in read, sorted(read)
    # a set enrolled before its halves were kept: such a place is unsure
    pipeline.use_model(replace(model, halves=()), save=False)
    for i in range(3):
        pipeline.step(Frame(speck, 2.0 + 0.1 * i))
    detection = latest_read(pipeline, after=2.0)
    assert all(max(t.pips) <= 6 for t in detection.tiles)
    assert UnsureReason.NOT_IN_SET in {u.reason for u in detection.unsure}


def latest_read(pipeline: Pipeline, after: float) -> Detection:
    """The detection of the latest frame the pipeline read, one fed at `after` or later
    (a still table read surely is not read again at every frame: `reread_s`)."""
    assert pipeline.last_read is not None
    frame, detection = pipeline.last_read
    assert frame.at >= after, frame.at
    return detection
