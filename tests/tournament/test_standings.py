"""Standings from finished games: worked examples, partnerships, ties, bad payloads."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game, Mode, rulesets
from engine.events import GameEvent
from tests.fixtures.spec import validate
from tests.tournament.tables import engine_events, result_payload
from tournament.board import Board
from tournament.errors import ResultError
from tournament.standings import Entry, GameResult, standings


def result(table: str, game_id: str, names: list[str], scores: list[int], **kw: Any) -> GameResult:
    payload = result_payload(table, game_id, names, scores, **kw)
    validate("game", payload)
    return GameResult.from_payload(table, game_id, payload)


def rows(entries: list[Entry]) -> list[tuple[int, str, int, int, int, int]]:
    return [(e.rank, e.name, e.games, e.wins, e.points, e.margin) for e in entries]


def test_two_tables_two_rounds_worked_by_hand() -> None:
    games = [
        # round 1
        result("t1", "r1", ["Ana", "Bo"], [100, 94], winner=0),
        result("t2", "r1", ["Cy", "Di", "Ed"], [60, 105, 105], winner=1),
        # round 2
        result("t1", "r2", ["Cy", "Ana"], [80, 101], winner=1),
        result("t2", "r2", ["Bo", "Di", "Ed"], [102, 20, 30], winner=0),
    ]
    assert rows(standings(games)) == [
        # rank, name, games, wins, points, margin
        (1, "Ana", 2, 2, 201, 6 + 21),
        (2, "Bo", 2, 1, 196, -6 + 72),
        (3, "Di", 2, 1, 125, 0 - 82),
        (4, "Cy", 2, 0, 140, -45 - 21),
        (5, "Ed", 2, 0, 135, 0 - 72),
    ]


def test_partners_are_each_credited_with_the_team_result() -> None:
    names = ["Ana", "Bo", "Cy", "Di"]
    game = result("t1", "g1", names, [83, 257, 83, 257], team_scores=[83, 257], team=1)
    assert rows(standings([game])) == [
        (1, "Bo", 1, 1, 257, 174),
        (1, "Di", 1, 1, 257, 174),
        (3, "Ana", 1, 0, 83, -174),
        (3, "Cy", 1, 0, 83, -174),
    ]


def test_teams_level_on_score_the_named_team_wins_with_the_default_partnerships() -> None:
    names = ["Ana", "Bo", "Cy", "Di"]
    game = result("t1", "g1", names, [3, 3, 3, 3], team_scores=[3, 3], team=1)
    wins = {e.name: e.wins for e in standings([game])}
    assert wins == {"Ana": 0, "Bo": 1, "Cy": 0, "Di": 1}


def test_a_game_counts_once_per_table_and_game_id() -> None:
    first = result("t1", "g1", ["Ana", "Bo"], [100, 50], winner=0)
    again = result("t1", "g1", ["Ana", "Bo"], [100, 50], winner=0)
    other_table = result("t2", "g1", ["Ana", "Bo"], [100, 50], winner=0)
    assert rows(standings([first, again])) == [(1, "Ana", 1, 1, 100, 50), (2, "Bo", 1, 0, 50, -50)]
    assert standings([first, again, other_table])[0].games == 2


def test_equal_players_share_a_rank_and_are_listed_by_name() -> None:
    games = [
        result("t1", "g1", ["zed", "Amy"], [100, 50], winner=0),
        result("t2", "g1", ["Bob", "cat"], [100, 50], winner=0),
    ]
    assert [(e.rank, e.name) for e in standings(games)] == [
        (1, "Bob"), (1, "zed"), (3, "Amy"), (3, "cat"),
    ]  # fmt: skip


def test_names_are_trimmed_so_a_player_is_one_entry() -> None:
    games = [
        result("t1", "g1", ["Ana  María ", "Bo"], [100, 50], winner=0),
        result("t2", "g1", ["Ana María", "Cy"], [100, 50], winner=0),
    ]
    assert standings(games)[0].name == "Ana María" and standings(games)[0].games == 2


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"event": "started"}, "not 'over'"),
        ({"scores": [1]}, "2 names but 1 scores"),
        ({"scores": [1, "2"]}, "list of integers"),
        ({"names": "Ana"}, "list of strings"),
        ({"winner": 5}, "not one of 2 seats"),
        ({"winner": True}, "seat or team number"),
    ],
)
def test_a_result_that_is_no_finished_game_is_refused(change: dict[str, Any], why: str) -> None:
    payload = result_payload("t1", "g1", ["Ana", "Bo"], [100, 50], winner=0) | change
    with pytest.raises(ResultError, match=why):
        GameResult.from_payload("t1", "g1", payload)


@pytest.mark.parametrize(("rules", "seats"), [("walnut", 2), ("walnut", 4), ("puerto-rico", 4),
                                              ("outdoor", 4), ("straight", 3)])  # fmt: skip
def test_engine_games_credit_every_seat_once(rules: str, seats: int) -> None:
    """Real games: points are the final scores; the winner (or its team) has the best margin."""
    names = [f"{rules}-{s}" for s in range(seats)]
    for seed in range(5):
        game = Game(rulesets.load(rules), seats, mode=Mode.FULL, names=names, seed=seed)
        over = list(engine_events(game, seed))[-1]
        assert isinstance(over, GameEvent) and over.event == "over"
        entries = {e.name: e for e in standings([result_from(over)])}
        assert [entries[n].points for n in names] == list(game.scores())
        assert sum(e.wins for e in entries.values()) == (2 if game.teams else 1)
        best = max(e.margin for e in entries.values())
        winners = [n for n in names if entries[n].wins]
        assert all(entries[n].margin == best >= 0 for n in winners)
        for seat, name in enumerate(names):
            team = game.teams.of[seat]
            won = team == over.team if team is not None else seat == over.winner
            assert won is bool(entries[name].wins)


def result_from(over: GameEvent) -> GameResult:
    payload = result_payload("t1", "g", over.names, over.scores, team_scores=over.team_scores,
                             winner=over.winner, team=over.team)  # fmt: skip
    return GameResult.from_payload("t1", "g", payload)


def test_the_board_folds_topics_and_ignores_what_is_not_a_table() -> None:
    board = Board()
    assert board.on_message("domino/t1/status", b"online")
    assert not board.on_message("domino/t1/status", b"online")
    state = b'{"game_id": "g1", "hand": 2}'
    assert board.on_message("domino/t1/state", state)
    assert not board.on_message("domino/t1/state", state)
    assert not board.on_message("domino/tournament/status", b"online")
    # Not a table's id (a misnamed broker user could publish there): never a table.
    for table in ["Kitchen", "t 1", "-t1", "t1\n", "", "t\u00e9", "t1+"]:
        assert not board.on_message(f"domino/{table}/status", b"online"), table
    assert not board.on_message("domino/t1/event/play", b"{}")
    assert not board.on_message("domino/t1/result/g1", b"{not json")
    payload = result_payload("t1", "g1", ["Ana", "Bo"], [100, 50], winner=0)
    assert board.on_message("domino/t1/result/g1", _json(payload))
    assert not board.on_message("domino/t1/result/g1", _json(payload))
    assert board.payload() == {
        "tables": [{"table": "t1", "status": "online", "game_id": "g1", "hand": 2}],
        "entries": [
            {"rank": 1, "name": "Ana", "games": 1, "wins": 1, "points": 100, "margin": 50},
            {"rank": 2, "name": "Bo", "games": 1, "wins": 0, "points": 50, "margin": -50},
        ],
    }
    assert board.on_message("domino/t1/result/g1", b"")  # cleared: no longer counted
    assert board.payload()["entries"] == []


def _json(payload: dict[str, Any]) -> bytes:
    import json

    return json.dumps(payload).encode()
