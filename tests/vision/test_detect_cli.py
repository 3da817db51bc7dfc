"""`domino-table vision detect`: output shapes, drawings and bad inputs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import cv2
import pytest
from click.testing import CliRunner

from cli.main import cli
from tests.vision.detector.test_detect_synthetic import background, draw_tile


@pytest.fixture
def scene(tmp_path: Path) -> Path:
    img = background(400, 700, (60, 110, 40))
    draw_tile(img, (200, 150), (6, 3))
    draw_tile(img, (500, 250), (1, 2), vertical=True)
    path = tmp_path / "scene.png"
    cv2.imwrite(str(path), img)
    return path


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["vision", "detect", *args])
    return result.exit_code, result.stdout, result.stderr


def test_json_lines_have_the_documented_shape(scene: Path) -> None:
    code, out, err = invoke(str(scene), str(scene), "--json")
    assert code == 0, err
    lines = out.strip().splitlines()
    assert len(lines) == 2
    for line in lines:
        record = json.loads(line)
        assert list(record) == ["image", "tiles", "facedown", "ms"]
        assert record["image"] == str(scene)
        assert record["facedown"] == 0
        assert isinstance(record["ms"], float)
        tiles = sorted(record["tiles"], key=lambda t: t["pips"])
        assert [t["pips"] for t in tiles] == [[1, 2], [6, 3]]
        for t in tiles:
            assert list(t) == ["pips", "px", "confidence"]
            assert len(t["px"]) == 2 and all(len(p) == 2 for p in t["px"])
            assert 0.0 <= t["confidence"] <= 1.0
        six_three = tiles[1]
        assert six_three["px"][0] == pytest.approx([170, 150], abs=5)
        assert six_three["px"][1] == pytest.approx([230, 150], abs=5)


def test_readable_table_without_json(scene: Path) -> None:
    code, out, _ = invoke(str(scene))
    assert code == 0
    assert "2 tiles, 0 face down" in out
    assert " 6-3 " in out and " 1-2 " in out


def test_area_limits_the_search(scene: Path) -> None:
    code, out, _ = invoke(str(scene), "--json", "--area", "0,0,350,400")
    assert code == 0
    assert [t["pips"] for t in json.loads(out)["tiles"]] == [[6, 3]]


def test_bad_area_is_a_usage_error(scene: Path) -> None:
    code, _, err = invoke(str(scene), "--area", "10,10,5")
    assert code == 2
    assert "x0,y0,x1,y1" in err


def test_show_draws_over_the_image(scene: Path, tmp_path: Path) -> None:
    out_png = tmp_path / "found.png"
    code, _, err = invoke(str(scene), "--show", str(out_png))
    assert code == 0, err
    drawn = cv2.imread(str(out_png))
    original = cv2.imread(str(scene))
    assert drawn is not None and original is not None and drawn.shape == original.shape
    assert (drawn != original).any()


def test_bad_files_are_named_and_the_rest_still_run(scene: Path, tmp_path: Path) -> None:
    missing = tmp_path / "missing.jpg"
    text = tmp_path / "notes.jpg"
    text.write_text("not a photo")
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    code, out, err = invoke(str(missing), str(text), str(empty), str(scene), "--json")
    assert code == 1
    assert f"{missing}: no such file" in err
    assert f"{text}: not an image" in err
    assert f"{empty}: the file is empty" in err
    records = [json.loads(line) for line in out.strip().splitlines()]
    assert [r["image"] for r in records] == [str(scene)]


def test_a_play_area_off_the_image_is_an_error_naming_it(scene: Path) -> None:
    code, out, err = invoke(str(scene), "--area", "5000,5000,6000,6000")
    assert code == 1
    assert out == ""
    assert f"{scene}: the play area lies outside the 700x400 frame" in err


def test_dark_sets_by_tone(tmp_path: Path) -> None:
    img = background(400, 700, (150, 160, 150))
    draw_tile(img, (300, 200), (5, 2), face=(25, 25, 30), pip=(240, 240, 240))
    path = tmp_path / "dark.png"
    cv2.imwrite(str(path), img)
    code, out, _ = invoke(str(path), "--json", "--tone", "dark")
    assert code == 0
    assert [t["pips"] for t in json.loads(out)["tiles"]] == [[5, 2]]


def test_explain_prints_which_looks_ran_and_what_each_did(scene: Path) -> None:
    code, out, err = invoke(str(scene), "--tone", "light", "--explain")
    assert code == 0, err
    assert "search passes" in out
    first = r"first-reading \(frame\): ran 1x, [\d.]+ passes, [\d.]+ ms, tiles \+2 -0"
    assert re.search(first, out)
    code, out, err = invoke(str(scene), "--tone", "light", "--explain", "--json")
    assert code == 0, err
    record = json.loads(out)
    assert record["passes"] > 0
    first = next(r for r in record["looks"] if r["name"] == "first-reading")
    assert first["added"] == 2 and first["grain"] == "frame"
