"""The camera path from frames to settled Snapshots: calibration by the rendered corner
markers (saved, loaded again), the manual corners as fallback, pixels without either,
a confident illegal reading passed on as seen, and a hand resting on a tile reported
unsure and then unreadable."""

from __future__ import annotations

import logging
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from engine.surface import SeenTile, Snapshot
from tablesim.render import Camera, Hand, RenderStyle, Scene, TileStyle, render_frame
from vision.calibration.aruco_markers import detect_markers
from vision.calibration.homography import Calibration
from vision.camera_path.pipeline import Pipeline, PipelineSettings
from vision.camera_path.settled import same_reading
from vision.cli import vision as vision_cli
from vision.frames import Frame

TILES = (
    SeenTile(6, 6, 450, 288, 450, 312),
    SeenTile(6, 3, 474, 300, 498, 300),
    SeenTile(2, 1, 150, 120, 150, 144),
    SeenTile(5, 0, 760, 500, 784, 500),
)
CAMERA = Camera.overhead((900, 600), keystone=0.06, rotation_deg=3)
STYLE = RenderStyle(tiles=TileStyle.IVORY)


def still(pipeline: Pipeline, scene: Scene, n: int = 4, at: float = 0.0) -> list[Snapshot]:
    """`n` frames of a still table; the observations they gave."""
    out = []
    for i in range(n):
        image = render_frame(scene, CAMERA, STYLE, seed=3, frame=i).image
        observation = pipeline.feed(Frame(image, at + i / 10))
        if observation is not None:
            out.append(observation)
    return out


def worst_mm(seen: Snapshot, truth: tuple[SeenTile, ...]) -> float:
    worst = 0.0
    for t in truth:
        s = next(x for x in seen.tiles if x.tile == t.tile).high_first()
        h = t.high_first()
        worst = max(worst, abs(s.xa - h.xa), abs(s.ya - h.ya), abs(s.xb - h.xb), abs(s.yb - h.yb))
    return worst


@pytest.mark.slow
def test_markers_calibrate_and_tiles_come_out_in_table_mm(tmp_path: Path) -> None:
    pipeline = Pipeline(state_dir=tmp_path)
    [seen] = still(pipeline, Scene(tiles=TILES))
    assert pipeline.calibration is not None
    assert pipeline.calibration.method.value == "markers"
    assert sorted(str(t.tile) for t in seen.tiles) == sorted(str(t.tile) for t in TILES)
    assert worst_mm(seen, TILES) <= 2.0
    # saved, and used again without markers in view
    assert Calibration.load(tmp_path) == pipeline.calibration
    again = Pipeline(state_dir=tmp_path)
    assert again.calibration == pipeline.calibration
    [seen] = still(again, Scene(tiles=TILES, markers=False))
    assert worst_mm(seen, TILES) <= 2.0


def test_manual_corners_are_the_fallback(tmp_path: Path) -> None:
    corners = CAMERA.mm_to_px(np.array([[0, 0], [900, 0], [900, 600], [0, 600]], dtype=float))
    settings = PipelineSettings(corners_px=tuple((float(x), float(y)) for x, y in corners))
    pipeline = Pipeline(settings, state_dir=tmp_path)
    [seen] = still(pipeline, Scene(tiles=TILES, markers=False))
    assert pipeline.calibration is not None
    assert pipeline.calibration.method.value == "manual"
    assert worst_mm(seen, TILES) <= 2.0
    assert not (tmp_path / "calibration.json").exists()  # only marker calibrations are saved


def test_without_calibration_positions_stay_in_pixels(caplog: pytest.LogCaptureFixture) -> None:
    pipeline = Pipeline()
    with caplog.at_level(logging.WARNING):
        [seen] = still(pipeline, Scene(tiles=TILES, markers=False))
    assert pipeline.calibration is None
    assert any("not calibrated" in r.getMessage() for r in caplog.records)
    truth = render_frame(Scene(tiles=TILES, markers=False), CAMERA, STYLE, seed=3).truth
    centre = next(t for t in truth.tiles if t.tile.tile == TILES[0].tile).centre_px
    tile = next(t for t in seen.tiles if t.tile == TILES[0].tile)
    assert abs(tile.centre[0] - centre[0]) < 3 and abs(tile.centre[1] - centre[1]) < 3


