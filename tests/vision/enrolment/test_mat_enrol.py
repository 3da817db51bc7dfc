"""Enrolment from the mat, on rendered frames of a filled mat on a table: no tile is
searched for; each slot is looked at where the mat says and judged in words (empty,
another tile, face down); a whole mat gives the set model: its colours, tile and pip
size, a crop of every half, and the detector's way that reads the set in play."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import numpy as np
import pytest

from engine.tiles import DominoSet, Tile
from vision.enrolment.mat_enrol import enrol_mat, paper_of
from vision.enrolment.mat_read import SlotState, read_mat
from vision.errors import VisionError
from vision.tiles.dark_marks import Tone

from .mats import PINK_ON_WOOD, filled

AT = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)


@pytest.mark.slow
def test_each_slot_is_judged_and_what_is_wrong_said_in_words() -> None:
    scene, frame = filled(faults=True)
    reading = read_mat([frame.image], scene.mat)
    assert reading.pages_seen == ((1, 2),)
    wrong = {s.tile.text: s for s in reading.wrong()}
    assert sorted(wrong) == ["1-0", "3-2", "5-4", "6-6"]
    assert wrong["3-2"].state is SlotState.EMPTY
    assert wrong["1-0"].state is SlotState.FACE_DOWN
    assert wrong["6-6"].state is SlotState.OTHER and wrong["6-6"].holds == Tile(5, 4)
    assert wrong["5-4"].holds == Tile(6, 6)
    assert wrong["3-2"].sentence() == "3-2 (page 1): the slot is empty"
    assert wrong["1-0"].sentence() == "1-0 (page 1): the tile lies face down"
    assert wrong["6-6"].sentence() == "6-6 (page 2): holds another tile (read as 5-4)"
    # a tile turned end for end in its slot is fine: about half of them are
    ends = [s.read for s in reading.slots if s.state is SlotState.RIGHT and s.read]
    assert sum(1 for a, b in ends if a < b) >= 5 and sum(1 for a, b in ends if a > b) >= 5
    assert reading.summary() == "24 of the 28 slots hold their tile"


@pytest.mark.slow
def test_a_mat_with_faults_is_not_enrolled_and_the_reply_says_why() -> None:
    _, frame = filled(faults=True)
    enrolment = enrol_mat([frame.image], DominoSet.DOUBLE_SIX, AT)
    assert not enrolment.ok and enrolment.model is None
    detail = enrolment.detail()
    assert detail["expected"] == 28 and detail["read"] == 26 and detail["extra"] == []
    found = json.loads(json.dumps(detail))
    assert sorted(found["missing"]) == ["1-0", "3-2"]
    assert sorted(found["misread"], key=str) == [{"tile": "5-4", "as": "6-6"},
                                                 {"tile": "6-6", "as": "5-4"}]  # fmt: skip
    said = {s["tile"]: s["message"] for s in found["mat"]["slots"]}
    assert said["1-0"] == "1-0 (page 1): the tile lies face down"


@pytest.mark.slow  # an enrolment from the mat: its reading and its tone tried
def test_a_whole_mat_gives_the_set_model() -> None:
    _, frame = filled()
    assert paper_of([frame.image], DominoSet.DOUBLE_SIX).paper == "a4"
    enrolment = enrol_mat([frame.image], DominoSet.DOUBLE_SIX, AT)
    assert enrolment.ok, enrolment.detail()
    model = enrolment.model
    assert model is not None and model.source == "mat" and model.at == AT
    assert model.tile_mm == pytest.approx((48.0, 24.0), abs=1.5)
    assert model.pip_mm is not None and 4.0 < model.pip_mm < 8.0  # the set's large pips
    assert model.pip_round is not None and model.pip_round > 0.8
    # pink faces, yellow pips (BGR), as drawn before light and sensor
    pink = np.array(PINK_ON_WOOD.tile_set.face, dtype=float)
    assert np.abs(np.array(model.face_bgr) - pink).max() < 40
    for n in range(1, 7):
        b, g, r = model.pip_bgr[n]
        assert r > 150 and g > 140 and b < 110, (n, model.pip_bgr[n])
    assert sorted({h.value for h in model.halves}) == list(range(7))
    assert len(model.halves) == 56
    # pink plastic is read in play by its faces' colour, or as a light set
    assert model.tone is Tone.LIGHT


@pytest.mark.slow  # an enrolment from the mat: its reading and its tone tried
def test_pages_in_two_photos_enrol_the_set_together() -> None:
    _, frame = filled()
    image = frame.image
    w = image.shape[1]
    left, right = image.copy(), image.copy()
    left[:, w // 2 :] = 40  # each photo shows one page
    right[:, : w // 2] = 40
    enrolment = enrol_mat([left, right], DominoSet.DOUBLE_SIX, AT)
    assert enrolment.reading.pages_seen == ((1,), (2,))
    assert enrolment.ok


def test_a_mat_out_of_view_is_said() -> None:
    _, frame = filled()
    with pytest.raises(VisionError, match="no page of a double-six mat in view"):
        enrol_mat([np.zeros_like(frame.image)], DominoSet.DOUBLE_SIX, AT)
