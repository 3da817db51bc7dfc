"""Commands from the page are checked before they reach the table."""

from __future__ import annotations

import pytest

from display.commands import build_command
from display.errors import CommandError
from tests.fixtures.spec import validate


@pytest.mark.parametrize(
    "body",
    [
        {"action": "pass"},
        {"action": "pass", "seat": 2},
        {"action": "draw", "count": 2},
        {"action": "undo"},
        {"action": "confirm"},
        {"action": "confirm", "seat": 1},  # a finished game's result, confirmed by seat 1
        {"action": "next_hand"},
        {"action": "end_hand"},
        {"action": "redeal"},
        {"action": "lead", "seat": 1},
        {"action": "out", "seat": 3},
        {"action": "count", "seat": 1, "pips": 12},
        {"action": "count", "seat": 1, "tiles": ["6-4", "1-2"]},
        {"action": "correct", "tile": "6-2", "as": "6-3"},
        {"action": "rename", "seat": 0, "name": "Ana"},
        {"action": "new_game", "rules": "walnut", "seats": ["Ana", "Ben"], "target": 100},
        {"action": "new_game", "rules": "puerto-rico", "seats": 4, "teams": [0, 1, 0, 1]},
        {"action": "snapshot"},
        {"action": "calibrate"},
        {"action": "enrol"},
        {"action": "enrol", "set": "double-twelve"},
    ],
)
def test_valid_commands_get_an_id_and_match_the_schema(body: dict[str, object]) -> None:
    command = build_command(body)
    validate("command", command)
    assert command["action"] == body["action"]
    assert command["id"].startswith("display-")


def test_the_page_may_choose_the_id_so_a_retry_is_not_applied_twice() -> None:
    assert build_command({"id": "page-1", "action": "undo"})["id"] == "page-1"


def test_tiles_are_written_high_first() -> None:
    command = build_command({"action": "count", "seat": 0, "tiles": ["2-6", "3-3"]})
    assert command["tiles"] == ["6-2", "3-3"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"action": "fly"}, "unknown action"),
        ("pass", "JSON object"),
        ({"action": "lead"}, "needs seat"),
        ({"action": "pass", "seat": -1}, "seat"),
        ({"action": "pass", "colour": "red"}, "takes no colour"),
        ({"action": "correct", "tile": "6-2", "as": "banana"}, "not a tile"),
        ({"action": "count", "seat": 0}, "either tiles or pips"),
        ({"action": "count", "seat": 0, "pips": 3, "tiles": []}, "either tiles or pips"),
        ({"action": "rename", "seat": 0, "name": " "}, "name"),
        ({"action": "undo", "id": "x" * 200}, "command id"),
        ({"action": "undo", "id": "u1\n"}, "command id"),
        ({"action": "draw", "count": True}, "count"),
        ({"action": "new_game", "rules": "walnut", "seats": 4, "teams": [[0, 2]]}, "team"),
        ({"action": "rename", "seat": 0, "name": "x" * 33}, "1 to 32"),
        ({"action": "enrol", "set": "double-five"}, "set is one of"),
        ({"action": "calibrate", "now": True}, "takes no now"),
    ],
)
def test_bad_commands_are_refused_with_a_reason(body: object, words: str) -> None:
    with pytest.raises(CommandError, match=words):
        build_command(body)
