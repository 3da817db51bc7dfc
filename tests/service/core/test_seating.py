"""A game seated by a tournament desk in the table core: the fields kept and echoed, the
round's clock, the players confirming the result, and all of it through a restart.

Walnut for two, the leaflet's opening (5-5 by seat 0: 10; 5-0 by seat 1: 10; 5-3: 0;
2-0 by seat 1: 5), then the hand is blocked and each seat counts 20: seat 1 leads 15-10.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from engine import Tile, rulesets
from engine.game import PlayInput, Target
from mqttweb.envelope import stamp, utc_ts
from service.core import commands as cmd
from service.core.table import TableConfig, TableCore, play_input
from service.core.table_events import GameOver, ResultConfirmed
from service.store.journal import Journal
from tests.fixtures.spec import validate

T0 = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
ENDS_AT = utc_ts(T0 + timedelta(minutes=45))
SEATED = {"tournament": "Spring Open", "round": 2, "players": ["p7", "p3"], "ends_at": ENDS_AT}


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


class Table:
    """A table core on its journal, with a wall clock of the test's, hearing its bus."""

    def __init__(self, state_dir: Path, clock: Clock) -> None:
        self.core = TableCore(
            TableConfig(table="t1", rules="walnut", seats=2), Journal(state_dir, "t1"),
            rulesets.load,
        )  # fmt: skip
        self.core.seated.now = clock
        self.over: list[GameOver] = []
        self.confirmed: list[ResultConfirmed] = []
        self.core.bus.subscribe(GameOver, self.over.append)
        self.core.bus.subscribe(ResultConfirmed, self.confirmed.append)
        self.core.start()

    def send(self, body: dict[str, Any]) -> str | None:
        return self.core.command(cmd.parse_command(json.dumps(body).encode()))

    def lay(self, tile: str, to: str | None = None) -> None:
        game = self.core.game
        assert game is not None
        judged = game.play(Tile.parse(tile), Target(Tile.parse(to)) if to else None)
        assert judged.ok, judged
        action = game.hand_inputs()[-1]
        assert isinstance(action, PlayInput)
        self.core._commit(play_input(action), judged.events)  # as the reconciler does

    def state(self) -> dict[str, Any]:
        state = stamp("t1", self.core.state())
        validate("state", state)
        return state

    def events(self, kind: str) -> list[dict[str, Any]]:
        journal = self.core.journal
        found = [journal.event(s) for s in range(1, journal.last_seq() + 1)]
        out = [e.payload for e in found if e is not None and e.kind == kind]
        for payload in out:
            validate(kind, payload)
        return out

    def close(self) -> None:
        self.core.journal.close()


def new_game(**extra: Any) -> dict[str, Any]:
    return {"id": "ng", "action": "new_game", "rules": "walnut", "seats": ["Ana", "Bo"], **extra}


def opening(table: Table) -> None:
    table.lay("5-5")
    assert table.send({"id": "lead", "action": "lead", "seat": 0}) is None
    table.lay("5-0", "5-5")


def end_of_hand(table: Table) -> None:
    table.lay("5-3", "5-5")
    table.lay("2-0", "5-0")
    assert table.send({"id": "end", "action": "end_hand"}) is None
    for seat in (0, 1):
        count = {"id": f"count{seat}", "action": "count", "seat": seat, "pips": 20}
        assert table.send(count) is None


@pytest.fixture
def clock() -> Clock:
    return Clock()


def test_a_seated_game_keeps_and_echoes_the_desks_fields(tmp_path: Path, clock: Clock) -> None:
    table = Table(tmp_path, clock)
    assert table.send(new_game(**SEATED)) is None
    state = table.state()
    assert {k: state[k] for k in SEATED} == SEATED
    assert state["last_hand"] is False and "confirmed_by" not in state
    started = table.events("game")[-1]
    assert started["event"] == "started" and {k: started[k] for k in SEATED} == SEATED


def test_a_casual_game_carries_none_of_them(tmp_path: Path, clock: Clock) -> None:
    table = Table(tmp_path, clock)
    assert table.send(new_game(target=15)) is None
    state = table.state()
    assert not {*SEATED, "last_hand"} & state.keys()
    opening(table)
    table.lay("5-3", "5-5")
    table.lay("2-0", "5-0")  # 15 to seat 1 at once
    over = table.events("game")[-1]
    assert over["event"] == "over" and over["reason"] == "target"
    assert not SEATED.keys() & over.keys()
    assert [o.result.payload for o in table.over] == [over]


def test_the_clock_makes_the_hand_in_play_the_last_one(tmp_path: Path, clock: Clock) -> None:
    table = Table(tmp_path, clock)
    assert table.send(new_game(**SEATED)) is None
    opening(table)
    table.core.tick()
    assert table.state()["last_hand"] is False  # not yet 10:45
    clock.now = T0 + timedelta(minutes=45)
    table.core.tick()
    state = table.state()
    assert state["last_hand"] is True and state["phase"] == "play"
    table.core.tick()  # told once
    inputs = [i.told.action for i in table.core.journal.inputs()]
    assert inputs.count("time") == 1
    end_of_hand(table)
    over = table.events("game")[-1]
    assert over["event"] == "over" and over["reason"] == "time"
    assert (over["winner"], over["scores"]) == (1, [10, 15])
    assert {k: over[k] for k in SEATED} == SEATED
    (result,) = table.over
    assert result.result.payload == over  # the retained result is that event
    assert table.state()["phase"] == "over"


