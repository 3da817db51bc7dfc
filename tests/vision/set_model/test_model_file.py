"""The set model's file (`set.json`): versioned, written whole, read back as it was; an
older file (the set's look, version 1) read without halves; a newer or damaged one
refused with a sentence; a player's corrections kept, at most a few per number."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from engine.tiles import DominoSet
from vision.set_model.halves import CROP
from vision.set_model.model import (
    CORRECTED_PER_NUMBER,
    VERSION,
    Half,
    ModelError,
    SetModel,
    load_model,
)
from vision.tiles.dark_marks import Tone

AT = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)


def crop(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 255, (CROP, CROP, 3), dtype=np.uint8)


def model() -> SetModel:
    halves = tuple(Half(v, crop(10 * v + k)) for v in range(7) for k in range(2))
    return SetModel(
        DominoSet.DOUBLE_SIX, AT, Tone.LIGHT, (180.0, 140.0, 220.0), (181.0, 139.5, 221.0),
        {1: (30.0, 210.0, 250.0)}, (40.0, 190.0, 230.0), 31.5, (48.4, 24.8), 5.8, 0.234,
        0.93, "mat", halves,
    )  # fmt: skip


def test_written_and_read_back_as_it_was(tmp_path: Path) -> None:
    path = model().save(tmp_path)
    data = json.loads(path.read_text())
    assert data["version"] == VERSION == 2 and data["source"] == "mat"
    back = load_model(tmp_path)
    assert back is not None
    assert back.to_json() == data
    assert [h.value for h in back.halves] == [h.value for h in model().halves]
    for a, b in zip(back.halves, model().halves, strict=True):
        assert np.array_equal(a.crop, b.crop)  # PNG: no loss
    assert back.summary()["face"] == "#dd8cb5" and back.summary()["halves"] == 14
    assert not list(tmp_path.glob("*.tmp"))


def test_an_older_look_is_read_without_halves(tmp_path: Path) -> None:
    older = {"set": "double-nine", "at": AT.isoformat(), "tone": "dark", "face": None,
             "face_bgr": [30, 30, 30], "pip_bgr": {"1": [230, 230, 230]}, "tile_px": 30.0,
             "tile_mm": [48.0, 24.0]}  # fmt: skip
    (tmp_path / "set.json").write_text(json.dumps(older))
    got = load_model(tmp_path)
    assert got is not None and got.domino_set is DominoSet.DOUBLE_NINE and got.tone is Tone.DARK
    assert got.halves == () and got.matcher() is None and got.tile_mm == (48.0, 24.0)


def test_a_newer_or_damaged_file_is_refused_with_a_sentence(tmp_path: Path) -> None:
    data = model().to_json() | {"version": 3}
    (tmp_path / "set.json").write_text(json.dumps(data))
    with pytest.raises(ModelError, match=r"newer domino-table \(set model version 3; this one "
                       r"reads versions 1 to 2\): enrol the set again"):  # fmt: skip
        load_model(tmp_path)
    broken = model().to_json()
    broken["halves"]["png"] = "bm90IGEgcG5n"
    (tmp_path / "set.json").write_text(json.dumps(broken))
    with pytest.raises(ModelError, match="not a set model"):
        load_model(tmp_path)
    (tmp_path / "set.json").write_text("{")
    with pytest.raises(ModelError, match="enrol the set again"):
        load_model(tmp_path)
    assert load_model(tmp_path / "none") is None


def test_corrections_are_kept_a_few_per_number() -> None:
    m = model()
    for k in range(CORRECTED_PER_NUMBER + 3):
        m = m.learned(5, crop(100 + k))
    fives = [h for h in m.halves if h.value == 5]
    assert len(fives) == 2 + CORRECTED_PER_NUMBER  # the enrolled two stay
    kept = [h.crop for h in fives if h.corrected]
    assert np.array_equal(kept[-1], crop(100 + CORRECTED_PER_NUMBER + 2))  # the newest
    assert np.array_equal(kept[0], crop(103))  # the oldest dropped first
    with pytest.raises(ModelError, match="32x32 BGR"):
        m.learned(5, np.zeros((8, 8, 3), np.uint8))
