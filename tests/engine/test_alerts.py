"""The alert codes are the spec's, and every language says every one with the same blanks."""

from __future__ import annotations

import json
import string

import pytest

from engine.alerts import AlertCode, Severity
from engine.events import Reason
from engine.messages import CATALOGUES, LANGUAGES, Case, hint, message
from tests.fixtures.spec import SCHEMA_PATH


def blanks(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_the_codes_are_the_specs_and_only_those() -> None:
    schema = json.loads(SCHEMA_PATH.read_text())
    alert = schema["$defs"]["alert"]["properties"]
    assert [c.value for c in AlertCode] == alert["code"]["enum"]
    assert {s.value for s in Severity} == set(alert["severity"]["enum"])


def test_each_code_has_its_default_severity() -> None:
    assert AlertCode.NO_MATCH.severity is Severity.ILLEGAL
    assert AlertCode.LEAD_UNKNOWN.severity is Severity.WARNING
    assert AlertCode.UNREADABLE.severity is Severity.WARNING
    assert AlertCode.CAMERA_OFFLINE.severity is Severity.FAULT
    assert AlertCode.OUT_OF_TURN.severity is Severity.ILLEGAL


def test_every_reason_but_ok_maps_onto_a_code() -> None:
    for reason in Reason:
        if reason is Reason.OK:
            with pytest.raises(KeyError):
                _ = reason.alert_code
        else:
            assert isinstance(reason.alert_code, AlertCode)
    assert Reason.AMBIGUOUS_END.alert_code is AlertCode.NOT_TOUCHING


def test_out_of_turn_and_out_of_phase_and_forbidden_draws_have_their_own_codes() -> None:
    """Issue 15, finding 3: OUT_OF_TURN and BAD_DRAW, always illegal; COUNT_MISMATCH is
    for counts (and a tile a known hand does not hold)."""
    out_of_turn = {Reason.OUT_OF_TURN, Reason.WRONG_PHASE, Reason.MUST_DRAW}
    out_of_turn.add(Reason.NOTHING_TO_UNDO)
    bad_draw = {Reason.NO_DRAWING, Reason.BONEYARD_EMPTY}
    for reason in Reason:
        if reason in out_of_turn:
            assert reason.alert_code is AlertCode.OUT_OF_TURN, reason
        elif reason in bad_draw:
            assert reason.alert_code is AlertCode.BAD_DRAW, reason
        elif reason is not Reason.OK:
            assert reason.alert_code not in (AlertCode.OUT_OF_TURN, AlertCode.BAD_DRAW), reason
        if reason is not Reason.OK:
            assert reason.severity is reason.alert_code.severity, reason
    assert {r.severity for r in out_of_turn | bad_draw} == {Severity.ILLEGAL}
    counts = {r for r in Reason if r is not Reason.OK and r.alert_code is AlertCode.COUNT_MISMATCH}
    assert counts == {Reason.COUNT_MISMATCH, Reason.NOT_IN_HAND}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_says_every_code_with_a_hint(language: str) -> None:
    catalogue = CATALOGUES[language]
    assert set(catalogue.codes) == set(AlertCode)
    assert set(catalogue.finer) == set(CATALOGUES["en"].finer)
    for code in AlertCode:
        assert hint(code, language) and not blanks(hint(code, language)), code


def test_each_sentence_takes_the_same_blanks_in_every_language() -> None:
    english, spanish = CATALOGUES["en"], CATALOGUES["es"]
    for code in AlertCode:
        assert blanks(english.codes[code].say) == blanks(spanish.codes[code].say), code
    for key, sentence in english.finer.items():
        assert blanks(sentence) == blanks(spanish.finer[key]), key


def test_a_reason_without_a_sentence_of_its_own_says_its_codes() -> None:
    assert message(Reason.FALSE_KNOCK, "es", seat="Ana", tile="6-4") == message(
        AlertCode.FALSE_KNOCK, "es", seat="Ana", tile="6-4"
    )
    assert message(Reason.NOTHING_TO_UNDO) == "Nothing to take back."
    assert message(Reason.MUST_DRAW, "en", seat="Ana").startswith("Ana cannot pass yet")
    assert Case.UNREAD_TILE.alert_code is AlertCode.UNREADABLE
    assert message(Case.UNREAD_TILE, "en", tile="6-4").startswith("6-4 is not read")


def test_the_offline_sentences_keep_their_detail_in_both_languages() -> None:
    for language in LANGUAGES:
        text = message(AlertCode.BOARD_OFFLINE, language, detail="no answer for 3 s")
        assert text.endswith("no answer for 3 s"), language
    assert message(AlertCode.BOARD_OFFLINE, "en", detail="") == (
        "The board is offline: plays are not seen."
    )
    assert message(AlertCode.CAMERA_OFFLINE, "es", detail="") == "La cámara no responde."


@pytest.mark.parametrize(("language", "said"), [("en", "6 or 4"), ("es", "6 o 4")])
def test_several_choices_in_a_blank_are_said_as_choices(language: str, said: str) -> None:
    assert message(AlertCode.NO_MATCH, language, tile="2-1", pip=(6, 4)).endswith(f"{said}.")
    assert message(AlertCode.NO_MATCH, language, tile="2-1", pip=(5,)).endswith(" 5.")
    three = message(AlertCode.FALSE_KNOCK, "en", seat="Ana", tile=("5-4", "5-2", "3-3"))
    assert three == "Ana passed holding 5-4, 5-2 or 3-3, which fitted."
