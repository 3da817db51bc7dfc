"""Every net the package ships is the file `vision/learned/models.toml` records (its
sha256), with a record of how it was made; a file that is not the recorded one is
refused in words that say what to do, and so is a malformed manifest."""

from __future__ import annotations

import hashlib
import re
import threading
import tomllib
from dataclasses import replace
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from vision.learned import LearnedError, tile_scores
from vision.learned import net as learned_net
from vision.learned.manifest import checked_bytes, nets, parse

FOLDER = Path(str(resources.files("vision.learned")))
THRESHOLDS = ("0.02", "0.05", "0.1", "0.2", "0.3", "0.5")  # training.figures.THRESHOLDS
KINDS = {"drawn", "found", "false", "wrong_place", "anywhere"}
RECORD = tomllib.loads((FOLDER / "models.toml").read_text(encoding="utf-8"))


def test_every_shipped_net_is_the_file_its_record_names() -> None:
    recorded = nets()
    assert [n.name for n in recorded] == ["veto_a", "veto_b"]
    for net in recorded:
        data = (FOLDER / net.file).read_bytes()
        assert hashlib.sha256(data).hexdigest() == net.sha256, net.file
        assert len(data) == net.size, net.file
        assert checked_bytes(net) == data


def test_every_net_file_in_the_package_is_recorded() -> None:
    assert {p.name for p in FOLDER.glob("*.onnx")} == {n.file for n in nets()}


@pytest.mark.parametrize("name", ["veto_a", "veto_b"])
def test_each_record_says_how_its_net_was_made(name: str) -> None:
    record = RECORD["nets"][name]
    trained = record["trained"]
    assert re.fullmatch(r"[0-9a-f]{40}", trained["commit"])
    assert trained["recipe"].startswith(f"python -m training.recipe {name} ")
    assert trained["steps"] and isinstance(trained["seed"], int)
    assert trained["training_steps"] > 0
    data = record["data"]
    assert data["frames"] == sum(r["to"] - r["from"] + 1 for r in data["seeds"])
    assert data["patches"] > data["frames"]
    validation = record["validation"]
    assert validation["frames"] == sum(r["to"] - r["from"] + 1 for r in validation["seeds"])
    assert validation["patches"] == sum(validation["kinds"].values())
    assert set(validation["right"]) == set(THRESHOLDS)
    for row in validation["right"].values():
        assert set(row) == KINDS and all(0.0 <= v <= 1.0 for v in row.values())
    # the figures shipped with the threshold the detector uses
    assert validation["right"][str(RECORD["veto"]["threshold"])]["found"] >= 0.99


def test_the_training_and_validation_frames_do_not_meet() -> None:
    for record in RECORD["nets"].values():
        trained = [(r["from"], r["to"]) for r in record["data"]["seeds"]]
        for r in record["validation"]["seeds"]:
            assert all(r["to"] < a or r["from"] > b for a, b in trained)


def _fresh(monkeypatch: pytest.MonkeyPatch, *recorded: object) -> None:
    monkeypatch.setattr(learned_net, "nets", lambda: recorded)
    monkeypatch.setattr(learned_net, "_local", threading.local())


def test_a_net_whose_hash_is_not_recorded_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    first = nets()[0]
    other = replace(first, sha256="0" * 64)
    with pytest.raises(LearnedError, match=r"veto_a\.onnx is not the net .*models\.toml records"):
        checked_bytes(other)
    _fresh(monkeypatch, other)
    with pytest.raises(LearnedError, match=rf"sha256 {first.sha256}.*reinstall domino-table"):
        tile_scores(np.zeros((32, 32, 3), dtype=np.uint8), [((4.0, 4.0), (20.0, 4.0))])


def test_a_net_for_another_patch_size_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    _fresh(monkeypatch, replace(nets()[1], width=64))
    with pytest.raises(LearnedError, match=r"veto_b\.onnx takes patches of 64 x 32 pixels"):
        tile_scores(np.zeros((32, 32, 3), dtype=np.uint8), [((4.0, 4.0), (20.0, 4.0))])


GOOD = """
[nets.n]
file = "n.onnx"
sha256 = "%s"
bytes = 10
input = { width = 48, height = 32 }
"""


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("nets = [", r"models\.toml is not TOML"),
        ("", r"records no net"),
        ("[nets]\nn = 1", r"nets\.n must be a table"),
        ((GOOD % ("ab" * 32)).replace('"n.onnx"', "3"), r"nets\.n\.file must be a string"),
        (GOOD % ("AB" * 32), r"nets\.n\.sha256 must be 64 lower-case hex digits"),
        ((GOOD % ("ab" * 32)).replace("bytes = 10", "bytes = true"), r"bytes must be an integer"),
        ((GOOD % ("ab" * 32)).replace("input = ", "shape = "), r"nets\.n\.input must be a table"),
        ((GOOD % ("ab" * 32)).replace("height", "rows"), r"nets\.n\.input\.height must be"),
    ],
)
def test_a_malformed_manifest_is_refused_in_words(text: str, said: str) -> None:
    with pytest.raises(LearnedError, match=said):
        parse(text)


def test_a_good_manifest_is_read_in_its_order() -> None:
    text = (GOOD % ("ab" * 32)) + (GOOD % ("cd" * 32)).replace("nets.n]", "nets.m]")
    assert [(n.name, n.sha256[:2], n.width, n.height) for n in parse(text)] == [
        ("n", "ab", 48, 32),
        ("m", "cd", 48, 32),
    ]
