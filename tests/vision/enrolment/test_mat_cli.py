"""`domino-table vision mat` (the PDF, its geometry as JSON) and `domino-table vision enrol
--mat IMAGE... --set S --state-dir DIR` (a photo of the filled mat: each slot judged in
words, the set model kept in DIR/set.json only when every slot holds its tile)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest
from click.testing import CliRunner

from cli.main import cli
from vision.set_model.model import load_model

from .mats import filled


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["vision", *args])
    return result.exit_code, result.stdout, result.stderr


def test_mat_writes_the_pdf_or_prints_its_geometry(tmp_path: Path) -> None:
    code, out, _ = run("mat", "--set", "double-nine", "--paper", "a3", str(tmp_path / "m.pdf"))
    assert code == 0 and out.strip().endswith("the double-nine mat, 55 slots on 2 a3 pages")
    assert (tmp_path / "m.pdf").read_bytes().startswith(b"%PDF")
    code, out, _ = run("mat", "--json", "--set", "double-twelve")
    data = json.loads(out)
    assert code == 0 and len(data["pages"]) == 7 and data["slot_mm"] == [32.0, 60.0]
    code, _, err = run("mat")
    assert code == 2 and "give OUT, the PDF to write (or --json for the geometry)" in err
    code, _, err = run("mat", str(tmp_path / "no" / "such" / "m.pdf"))
    assert code == 1 and "could not write the mat" in err


@pytest.mark.slow  # an enrolment from the mat: its reading and its tone tried
def test_enrol_from_the_mat_keeps_the_model_only_when_every_slot_is_right(
    tmp_path: Path,
) -> None:
    _, wrong = filled(faults=True)
    photo = tmp_path / "mat.png"
    assert cv2.imwrite(str(photo), wrong.image)
    state = tmp_path / "state"
    code, out, err = run("enrol", "--mat", str(photo), "--set", "double-six",
                         "--state-dir", str(state))  # fmt: skip
    assert code == 1, err
    assert json.loads(out)["missing"] == ["1-0", "3-2"]
    assert "  3-2 (page 1): the slot is empty" in err
    assert "  6-6 (page 2): holds another tile (read as 5-4)" in err
    assert "not enrolled: 24 of the 28 slots hold their tile" in err
    assert not (state / "set.json").exists()

    _, right = filled()
    assert cv2.imwrite(str(photo), right.image)
    code, out, err = run("enrol", "--mat", str(photo), "--paper", "a4",
                         "--state-dir", str(state))  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["missing"] == [] and json.loads(out)["mat"]["pages_seen"] == [1, 2]
    assert "enrolled: all 28 tiles of the double-six set lie in their slots" in err
    model = load_model(state)
    assert model is not None and model.source == "mat" and len(model.halves) == 56
