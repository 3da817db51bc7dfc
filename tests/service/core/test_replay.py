"""`domino-table replay` reads the one notation of `engine.inputs`, and the lines written
before it (issue 23 point 2): each old line is the input it meant.

The scenarios of tests/engine/replays are written in the notation (most) or the old lines
(three of them); each one, written either way, replays to the same events.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from engine.inputs import Counts, Draw, EndHand, Lead, NewGame, Play, read
from engine.layout import EdgeKind, Target
from engine.tiles import Tile
from service.core.replay import ReplayError, legacy_input, replay

REPLAYS = Path(__file__).parents[2] / "engine" / "replays"
CLOCK = datetime(2025, 1, 31, 20, 0, tzinfo=UTC)


def outputs(lines: list[str]) -> list[Any]:
    return [(o.line, o.payload, o.error, o.refused) for o in replay(lines, now=CLOCK)]


def old_line(obj: dict[str, Any], *, first: bool) -> dict[str, Any]:
    """An input as the replay files wrote it before the notation (the test's own
    rewriting, beside the service's reading of it)."""
    obj = dict(obj)
    action = obj.pop("action")
    if first:
        return obj
    if action == "play":
        play = {"seat": obj.get("seat"), "play": obj["tile"], "to": obj.get("to")}
        play |= {"end": obj.get("pip"), "edge": obj.get("kind")}
        return {k: v for k, v in play.items() if v is not None}
    if action in ("pass", "draw"):
        return {"seat": obj.get("seat"), action: obj.get("count", 1) if action == "draw" else True}
    if action in ("lead", "out"):
        return {action: obj["seat"]}
    if action == "counts":
        counts = {"count": obj.get("pips"), "tiles": obj.get("tiles"), "out": obj.get("out")}
        counts |= {"blocked": obj.get("blocked")}
        return {k: v for k, v in counts.items() if v is not None}
    if action == "correct":
        return {"correct": obj["tile"], "as": obj["as"]}
    return {action: True}


def rewritten(lines: list[str]) -> list[str]:
    """The file in the other notation: inputs as old lines, old lines as inputs."""
    out, first = [], True
    for line in lines:
        if not line.strip() or line.lstrip().startswith("#"):
            out.append(line)
            continue
        obj = json.loads(line)
        if "action" in obj:
            obj = old_line(obj, first=first)
        else:
            obj = read(legacy_input(obj, first=first)).to_json()
        first = False
        out.append(json.dumps(obj))
    return out


@pytest.mark.parametrize("path", sorted(REPLAYS.glob("*.jsonl")), ids=lambda p: p.name)
def test_a_scenario_replays_the_same_in_either_notation(path: Path) -> None:
    lines = path.read_text().splitlines()
    assert rewritten(lines) != lines
    assert outputs(rewritten(lines)) == outputs(lines)


def test_some_scenarios_keep_the_old_lines() -> None:
    old = [p.name for p in REPLAYS.glob("*.jsonl") if '"action"' not in p.read_text()]
    assert sorted(old) == [
        "straight-block-knock-then-play.jsonl",
        "walnut-examples.jsonl",
        "wooden-out-beside-count.jsonl",
    ]


OLD_LINES: list[tuple[dict[str, Any], object]] = [
    ({"seat": 1, "play": "5-0", "to": "5-5"}, Play(Tile(5, 0), Target(Tile(5, 5)), seat=1)),
    (
        {"seat": 2, "play": "6-3", "to": "6-6", "end": 6, "edge": "arm"},
        Play(Tile(6, 3), Target(Tile(6, 6), 6, EdgeKind.ARM), seat=2),
    ),
    ({"seat": 2, "draw": True}, Draw(seat=2)),
    ({"seat": 2, "draw": 3}, Draw(seat=2, count=3)),
    ({"lead": 2}, Lead(2)),
    ({"blocked": True}, EndHand()),
    (
        {"count": [3, None], "tiles": [None, ["1-2"]], "out": 0},
        Counts(pips=(3, None), tiles=(None, (Tile(2, 1),)), out=0),
    ),
    ({"tiles": [[], ["1-2"]], "blocked": True}, Counts(tiles=((), (Tile(2, 1),)), blocked=True)),
]


@pytest.mark.parametrize(("old", "told"), OLD_LINES)
def test_an_old_line_is_the_input_it_meant(old: dict[str, Any], told: object) -> None:
    assert read(legacy_input(old, first=False)) == told


def test_an_old_header_is_a_new_game_with_team_numbers() -> None:
    lines = [
        '{"rules": "outdoor", "seats": 4, "teams": [[0, 2], [1, 3]], "names": ["A", "B", "C", "D"]}'
    ]
    (game,) = [o.payload for o in replay(lines)]
    assert game is not None and game["names"] == ["A", "B", "C", "D"]
    assert read(legacy_input({"rules": "walnut", "seats": 2}, first=True)) == NewGame("walnut", 2)


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ('{"blocked": false}', '"blocked" ends a hand: write {"blocked": true}'),
        ('{"shuffle": true}', "no input recognised; use one of: play, pass, draw"),
        ('{"action": "dance"}', 'Unknown action "dance"'),
        ('{"action": "play", "tile": "5-0", "kind": "arm"}', 'say where a tile joins "to"'),
        ('{"action": "confirm"}', 'a "confirm" that scores a hand needs the tiles counted'),
        ('{"action": "rename", "seat": 7, "name": "Ana"}', "there is no seat 7"),
    ],
)
def test_a_line_that_is_no_input_says_why(line: str, says: str) -> None:
    lines = ['{"action": "new_game", "rules": "walnut", "seats": 2}', line]
    errors = [o.error for o in replay(lines) if o.error]
    assert len(errors) == 1 and errors[0].startswith("line 2: ") and says in errors[0]


def test_the_first_line_starts_the_game() -> None:
    errors = [o.error for o in replay(['{"action": "pass"}']) if o.error]
    assert errors == [
        'line 1: the first line must start the game: {"action": "new_game", "rules": '
        '"walnut", "seats": 4}'
    ]
    with pytest.raises(ReplayError):
        legacy_input({"nothing": 1}, first=False)


def test_a_tables_confirm_scores_the_hand_from_the_tiles_it_counted() -> None:
    """The journal keeps a `confirm` with the tiles counted in the zones: it replays."""
    lines = [
        '{"action": "new_game", "rules": "straight-block", "seats": 2, "target": 10}',
        '{"action": "play", "tile": "6-6", "seat": 0, "xa": 450, "ya": 288, "xb": 450, "yb": 312}',
        '{"action": "end_hand"}',
        '{"action": "confirm", "tiles": [["1-0", "2-0", "2-1", "3-0", "3-1", "3-2"], '
        '["4-0", "4-1", "4-2", "4-3", "5-0", "5-1", "5-2"]]}',
        '{"action": "confirm", "seat": 1}',
    ]
    out = list(replay(lines))
    assert [o.error for o in out] == [None] * len(out)
    (hand,) = [o.payload for o in out if o.payload and o.payload["type"] == "hand"]
    assert (hand["result"], hand["winner"], hand["pips"]) == ("blocked", 0, [18, 40])
    (over,) = [o.payload for o in out if o.payload and o.payload.get("event") == "over"]
    assert over["winner"] == 0
    assert max(o.line for o in out) == 4  # the seat agreeing afterwards changes nothing
    (bad,) = list(replay([*lines[:3], '{"action": "confirm"}']))[-1:]
    assert bad.error is not None and "needs the tiles counted" in bad.error
