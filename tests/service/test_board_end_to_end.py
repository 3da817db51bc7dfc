"""The table service end to end on the instrumented board: emulator on a real pty,
`domino-table run` as a real process, a real Mosquitto, every payload checked."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from engine import Tile
from engine.surface import SeenTile
from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.messages import Colour
from tests.fixtures.board_table import Table, at
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_recorder import Recorder, Seen
from tests.fixtures.service_process import TOPICS, Service, send

pytestmark = pytest.mark.process

P = "domino/t1"


def plays(seen: list[Seen]) -> list[dict[str, object]]:
    return [s.json() for s in seen if s.topic == f"{P}/event/play"]


@pytest.fixture
def board(tmp_path: Path) -> Iterator[BoardEmulator]:
    with BoardEmulator(link=tmp_path / "board") as emulator:
        yield emulator


@contextmanager
def served(
    broker: Mosquitto, board: BoardEmulator, tmp_path: Path, rules: str, seats: int
) -> Iterator[tuple[Recorder, Table]]:
    """`domino-table run` on the emulated board, online; a recorder checking every payload."""
    rec = Recorder(broker.host, broker.port, TOPICS)
    service = Service(broker, tmp_path / "state", "--serial", str(tmp_path / "board"),
                      "--rules", rules, "--seats", str(seats))  # fmt: skip
    service.start()
    try:
        rec.wait_for(lambda s: any(x.payload == b"online" for x in s), timeout=20)
        yield rec, Table(rules, seats, board)
        assert not rec.errors
    finally:
        service.stop()
        rec.close()


def test_walnut_examples_laid_on_the_board_score_as_the_leaflet(
    broker: Mosquitto, board: BoardEmulator, tmp_path: Path
) -> None:
    with served(broker, board, tmp_path, "walnut", 4) as (rec, table):
        table.lay("5-5")
        # the table cannot know who held the highest double: it asks
        rec.wait_for(
            lambda s: any(
                x.topic == f"{P}/event/alert" and x.json()["code"] == "LEAD_UNKNOWN" for x in s
            )
        )
        send(broker, {"id": "lead-0", "action": "lead", "seat": 0})
        rec.wait_for(lambda s: any(x.topic == f"{P}/event/lead" for x in s))
        table.lay("5-0", "5-5")
        rec.wait_for(lambda s: len(plays(s)) >= 2)
        table.lay("3-5", "5-5")
        rec.wait_for(lambda s: len(plays(s)) >= 3)
        table.lay("0-2", "5-0")
        got = rec.wait_for(lambda s: len(plays(s)) >= 4)
        assert [(p["tile"], p["ends_total"], p["points"]) for p in plays(got)] == [
            ("5-5", 10, 10), ("5-0", 10, 10), ("5-3", 3, 0), ("2-0", 5, 5),
        ]  # fmt: skip
        assert [p["seat"] for p in plays(got)][1:] == [1, 2, 3]
        last_seq = plays(got)[-1]["seq"]
        got = rec.wait_for(
            lambda s: any(x.topic == f"{P}/state" and x.json()["seq"] >= last_seq for x in s)
        )
        state = [s.json() for s in got if s.topic == f"{P}/state"][-1]
        assert [s["score"] for s in state["seats"]] == [10, 10, 0, 5]
        assert len(state["layout"]["tiles"]) == 4
        assert not state["alerts"]
        assert not rec.errors


def test_an_illegal_tile_on_the_board_is_an_alert_and_changes_nothing(
    broker: Mosquitto, board: BoardEmulator, tmp_path: Path
) -> None:
    with served(broker, board, tmp_path, "straight-block", 2) as (rec, table):
        table.lay("6-6")
        send(broker, {"id": "lead-1", "action": "lead", "seat": 1})
        rec.wait_for(lambda s: len(plays(s)) >= 1)
        # a 5-4 laid against the 6-6: wrong number at that end
        bad = SeenTile(5, 4, 474, 300, 498, 300)  # the spec vector's place, beside the 6-6
        board.place(at(bad))
        got = rec.wait_for(
            lambda s: any(
                x.topic == f"{P}/event/alert" and x.json()["code"] == "NO_MATCH" for x in s
            ),
            timeout=15,
        )
        alert = next(
            x.json()
            for x in got
            if x.topic == f"{P}/event/alert" and x.json()["code"] == "NO_MATCH"
        )
        assert alert["severity"] == "illegal" and alert["tile"] == "5-4"
        state = [s.json() for s in rec.seen if s.topic == f"{P}/state"][-1]
        assert [t["tile"] for t in state["layout"]["tiles"]] == ["6-6"]
        assert board.wait_until(lambda: bool(board.beeps), timeout=5)  # the board beeps
        lit = (alert["xa"], alert["ya"])  # and lights red under the tile
        assert board.wait_until(lambda: board.leds.get(lit) is Colour.RED, timeout=5)
        board.lift(Tile.parse("5-4"))
        rec.wait_for(
            lambda s: any(
                x.topic == f"{P}/event/alert"
                and x.json()["resolved"]
                and x.json()["code"] == "NO_MATCH"
                for x in s
            ),
            timeout=15,
        )
        assert board.wait_until(lambda: not board.leds, timeout=5)  # dark again
        assert not rec.errors
    assert json.dumps(alert)


def test_board_buttons_name_the_leader_and_pass(
    broker: Mosquitto, board: BoardEmulator, tmp_path: Path
) -> None:
    with served(broker, board, tmp_path, "straight-block", 2) as (rec, table):
        table.lay("6-6")
        rec.wait_for(lambda s: any(x.topic == f"{P}/event/alert" for x in s))
        board.press(1)  # seat 1's button while the table asks who led
        got = rec.wait_for(lambda s: any(x.topic == f"{P}/event/lead" for x in s))
        assert next(x.json() for x in got if x.topic == f"{P}/event/lead")["seat"] == 1
        board.press(0)  # seat 0 knocks
        got = rec.wait_for(lambda s: any(x.topic == f"{P}/event/pass" for x in s))
        assert next(x.json() for x in got if x.topic == f"{P}/event/pass")["seat"] == 0
        assert not rec.errors


def test_open_ends_carry_where_the_next_tile_joins(
    broker: Mosquitto, board: BoardEmulator, tmp_path: Path
) -> None:
    with served(broker, board, tmp_path, "straight-block", 2) as (rec, table):
        table.lay("6-6")
        got = rec.wait_for(lambda s: any(x.topic == f"{P}/event/alert" for x in s))
        alert = next(x.json() for x in got if x.topic == f"{P}/event/alert")
        assert (alert["code"], alert["tile"]) == ("LEAD_UNKNOWN", "6-6")

        def ends(seen: list[Seen]) -> list[dict[str, object]]:
            states = [x.json() for x in seen if x.topic == f"{P}/state"]
            return states[-1]["layout"]["open_ends"] if states else []

        got = rec.wait_for(lambda s: len(ends(s)) == 2 and "x" in ends(s)[0])
        # the 6-6 lies crosswise at x=450 (the centre of a 900 mm surface): its two sides
        # are its long edges' middles, 12 mm either side
        assert sorted((e["x"], e["y"]) for e in ends(got)) == [(438, 300), (462, 300)]
