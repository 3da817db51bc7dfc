"""Real table services (`domino-table run` on the board emulator) bridged to the central
broker: the desk ranks the games exactly as their own `result/<game_id>` payloads say."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from firmware_bridge.emulator import BoardEmulator
from tests.fixtures.board_table import Table
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_recorder import Recorder, Seen
from tests.fixtures.service_process import Service
from tests.tournament.desk_process import STANDINGS, DeskProcess, wait_standings
from tests.tournament.tables import publish_once
from tests.tournament.test_bridge import bridge_section, wait_bridged
from tournament.standings import GameResult, standings

pytestmark = [pytest.mark.broker, pytest.mark.process]

# table -> seat names. Walnut to 15, the leaflet's opening: 5-5 (10 to seat 0), 5-0
# (10 to seat 1), 5-3 (nothing), 2-0 (5 more to seat 1): seat 1 wins 15 to 10 at once.
GAMES = {"t1": ["Ana", "Bo"], "t2": ["Cy", "Ana"]}


@pytest.mark.slow
def test_two_real_tables_finish_games_through_their_bridges(tmp_path: Path) -> None:
    with contextlib.ExitStack() as stack:
        central = stack.enter_context(Mosquitto(tmp_path / "central"))
        stack.enter_context(DeskProcess(central.host, central.port, tmp_path / "desk"))
        rec = Recorder(central.host, central.port, [STANDINGS])
        stack.callback(rec.close)
        results: dict[str, tuple[str, dict[str, object]]] = {}
        for table_id, names in GAMES.items():
            bridge = bridge_section(table_id, central)
            local = stack.enter_context(Mosquitto(tmp_path / table_id, extra=bridge))
            wait_bridged(central, table_id)
            board = stack.enter_context(BoardEmulator(link=tmp_path / f"board-{table_id}"))
            service = Service(local, tmp_path / f"state-{table_id}", "--table", table_id,
                              "--serial", str(tmp_path / f"board-{table_id}"),
                              "--rules", "walnut", "--seats", "2")  # fmt: skip
            stack.enter_context(service)
            results[table_id] = play_to_fifteen(local, board, table_id, names)
        expected = standings(
            GameResult.from_payload(t, game_id, payload)
            for t, (game_id, payload) in results.items()
        )
        final = wait_standings(rec, lambda p: p["entries"] == [e.payload() for e in expected])
        assert [(e["name"], e["games"], e["wins"], e["points"], e["margin"])
                for e in final["entries"]] == [
            ("Bo", 1, 1, 15, 5), ("Ana", 2, 1, 25, 0), ("Cy", 1, 0, 10, -5),
        ]  # fmt: skip
        assert [(t["table"], t["status"]) for t in final["tables"]] == [
            ("t1", "online"), ("t2", "online"),
        ]  # fmt: skip


def play_to_fifteen(
    local: Mosquitto, board: BoardEmulator, table_id: str, names: list[str]
) -> tuple[str, dict[str, object]]:
    """A new game to 15 on the table's own broker; the result it publishes."""
    prefix = f"domino/{table_id}"
    topics = [f"{prefix}/{t}" for t in ("status", "result/+", "cmd/reply", "event/#")]
    rec = Recorder(local.host, local.port, topics)
    try:
        rec.wait_for(lambda s: any(x.payload == b"online" for x in s), timeout=20)
        command(local, prefix, {"id": "ng", "action": "new_game", "rules": "walnut",
                                "seats": names, "target": 15})  # fmt: skip
        rec.wait_for(lambda s: any(x.topic == f"{prefix}/cmd/reply" for x in s))
        table = Table("walnut", 2, board)
        table.lay("5-5")
        rec.wait_for(lambda s: any(x.topic == f"{prefix}/event/alert" for x in s))
        command(local, prefix, {"id": "lead", "action": "lead", "seat": 0})
        rec.wait_for(lambda s: any(x.topic == f"{prefix}/event/lead" for x in s))
        for tile, to, plays in (("5-0", "5-5", 2), ("3-5", "5-5", 3), ("0-2", "5-0", 4)):
            table.lay(tile, to)
            rec.wait_for(played(prefix, plays))
        got = rec.wait_for(
            lambda s: any(x.topic.startswith(f"{prefix}/result/") for x in s), timeout=15
        )
        result = next(x for x in got if x.topic.startswith(f"{prefix}/result/"))
        return result.topic.rsplit("/", 1)[1], json.loads(result.payload)
    finally:
        rec.close()


def played(prefix: str, plays: int) -> Callable[[list[Seen]], bool]:
    return lambda seen: sum(x.topic == f"{prefix}/event/play" for x in seen) >= plays


def command(broker: Mosquitto, prefix: str, body: dict[str, object]) -> None:
    publish_once(broker.host, broker.port, f"{prefix}/cmd", body, retain=False)
