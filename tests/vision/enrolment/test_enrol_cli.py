"""`domino-table vision enrol IMAGE... --set S --state-dir DIR`: a whole set read from
photos against its tile list, the enrol reply's detail printed as JSON, and the set's
look kept in DIR/set.json only when every tile was read right; the look then sets how
the camera path reads later frames."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from cli.main import cli
from engine.tiles import DominoSet, Tile
from tablesim.render import SETS, RenderStyle, Surface, TileStyle
from tests.vision.drawn import Look, blur, draw, table
from tests.vision.whole_sets import render_set
from vision.camera_path.pipeline import Pipeline, PipelineSettings
from vision.detector.settings import Settings
from vision.frames import Frame
from vision.tiles.dark_marks import Tone

MF = Path(__file__).resolve().parents[4] / "shared/data/vision/diverse-dev/images/mf__domino.jpg"


def enrol(*args: str) -> tuple[int, dict[str, Any] | None, str]:
    result = CliRunner().invoke(cli, ["vision", "enrol", *args])
    out = result.stdout.strip()
    return result.exit_code, json.loads(out) if out else None, result.stderr


def saved(state: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((state / "set.json").read_text())
    return data


def write(path: Path, image: np.ndarray) -> str:
    assert cv2.imwrite(str(path), image)
    return str(path)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("domino_set", "tiles", "surface", "tone"),
    [
        (DominoSet.DOUBLE_SIX, TileStyle.IVORY, Surface.GREEN_FELT, "light"),
        (DominoSet.DOUBLE_SIX, TileStyle.BLACK, Surface.WOOD, "dark"),
        (DominoSet.DOUBLE_NINE, TileStyle.COLOURED, Surface.WOOD, "light"),
    ],
)
def test_a_whole_rendered_set_is_enrolled_with_its_tone(
    tmp_path: Path, domino_set: DominoSet, tiles: TileStyle, surface: Surface, tone: str
) -> None:
    photo = write(tmp_path / "set.png", render_set(domino_set, RenderStyle(tiles, surface)).image)
    code, detail, err = enrol(photo, "--set", str(domino_set), "--state-dir", str(tmp_path))
    assert code == 0, err
    n = domino_set.size
    assert detail == {"expected": n, "read": n, "missing": [], "misread": [], "extra": []}
    look = saved(tmp_path)
    assert look["set"] == str(domino_set) and look["tone"] == tone and look["face"] is None
    assert sorted(map(int, look["pip_bgr"])) == list(range(1, domino_set.max_pip + 1))
    assert "enrolled: all" in err


@pytest.mark.slow
def test_a_whole_double_twelve_set_with_a_colour_per_number_is_enrolled(tmp_path: Path) -> None:
    """The big ivory double-twelve (56 x 28 mm, 7-12 in lines of four, a lavender 7 and a
    grey 12 beside a black 11), all 91 tiles turned this way and that, as the Pi HQ
    camera's 2028 x 1520 mode sees them: every tile read right, each number's pip
    colour kept nearest the one it was painted with."""
    style = RenderStyle(TileStyle.IVORY_TWELVE)
    frame = render_set(DominoSet.DOUBLE_TWELVE, style, resolution=(2028, 1520)).image
    code, detail, err = enrol(write(tmp_path / "set.png", frame), "--set", "double-twelve",
                              "--state-dir", str(tmp_path))  # fmt: skip
    assert code == 0, (err, detail)
    assert detail == {"expected": 91, "read": 91, "missing": [], "misread": [], "extra": []}
    look = saved(tmp_path)
    assert look["set"] == "double-twelve" and look["tone"] == "light"
    painted = np.asarray(SETS[TileStyle.IVORY_TWELVE].pips[1:], dtype=np.float64)
    for n, colour in look["pip_bgr"].items():
        nearest = int(np.argmin(np.linalg.norm(painted - np.asarray(colour), axis=1))) + 1
        assert nearest == int(n), (n, colour)


def test_the_pips_colour_of_each_number_is_measured() -> None:
    """A double-nine with the usual colour code: each number's measured pip colour is
    nearest the colour the renderer painted that number with."""
    frame = render_set(DominoSet.DOUBLE_NINE, RenderStyle.clean(TileStyle.COLOURED)).image
    pipeline = Pipeline(PipelineSettings())
    enrolment = pipeline.enrol([Frame(frame, 0.0)], DominoSet.DOUBLE_NINE, _now())
    assert enrolment.ok and enrolment.model is not None
    painted = np.asarray(SETS[TileStyle.COLOURED].pips[1:10], dtype=np.float64)
    for n, colour in enrolment.model.pip_bgr.items():
        nearest = int(np.argmin(np.linalg.norm(painted - np.asarray(colour), axis=1))) + 1
        assert nearest == n, (n, colour)


def test_a_tile_not_on_the_table_is_named_and_nothing_is_kept(tmp_path: Path) -> None:
    frame = render_set(DominoSet.DOUBLE_SIX, RenderStyle(), leave_out=(Tile(5, 3),)).image
    code, detail, err = enrol(write(tmp_path / "set.png", frame), "--state-dir", str(tmp_path))
    assert code == 1
    assert detail == {"expected": 28, "read": 27, "missing": ["5-3"], "misread": [], "extra": []}
    assert "not enrolled: 27 of the 28 tiles" in err and "enrol again" in err
    assert not (tmp_path / "set.json").exists()


@pytest.mark.slow
def test_the_wrong_set_named_says_which_set_it_is(tmp_path: Path) -> None:
    frame = render_set(DominoSet.DOUBLE_NINE, RenderStyle(TileStyle.COLOURED)).image
    code, detail, err = enrol(write(tmp_path / "set.png", frame), "--state-dir", str(tmp_path))
    assert code == 1 and detail is not None
    assert detail["read"] == 55 and len(detail["extra"]) == 27 and detail["missing"] == []
    assert "is it a double-nine set?" in err


def test_a_set_in_two_photos_is_read_as_one(tmp_path: Path) -> None:
    tiles = DominoSet.DOUBLE_SIX.tiles()
    first = render_set(DominoSet.DOUBLE_SIX, RenderStyle(), leave_out=tiles[:14]).image
    second = render_set(DominoSet.DOUBLE_SIX, RenderStyle(), leave_out=tiles[14:], seed=1).image
    photos = [write(tmp_path / "a.png", first), write(tmp_path / "b.png", second)]
    code, detail, err = enrol(*photos, "--state-dir", str(tmp_path))
    assert code == 0, err
    assert detail is not None and detail["read"] == 28 and detail["missing"] == []


def test_on_a_calibrated_camera_the_tile_size_is_kept_in_mm(tmp_path: Path) -> None:
    frame = render_set(DominoSet.DOUBLE_SIX, RenderStyle()).image
    Pipeline(PipelineSettings(), tmp_path).calibrate(frame)  # the markers in view, saved
    code, _, err = enrol(write(tmp_path / "set.png", frame), "--state-dir", str(tmp_path))
    assert code == 0, err
    length, width = saved(tmp_path)["tile_mm"]
    assert abs(width - 24.0) <= 1.0 and length == 2 * width  # the renderer's 48 x 24 mm


RED, WHITE, FELT = (40, 40, 200), (240, 240, 240), (60, 120, 40)


def _red_tiles(values: list[tuple[int, int]], width: float = 46.0) -> np.ndarray:
    img = table(130 + 110 * ((len(values) - 1) // 7), 820, FELT)
    look = Look(face=RED, pips=WHITE, divider=WHITE)
    for i, value in enumerate(values):
        draw(img, (70.0 + (i % 7) * 113, 65.0 + (i // 7) * 110), value, 90.0, width, look)
    return blur(img)


def test_a_coloured_set_keeps_its_faces_colour_and_later_frames_are_read_by_it(
    tmp_path: Path,
) -> None:
    """Red plastic tiles with white pips on green felt: the light tone the camera is
    configured with reads none of them; once enrolled, the camera path reads them by
    the faces' colour kept in the state directory."""
    whole = [(t.high, t.low) for t in DominoSet.DOUBLE_SIX.tiles()]
    code, detail, err = enrol(write(tmp_path / "red.png", _red_tiles(whole)), "--state-dir",
                              str(tmp_path))  # fmt: skip
    assert code == 0, (err, detail)
    face = saved(tmp_path)["face"]
    assert face is not None and np.linalg.norm(np.subtract(face, RED)) < 40, face

    later = _red_tiles([(6, 6), (5, 2), (0, 4)], width=40.0)
    configured = PipelineSettings(detector=Settings(tone=Tone.LIGHT))
    before = read_still(Pipeline(configured), later)  # no state directory: no set enrolled
    assert before != [[0, 4], [2, 5], [6, 6]]
    pipeline = Pipeline(configured, tmp_path)
    assert pipeline.model is not None and pipeline.settings.detector.face is not None
    assert read_still(pipeline, later) == [[0, 4], [2, 5], [6, 6]]


