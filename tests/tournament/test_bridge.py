"""Tables on their own Mosquitto, bridged to a central one by Mosquitto itself
(config/mosquitto/table-bridge.conf), the central broker killed mid-game and restarted:
the desk's standings end equal to those of every table's own results."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_recorder import Recorder
from tests.fixtures.tiers import needs
from tests.tournament.desk_process import STANDINGS, DeskProcess, wait_standings
from tests.tournament.tables import EmulatedTable
from tournament.standings import GameResult, standings

pytestmark = pytest.mark.process

BRIDGE_CONF = Path(__file__).resolve().parents[2] / "config" / "mosquitto" / "table-bridge.conf"

# table id -> (rules, seat names): players meet again at other tables
TABLES = {
    "t1": ("walnut", ["Ana", "Bo"]),
    "t2": ("puerto-rico", ["Cy", "Di", "Ana", "Eve"]),
    "t3": ("straight", ["Bo", "Cy", "Flo"]),
}


def bridge_section(table: str, central: Mosquitto) -> str:
    """The example's bridge section for one table, pointed at the central broker."""
    text = BRIDGE_CONF.read_text()
    section = text[text.index("\nconnection ") :]
    return section.replace("kitchen", table).replace(
        "central.local:1883", f"{central.host}:{central.port}"
    )


def wait_bridged(central: Mosquitto, table: str, timeout: float = 20.0) -> None:
    """Until the table's bridge is connected: Mosquitto's notification on the central broker."""
    up = threading.Event()
    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.on_message = lambda c, u, msg: up.set() if msg.payload == b"1" else None
    client.connect(central.host, central.port)
    client.subscribe(f"$SYS/broker/connection/bridge-{table}/state", 1)
    client.loop_start()
    try:
        assert up.wait(timeout), f"the bridge of {table} did not connect in {timeout} s"
    finally:
        client.disconnect()
        client.loop_stop()


def wait_until(test: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


@pytest.fixture
@needs("broker")
def central(tmp_path: Path) -> Iterator[Mosquitto]:
    with Mosquitto(tmp_path / "central") as broker:
        yield broker


@pytest.fixture
@needs("broker")
def table_brokers(tmp_path: Path, central: Mosquitto) -> Iterator[dict[str, Mosquitto]]:
    with contextlib.ExitStack() as stack:
        brokers = {
            t: stack.enter_context(Mosquitto(tmp_path / t, extra=bridge_section(t, central)))
            for t in TABLES
        }
        for table in brokers:
            wait_bridged(central, table)
        yield brokers


@pytest.mark.slow
def test_three_bridged_tables_play_through_a_central_outage(
    tmp_path: Path, central: Mosquitto, table_brokers: dict[str, Mosquitto]
) -> None:
    desk = DeskProcess(central.host, central.port, tmp_path / "desk")
    desk.start()
    rec = Recorder(central.host, central.port, [STANDINGS, "domino/+/status"])
    tables = [
        EmulatedTable(
            t,
            table_brokers[t].host,
            table_brokers[t].port,
            names,
            rules=rules,
            seed=n,
            games=2,
            pause_s=0.01,
        )
        for n, (t, (rules, names)) in enumerate(TABLES.items(), start=1)
    ]
    try:
        rec.wait_for(lambda seen: any(s.topic == STANDINGS for s in seen))  # the first, empty
        for table in tables:
            table.start()
        # every table is through the bridge and well into its first game
        rec.wait_for(lambda seen: {s.topic for s in seen} >= {f"domino/{t}/status" for t in TABLES})
        wait_until(lambda: min(t.published for t in tables) >= 60, 20, "the first plays")
        assert not any(t.results for t in tables), "cut the link mid-game"

        central.kill()  # the link is down for every table at once
        wait_until(lambda: all(t.results for t in tables), 30, "a game finished offline")
        played_offline = sum(t.published for t in tables)
        central.start()

        for table in tables:
            assert table.done.wait(60), f"{table.table} did not finish"
            assert table.error is None, table.error
        assert all(len(t.results) == 2 for t in tables)
        expected = standings(
            GameResult.from_payload(t.table, game_id, payload)
            for t in tables
            for game_id, payload in t.results
        )
        want = [e.payload() for e in expected]
        final = wait_standings(rec, lambda p: p["entries"] == want, timeout=45)
        assert sum(e["games"] for e in final["entries"]) == sum(
            len(names) * 2 for _, names in TABLES.values()
        )
        assert [(t["table"], t["status"], t["game_id"]) for t in final["tables"]] == [
            (t, "online", f"{t}-g2") for t in TABLES
        ]
        assert played_offline > 3 * 60
        stats = desk.get_json("/api/stats")
        assert stats["games"] == 6 and stats["synced"]
    finally:
        for table in tables:
            table.close()
        rec.close()
        desk.stop()