def test_a_confident_illegal_reading_is_passed_on_as_seen() -> None:
    wrong = (SeenTile(6, 6, 450, 288, 450, 312), SeenTile(5, 4, 474, 300, 498, 300))
    [seen] = still(Pipeline(), Scene(tiles=wrong))
    assert same_reading(seen, Snapshot(wrong, 0), 2.0)


@pytest.mark.slow
def test_a_hand_resting_on_a_tile_is_unsure_then_unreadable() -> None:
    pipeline = Pipeline(PipelineSettings(unreadable_s=0.5))
    scene = Scene(tiles=TILES)
    [clean] = still(pipeline, scene)
    assert not clean.unsure and pipeline.unreadable is None
    target = CAMERA.mm_to_px(np.array([760.0, 500.0]))  # the 5-0, partly under the hand
    hand = Hand((float(target[0]) - 10, float(target[1]) - 5), (1400.0, 900.0))
    observations = []
    for i in range(10):  # a second of a hand lying still
        image = render_frame(scene, CAMERA, STYLE, seed=3, frame=10 + i, hand=hand).image
        observation = pipeline.feed(Frame(image, 1.0 + i / 10))
        if observation is not None:
            observations.append(observation)
    assert len(observations) == 1 and observations[0].unsure  # the reconciler will not judge it
    spot = pipeline.unreadable
    assert spot is not None and abs(spot.x_mm - 760) < 60 and abs(spot.y_mm - 500) < 60
    [back] = still(pipeline, scene, at=5.0)  # the hand goes: readable again
    assert not back.unsure and pipeline.unreadable is None


def test_the_markers_command_writes_a_sheet_the_detector_reads(tmp_path: Path) -> None:
    out = tmp_path / "markers.png"
    result = CliRunner().invoke(
        vision_cli, ["markers", str(out), "--paper", "297x210", "--marker-mm", "45", "--dpi", "150"]
    )
    assert result.exit_code == 0, result.output
    sheet = cv2.imread(str(out))
    assert sheet is not None
    assert sorted(detect_markers(np.asarray(sheet, dtype=np.uint8))) == [0, 1, 2, 3]
    bad = CliRunner().invoke(vision_cli, ["markers", str(out), "--paper", "90x90"])
    assert bad.exit_code != 0 and "do not fit" in bad.output
    assert "WxH" in CliRunner().invoke(vision_cli, ["markers", str(out), "--paper", "A4"]).output


def test_a_still_table_read_surely_is_read_again_once_a_second_and_at_once_after_a_move() -> None:
    before = render_frame(Scene(tiles=TILES[:3]), CAMERA, STYLE, seed=3).image
    after = render_frame(Scene(tiles=TILES), CAMERA, STYLE, seed=3, frame=1).image

    def reads(settings: PipelineSettings) -> tuple[list[float], list[Snapshot]]:
        pipeline = Pipeline(settings)
        read, observed = [], []
        frames = [Frame(before, i / 10) for i in range(25)]  # 2.5 s of a still table
        frames += [Frame(after, 2.5 + i / 10) for i in range(8)]  # a tile laid
        for frame in frames:
            step = pipeline.step(frame)
            if step.detection is not None:
                read.append(round(frame.at, 1))
            if step.observation is not None:
                observed.append(step.observation)
        return read, observed

    every, seen_every = reads(PipelineSettings(reread_s=None))
    read, seen = reads(PipelineSettings())  # reread_s 1 s
    # each frame from the third of a still period on (the gate's `still_frames`)
    assert every == [round(i / 10, 1) for i in range(2, 25)] + [2.7, 2.8, 2.9, 3.0, 3.1, 3.2]
    # the still period's first `agree` frames (an enrolment's) are read; then, the
    # reading held with no unsure place, once a second; the move is seen at once
    assert read == [0.2, 0.3, 0.4, 1.4, 2.4, 2.7, 2.8, 2.9]
    # and the same observations come out, at the same frames
    assert [(s.at, s.tiles) for s in seen] == [(s.at, s.tiles) for s in seen_every]
    assert [len(s.tiles) for s in seen] == [3, 4]