def read_still(pipeline: Pipeline, image: np.ndarray) -> list[list[int]]:
    """The tiles the camera path reads once `image` has lain still long enough."""
    for k in range(20):
        step = pipeline.step(Frame(image, k * 0.1))
        if step.detection is not None:
            return sorted(sorted(t.pips) for t in step.detection.tiles)
    raise AssertionError("the camera path never read the still frame")


@pytest.mark.photos
def test_a_real_photo_of_a_whole_set_says_what_it_missed(tmp_path: Path) -> None:
    """mf's photo shows all 28 tiles of a double-six on a wooden desk (read at run time
    from ../shared). Whatever the detector reads of it, the detail accounts for every
    tile: each tile of the set is read right, missing or misread, and no look is kept
    unless all 28 were read right."""
    assert MF.is_file(), f"{MF}: the shared photos are needed (see DEVELOPERS.md)"
    code, detail, err = enrol(str(MF), "--state-dir", str(tmp_path))
    assert detail is not None and detail["expected"] == 28, err
    wrong = {*detail["missing"], *(m["tile"] for m in detail["misread"])}
    assert wrong <= {t.text for t in DominoSet.DOUBLE_SIX.tiles()}
    assert detail["read"] == 28 - len(detail["missing"]) + len(detail["extra"])
    assert (code == 0) == (not wrong and not detail["extra"])
    assert (tmp_path / "set.json").exists() == (code == 0)
    assert len(wrong) <= 2, detail  # phase 1 of issue 13 reads 26 of its 28 tiles


def test_a_photo_that_is_not_there_is_named(tmp_path: Path) -> None:
    code, detail, err = enrol(str(tmp_path / "none.png"), "--state-dir", str(tmp_path))
    assert code == 1 and detail is None
    assert "none.png: no such file" in err


def _now() -> datetime:
    return datetime.now(UTC)