def test_the_clock_between_hands_ends_the_game_at_once(tmp_path: Path, clock: Clock) -> None:
    table = Table(tmp_path, clock)
    assert table.send(new_game(**SEATED)) is None
    opening(table)
    end_of_hand(table)
    assert table.state()["phase"] == "hand_over"
    clock.now = T0 + timedelta(hours=1)
    table.core.tick()
    over = table.events("game")[-1]
    assert (over["event"], over["reason"], over["winner"]) == ("over", "time", 1)


def test_an_end_already_past_makes_the_first_hand_the_last(tmp_path: Path, clock: Clock) -> None:
    table = Table(tmp_path, clock)
    past = utc_ts(T0 - timedelta(minutes=1))
    assert table.send(new_game(**(SEATED | {"ends_at": past}))) is None
    table.core.tick()
    assert table.state()["last_hand"] is True
    opening(table)
    end_of_hand(table)
    assert table.events("game")[-1]["reason"] == "time"


def test_no_clock_without_ends_at(tmp_path: Path, clock: Clock) -> None:
    table = Table(tmp_path, clock)
    assert table.send(new_game(**(SEATED | {"ends_at": None}))) is None
    assert table.state()["ends_at"] is None
    clock.now = T0 + timedelta(days=1)
    table.core.tick()
    assert table.state()["last_hand"] is False


def test_the_players_confirm_the_result_seat_by_seat(tmp_path: Path, clock: Clock) -> None:
    table = Table(tmp_path, clock)
    assert table.send(new_game(**SEATED)) is None
    opening(table)
    assert table.send({"id": "c0", "action": "confirm", "seat": 0}) is not None  # not over
    clock.now = T0 + timedelta(hours=1)
    table.core.tick()
    end_of_hand(table)
    over = table.events("game")[-1]
    assert table.send({"id": "c1", "action": "confirm"}) == (
        'Say who confirms the result: "confirm" with "seat".'
    )
    assert table.send({"id": "c2", "action": "confirm", "seat": 2}) == "There is no seat 2."
    assert table.send({"id": "c3", "action": "confirm", "seat": 1}) is None
    assert table.state()["confirmed_by"] == [1]
    assert table.send({"id": "c4", "action": "confirm", "seat": 1}) is None  # again: no change
    assert table.send({"id": "c5", "action": "confirm", "seat": 0}) is None
    assert table.state()["confirmed_by"] == [1, 0]
    assert [c.result for c in table.confirmed] == [
        over | {"confirmed_by": [1]},
        over | {"confirmed_by": [1, 0]},
    ]
    for c in table.confirmed:
        validate("game", c.result)
    assert table.send(new_game(id="ng2", **(SEATED | {"round": 3}))) is None
    assert "confirmed_by" not in table.state()  # a new game: nobody confirmed it yet


def test_a_restart_keeps_the_seating_the_last_hand_and_the_confirmations(
    tmp_path: Path, clock: Clock
) -> None:
    table = Table(tmp_path, clock)
    assert table.send(new_game(**SEATED)) is None
    opening(table)
    clock.now = T0 + timedelta(minutes=50)
    table.core.tick()
    before = table.state()
    table.close()

    clock.now = T0 + timedelta(minutes=51)
    table = Table(tmp_path, clock)  # the service restarted mid-hand
    after = table.state()
    for key in (*SEATED, "last_hand", "game_id", "seq", "seats", "layout", "phase"):
        assert after[key] == before[key], key
    table.core.tick()
    assert [i.told.action for i in table.core.journal.inputs()].count("time") == 1
    end_of_hand(table)
    over = table.events("game")[-1]
    assert (over["reason"], over["round"], over["players"]) == ("time", 2, ["p7", "p3"])
    assert table.send({"id": "c0", "action": "confirm", "seat": 0}) is None
    table.close()

    table = Table(tmp_path, clock)  # restarted after the confirmation
    assert table.state()["confirmed_by"] == [0]
    assert [c.result for c in table.confirmed] == [over | {"confirmed_by": [0]}]


TIME_WANTED = '"ends_at" must be a UTC time such as "2026-11-22T04:14:00.123Z", not '


@pytest.mark.parametrize(
    ("extra", "error"),
    [
        ({"players": ["p1"]}, '"players" must list 2 to 10 player ids, one per seat.'),
        ({"players": ["p1", "p2", "p3"]},
         '"players" must give one player id for each of the 2 seats.'),
        ({"round": 0}, '"round" must be a round number from 1 to 10000, not 0.'),
        ({"tournament": " "},
         '"tournament" must be a text of 1 to 80 characters, without control characters.'),
        ({"ends_at": "10:45"}, TIME_WANTED + '"10:45".'),
        ({"ends_at": "2026-02-30T10:45:00.000Z"}, TIME_WANTED + '"2026-02-30T10:45:00.000Z".'),
    ],
)  # fmt: skip
def test_bad_seating_fields_are_refused(extra: dict[str, Any], error: str) -> None:
    with pytest.raises(cmd.CommandError) as caught:
        cmd.parse_command(json.dumps(new_game(**extra)).encode())
    assert caught.value.message == error
