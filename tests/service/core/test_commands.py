"""Command parsing: typed values per action, and a clear sentence for each refusal."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import Tile
from engine.inputs import Correct, Count, Draw, Lead, NewGame, Pass, Rename, Undo
from service.core.commands import (
    MAX_PAYLOAD_BYTES,
    Action,
    Command,
    CommandError,
    GameCommand,
    parse_command,
)
from tests.fixtures.spec import validate


def parse(body: object) -> Command:
    return parse_command(json.dumps(body).encode())


def refused(raw: bytes | object) -> CommandError:
    data = raw if isinstance(raw, bytes) else json.dumps(raw).encode()
    with pytest.raises(CommandError) as info:
        parse_command(data)
    return info.value


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"id": "1", "action": "pass"}, GameCommand("1", Pass(seat=None))),
        ({"id": "2", "action": "pass", "seat": 3}, GameCommand("2", Pass(seat=3))),
        ({"id": "3", "action": "draw", "seat": 1}, GameCommand("3", Draw(seat=1, count=1))),
        ({"id": "4", "action": "lead", "seat": 0}, GameCommand("4", Lead(seat=0))),
        ({"id": "5", "action": "undo"}, GameCommand("5", Undo())),
        (
            {"id": "6", "action": "correct", "tile": "4-6", "as": "6-5"},
            GameCommand("6", Correct(tile=Tile(6, 4), actual=Tile(6, 5))),
        ),
        (
            {"id": "7", "action": "count", "seat": 2, "tiles": ["1-2", "5-5"]},
            GameCommand("7", Count(seat=2, tiles=(Tile(2, 1), Tile(5, 5)))),
        ),
        (
            {"id": "8", "action": "count", "seat": 2, "pips": 13},
            GameCommand("8", Count(seat=2, pips=13)),
        ),
        (
            {"id": "9", "action": "rename", "seat": 1, "name": " Ana "},
            GameCommand("9", Rename(seat=1, name="Ana")),
        ),
        (
            {
                "id": "10",
                "action": "new_game",
                "rules": "walnut",
                "seats": ["A", "B", "C", "D"],
                "teams": [0, 1, 0, 1],
            },
            GameCommand(
                "10",
                NewGame(rules="walnut", seats=4, names=("A", "B", "C", "D"), teams=(0, 1, 0, 1)),
            ),
        ),
        (
            {
                "id": "11",
                "action": "new_game",
                "rules": "wooden",
                "seats": 2,
                "target": 100,
                "language": "es",
            },
            GameCommand("11", NewGame(rules="wooden", seats=2, target=100, language="es")),
        ),
    ],
)
def test_valid_commands_parse_to_typed_values(body: dict[str, object], expected: object) -> None:
    validate("command", body)
    assert parse(body) == expected


def test_every_action_parses_and_round_trips() -> None:
    bodies: list[dict[str, Any]] = [
        {"id": "a", "action": "new_game", "rules": "walnut", "seats": ["A", "B"]},
        {"id": "b", "action": "next_hand"},
        {"id": "c", "action": "pass", "seat": 1},
        {"id": "d", "action": "draw", "count": 2},
        {"id": "e", "action": "lead", "seat": 1},
        {"id": "f", "action": "out", "seat": 1},
        {"id": "g", "action": "undo"},
        {"id": "h", "action": "correct", "tile": "6-6", "as": "6-5"},
        {"id": "i", "action": "count", "seat": 0, "pips": 0},
        {"id": "j", "action": "confirm"},
        {"id": "k", "action": "end_hand"},
        {"id": "l", "action": "rename", "seat": 0, "name": "Zoë"},
        {"id": "m", "action": "redeal"},
        {"id": "n", "action": "snapshot"},
        {"id": "o", "action": "calibrate"},
        {"id": "p", "action": "enrol", "set": "double-nine"},
        {"id": "p2", "action": "enrol", "set": "double-six", "mat": True},
        {"id": "q", "action": "history"},
        {"id": "r", "action": "history", "game_id": "20261122T041400123Z"},
        {"id": "s", "action": "frame", "game_id": "20261122T041400123Z", "seq": 12},
    ]
    assert {b["action"] for b in bodies} == {a.value for a in Action}
    for body in bodies:
        cmd = parse(body)
        as_dict = cmd.as_dict()
        assert as_dict["action"] == body["action"]
        assert parse(as_dict) == cmd


@pytest.mark.parametrize(
    ("raw", "cmd_id", "words"),
    [
        (b"not json", "", "not JSON"),
        (b"\xff\xfe", "", "not JSON"),
        (b"[1, 2]", "", "must be a JSON object"),
        ({"action": "pass"}, "", 'needs an "id"'),
        ({"id": "", "action": "pass"}, "", 'needs an "id"'),
        ({"id": 5, "action": "pass"}, "", 'needs an "id"'),
        ({"id": "x" * 129, "action": "pass"}, "", 'needs an "id"'),
        ({"id": "c1"}, "c1", "Unknown action null"),
        ({"id": "c1", "action": "shuffle"}, "c1", 'Unknown action "shuffle"'),
        ({"id": "c1", "action": "enrol", "set": "double-five"}, "c1", '"set" must be one of'),
        ({"id": "c1", "action": "enrol", "mat": "yes"}, "c1", '"mat" must be true or false'),
        ({"id": "c1", "action": "snapshot", "now": True}, "c1", '"snapshot" does not take'),
        ({"id": "c1", "action": "lead"}, "c1", '"lead" needs "seat"'),
        (
            {"id": "c1", "action": "lead", "seat": "2"},
            "c1",
            '"seat" must be a seat number from 0 to 9, not "2"',
        ),
        ({"id": "c1", "action": "lead", "seat": True}, "c1", "must be a seat number"),
        ({"id": "c1", "action": "pass", "seta": 1}, "c1", '"pass" does not take "seta"'),
        ({"id": "c1", "action": "draw", "count": 0}, "c1", '"count" must be a number of tiles'),
        (
            {"id": "c1", "action": "correct", "tile": "7-19", "as": "6-6"},
            "c1",
            '"tile" must be a tile',
        ),
        ({"id": "c1", "action": "count", "seat": 0}, "c1", 'either "tiles" or "pips"'),
        ({"id": "c1", "action": "count", "seat": 0, "tiles": "6-6"}, "c1", "list of tiles"),
        (
            {"id": "c1", "action": "new_game", "rules": "walnut", "seats": 11},
            "c1",
            "number of seats",
        ),
        (
            {"id": "c1", "action": "new_game", "rules": "walnut", "seats": 4, "teams": [0, 1]},
            "c1",
            "each of the 4 seats",
        ),
        (
            {"id": "c1", "action": "new_game", "rules": "walnut", "seats": 4, "language": "fr"},
            "c1",
            '"en" or "es"',
        ),
        ({"id": "c1", "action": "frame", "game_id": "g"}, "c1", '"frame" needs "seq"'),
        ({"id": "c1", "action": "frame", "seq": 3}, "c1", '"frame" needs "game_id"'),
        (
            {"id": "c1", "action": "frame", "game_id": "g", "seq": 0},
            "c1",
            '"seq" must be an event\'s seq from 1',
        ),
        ({"id": "c1", "action": "history", "game_id": ""}, "c1", '"game_id" must be a text'),
        ({"id": "c1", "action": "history", "game_id": "a\nb"}, "c1", "without control"),
        ({"id": "c1", "action": "history", "hand": 2}, "c1", '"history" does not take "hand"'),
    ],
)
def test_refusals_say_why(raw: object, cmd_id: str, words: str) -> None:
    err = refused(raw)
    assert err.cmd_id == cmd_id
    assert words in err.message
    assert err.message.endswith(".")


def test_huge_payload_is_refused_before_parsing() -> None:
    raw = json.dumps({"id": "big", "action": "undo", "pad": "x" * MAX_PAYLOAD_BYTES}).encode()
    err = refused(raw)
    assert err.cmd_id == "" and "at most 16384" in err.message
