"""The event file: every problem named with the file, the key and what to do."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.tournament.hall import event_toml, players
from tournament.errors import EventFileError
from tournament.event import Format, TieBreak, load


def body(**more: Any) -> dict[str, Any]:
    return {"name": "Spring Open", "format": "individual", "rules": "puerto-rico", "rounds": 4,
            "tables": ["t1", "t2"], "seed": 1, "players": players(8), **more}  # fmt: skip


def problems(tmp_path: Path, data: dict[str, Any]) -> list[str]:
    path = tmp_path / "spring.toml"
    path.write_text(event_toml(data))
    with pytest.raises(EventFileError) as caught:
        load(path)
    return [line.removeprefix(f"{path}: ") for line in caught.value.lines]


def test_a_good_file_loads_with_its_defaults(tmp_path: Path) -> None:
    path = tmp_path / "spring.toml"
    path.write_text(event_toml(body(time_limit_min=45, tie_breaks=["wins", "head_to_head"])))
    event = load(path)
    assert event.format is Format.INDIVIDUAL and event.seats == 4 and event.partnered
    assert event.tie_breaks == (TieBreak.WINS, TieBreak.HEAD_TO_HEAD)
    assert event.target is None and event.time_limit_min == 45
    assert event.table_url("t1") == "http://t1.local:8080/"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"format": "teams"}, "format: Input should be 'pairs', 'individual' or 'singles'"),
        ({"rules": "chess"}, "rules: no ruleset named 'chess'; shipped: outdoor, puerto-rico"),
        ({"rounds": 0}, "rounds: Input should be greater than or equal to 1"),
        ({"tables": ["T 1"]}, "tables[0]: String should match pattern"),
        ({"tables": ["t1", "tournament"]}, "tables[1]: 'tournament' is the desk's own prefix"),
        ({"tables": ["t1", "t1"]}, "tables: a table is listed twice"),
        ({"tie_breaks": ["wins", "luck"]}, "tie_breaks[1]: Input should be 'wins'"),
        ({"tie_breaks": ["wins", "wins"]}, "tie_breaks: a tie-break is listed twice"),
        ({"colour": "red"}, "colour: Extra inputs are not permitted"),
        ({"format": "singles", "rules": "puerto-rico"},
         "format: singles seats 2 at a table, but puerto-rico is for 4 to 4 players"),
        ({"format": "pairs", "rules": "straight"},
         "format: pairs needs a partnership ruleset; straight has none"),
        ({"players": [{"id": "p1", "name": "Ana"}, {"id": "p1", "name": "Bo"}]},
         "players[1].id: 'p1' is already the id of players[0]; give each player its own"),
        ({"players": [{"id": "p 1", "name": "Ana"}]}, "players[0].id: String should match"),
        ({"pairs": [{"id": "A", "players": ["p1", "p2"]}]},
         "pairs: only the pairs format has [[pairs]], not individual"),
        ({"display_url": "http://desk/"}, "display_url: must hold {table}"),
    ],
)  # fmt: skip
def test_each_problem_names_its_key(tmp_path: Path, change: dict[str, Any], expected: str) -> None:
    found = problems(tmp_path, body(**change))
    assert any(line.startswith(expected) for line in found), found


def test_pairs_must_cover_the_roster_once(tmp_path: Path) -> None:
    pairs = [{"id": "A", "players": ["p1", "p2"]}, {"id": "B", "players": ["p2", "p9"]}]
    found = problems(tmp_path, body(format="pairs", pairs=pairs, players=players(4)))
    assert found == [
        "pairs[0].players: 'p2' is in more than one pair",
        "pairs[1].players: 'p2' is in more than one pair",
        "pairs[1].players: 'p9' is not the id of any [[players]]",
        "pairs: p3, p4 in no pair; put every player in one",
    ]


def test_a_missing_file_and_bad_toml_say_so(tmp_path: Path) -> None:
    with pytest.raises(EventFileError, match="no such event file"):
        load(tmp_path / "none.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("name = \n")
    with pytest.raises(EventFileError, match="not valid TOML"):
        load(bad)
