"""Random training frames: the same seed the same frame, a truth that holds, variety."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablesim.contact_sheet import main as contact_main
from tablesim.generate import main
from tablesim.render import RenderStyle, Spinner, TileStyle, render_frame
from tablesim.render.arrangements import corners, overlaps
from tablesim.render.generator import Arrangement, Sample, random_frame
from tablesim.render.scene import TileTruth
from tests.tablesim.pixels import assert_pips_where_truth_says, inside_half

SEEDS = range(48)
FRAME = np.array([[-13.0, -10.0], [653.0, -10.0], [653.0, 490.0], [-13.0, 490.0]])  # 2 % out


@cache
def _sample(seed: int) -> Sample:
    return random_frame(seed)


def test_the_same_seed_gives_the_same_frame() -> None:
    first, again, other = random_frame(11), random_frame(11), random_frame(12)
    assert first.image.shape == (480, 640, 3) and first.image.dtype == np.uint8
    assert np.array_equal(first.image, again.image)
    assert first.labels() == again.labels()
    assert not np.array_equal(first.image, other.image)


def _width_px(t: TileTruth) -> float:
    c = np.array(t.corners_px)
    return float(np.linalg.norm(c[0] - c[3]))


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_the_truth_holds_for_every_tile(seed: int) -> None:
    sample = _sample(seed)
    look, scene = sample.tile_set, sample.scene
    assert len(sample.truth.tiles) == len(scene.tiles)
    seen = set()
    for t in sample.truth.tiles:
        a, b = t.tile.a, t.tile.b
        assert 0 <= a <= look.highest and 0 <= b <= look.highest
        assert (min(a, b), max(a, b)) not in seen  # a set holds each tile once
        seen.add((min(a, b), max(a, b)))
        assert (len(t.pips_a_px), len(t.pips_b_px)) == (a, b)
        assert inside_half(t, "a", t.pips_a_px) and inside_half(t, "b", t.pips_b_px)
        assert (t.pip_colour_a, t.pip_colour_b) == (look.pips[a], look.pips[b])
        if sample.style.spinner is Spinner.NONE:
            assert t.spinner_px is None
        else:
            middle = sample.truth.camera.mm_to_px(np.array(t.tile.centre))
            assert t.spinner_px == pytest.approx(tuple(middle))
        assert overlaps(np.array(t.corners_px), FRAME)  # in view, whole or cut
    for i, first in enumerate(scene.tiles):  # no two tiles overlap (touching is fine)
        for second in scene.tiles[i + 1 :]:
            assert not overlaps(
                corners(first, scene.tile_mm), corners(second, scene.tile_mm), -0.01
            )


@pytest.mark.parametrize("seed", [s for s in SEEDS if s % 6 == 0])
def test_the_pips_are_drawn_where_the_truth_says(seed: int) -> None:
    """The same scene and camera without light, blur or noise: each whole tile wide
    enough to tell its pips apart shows exactly its pips where the truth puts them."""
    sample = _sample(seed)
    clean = RenderStyle.clean(replace(sample.tile_set, spinner=Spinner.NONE))
    out = render_frame(sample.scene, sample.truth.camera, clean, seed)
    for t, labels in zip(out.truth.tiles, sample.labels()["tiles"], strict=True):
        if labels["whole"] and _width_px(t) >= 30:
            assert_pips_where_truth_says(out.image, t, tolerance_px=1.5)


@pytest.mark.slow
def test_the_frames_vary_in_every_way_asked() -> None:
    samples = [_sample(s) for s in SEEDS]
    assert {s.arrangement for s in samples} == set(Arrangement)
    assert len({s.style.surface for s in samples}) >= 7
    assert len({s.tile_set.face for s in samples}) >= 30
    assert {s.tile_set.layout for s in samples} == {"grid", "columns"}
    assert {s.tile_set.highest for s in samples} == {6, 9, 12}
    assert any(s.style.spinner is not Spinner.NONE for s in samples)
    assert any(s.style.tile_set.engraved for s in samples)
    assert any(len(set(s.tile_set.pips[1:])) > 1 for s in samples)  # a colour per number
    tiles = [t for s in samples for t in s.truth.tiles]
    widths = [_width_px(t) for t in tiles]
    assert min(widths) < 16 and max(widths) > 100
    angles = [math.degrees(math.atan2(t.b_px[1] - t.a_px[1], t.b_px[0] - t.a_px[0])) % 90
              for t in tiles]  # fmt: skip
    assert np.histogram(angles, bins=6, range=(0, 90))[0].min() > len(tiles) / 20
    assert any(t.tile.a == t.tile.b == 0 for t in tiles)
    assert sum(t.tile.a == 0 or t.tile.b == 0 for t in tiles) > len(tiles) / 10
    assert any(s.truth.facedown for s in samples)
    assert any(s.truth.hand_visible for s in samples)
    assert np.ptp([s.exposure for s in samples]) > 0.4
    assert {s.style.jpeg_quality is None for s in samples} == {True, False}


def test_labels_are_json_and_tell_cut_tiles_from_whole_ones() -> None:
    sample = next(s for s in map(_sample, SEEDS) if s.arrangement is Arrangement.LINE)
    labels = json.loads(json.dumps(sample.labels()))
    assert labels["size"] == [640, 480] and labels["arrangement"] == "line"
    for t, tile in zip(sample.truth.tiles, labels["tiles"], strict=True):
        assert (tile["a"], tile["b"]) == (t.tile.a, t.tile.b)
        assert tile["corners"] == [list(p) for p in t.corners_px]
        assert len(tile["pips_a"]) == t.tile.a and tile["pip_colour_a"] == list(t.pip_colour_a)
        box = np.array(tile["corners"])
        inside = bool(np.all((box >= 0) & (box < [640, 480])))
        assert tile["whole"] == inside


def test_the_command_writes_frames_and_labels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path), "--count", "3", "--start", "5", "--size", "320x240"]) == 0
    lines = (tmp_path / "labels.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["seed"] for line in lines] == [5, 6, 7]
    for line in lines:
        labels = json.loads(line)
        image = cv2.imread(str(tmp_path / labels["image"]))
        assert image is not None and image.shape == (240, 320, 3)
        assert labels == {
            "image": labels["image"],
            **random_frame(labels["seed"], resolution=(320, 240)).labels(),
        }
    assert "3 frames of 320x240" in capsys.readouterr().out


@pytest.mark.slow
def test_the_contact_sheet_shows_every_set_and_layout(tmp_path: Path) -> None:
    out = tmp_path / "sheet.png"
    assert contact_main([str(out), "--random", "1"]) == 0
    sheet = cv2.imread(str(out))
    assert sheet is not None
    cells = len(TileStyle) + 5 + 1  # the sets, the layouts, one random frame
    rows = -(-cells // 4)
    assert sheet.shape == (360 * rows, 480 * 4, 3)
