"""The walnut leaflet's hand laid on a board (the emulator on a real pseudo-terminal),
refereed by `domino-table run` (a real process, a real Mosquitto), heard as an AWTRIX
clock and a WLED strip would hear it: the scores in seat order, the turn seat lit, red
on an illegal tile and back once it is lifted, a notification per scoring play; the
game unharmed when the devices leave and when the broker restarts, the clock's app
deleted and the strip dark when the table stops."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from engine import Tile
from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.messages import TileAt
from service.outputs.awtrix import ILLEGAL, SCORED, TURN
from service.outputs.wled import RED, WHITE
from tests.fixtures.board_table import Table
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_recorder import Recorder, Seen
from tests.fixtures.process import BIN, ChildProcess
from tests.fixtures.service_process import TOPICS, send
from tests.service.outputs.device_schema import check, kind_of
from tests.service.outputs.sound import null_sound_home

pytestmark = pytest.mark.process

P = "domino/t1"
AWTRIX = "awtrix_e2e"
WLED = "wled/t1"
APP = f"{AWTRIX}/custom/domino"
OFF = (False, (0, 0, 0))
LIT = (True, WHITE)


@dataclass
class Devices:
    """The clock and the strip as MQTT subscribers: what each was sent, checked."""

    recorder: Recorder

    def seen(self, topic: str) -> list[Seen]:
        return self.recorder.on(topic)

    def apps(self) -> list[dict[str, Any]]:
        return [json.loads(s.payload) if s.payload else {} for s in self.seen(APP)]

    def notes(self) -> list[dict[str, Any]]:
        return [json.loads(s.payload) for s in self.seen(f"{AWTRIX}/notify")]

    def strips(self) -> list[list[tuple[bool, tuple[int, ...]]]]:
        return [
            [(s["on"], tuple(s["col"][0])) for s in json.loads(x.payload)["seg"]]
            for x in self.seen(f"{WLED}/api")
        ]

    def wait(self, test: Any, timeout: float = 15.0) -> None:
        self.recorder.wait_for(lambda _: bool(test()), timeout)

    def check_all(self) -> None:
        for s in self.recorder.seen:
            assert not s.retain, f"{s.topic} was retained"
            if s.payload:
                check(kind_of(s.topic, AWTRIX, WLED) or "", s.payload)


def listen(broker: Mosquitto, name: str) -> Devices:
    rec = Recorder(broker.host, broker.port, [f"{AWTRIX}/#", f"{WLED}/api"], client_id=name)
    assert rec.subscribed.wait(10)
    return Devices(rec)


def turn_of(app: dict[str, Any]) -> str | None:
    return next((f["t"].strip() for f in app.get("text", []) if f["c"] == TURN), None)


def text_of(app: dict[str, Any]) -> str:
    return "".join(f["t"] for f in app.get("text", []))


@pytest.fixture
def board(tmp_path: Path) -> Iterator[BoardEmulator]:
    with BoardEmulator(link=tmp_path / "board") as emulator:
        yield emulator


def settings_file(tmp_path: Path, broker: Mosquitto) -> Path:
    path = tmp_path / "settings.toml"
    path.write_text(
        f"""
[table]
id = "t1"
rules = "walnut"
seats = 4
names = ["Ximena", "Bo", "Carla", "Dev"]

[serial]
enabled = true
port = "{tmp_path / "board"}"

[mqtt]
host = "{broker.host}"
port = {broker.port}

[state]
dir = "{tmp_path / "state"}"

[outputs.awtrix]
prefix = "{AWTRIX}"

[outputs.wled]
topic = "{WLED}"
seats = [[0, 30], [30, 60], [60, 90], [90, 120]]

[outputs.voice]
"""
    )
    return path


def replies_to_pings(seen: list[Seen]) -> list[Seen]:
    return [s for s in seen if s.topic == f"{P}/cmd/reply" and s.json()["id"].startswith("ping")]


def plays(seen: list[Seen]) -> list[dict[str, Any]]:
    return [s.json() for s in seen if s.topic == f"{P}/event/play"]


def test_the_leaflets_hand_as_the_clock_and_the_strip_see_it(
    broker: Mosquitto, board: BoardEmulator, tmp_path: Path
) -> None:
    devices = listen(broker, "clock-and-strip")
    table_rec = Recorder(broker.host, broker.port, TOPICS)
    service = ChildProcess(
        [str(BIN), "run", "--settings", str(settings_file(tmp_path, broker))],
        tmp_path / "service.log",
        env={"HOME": str(null_sound_home(tmp_path))},  # espeak-ng speaks, unheard
    )
    service.start()
    try:
        table_rec.wait_for(lambda s: any(x.payload == b"online" for x in s), timeout=20)
        table = Table("walnut", 4, board)
        table.lay("5-5")
        table_rec.wait_for(lambda s: any(x.topic == f"{P}/event/alert" for x in s))
        send(broker, {"id": "lead-0", "action": "lead", "seat": 0})
        table_rec.wait_for(lambda s: any(x.topic == f"{P}/event/lead" for x in s))
        for tile, to, n in (("5-0", "5-5", 2), ("3-5", "5-5", 3), ("0-2", "5-0", 4)):
            table.lay(tile, to)
            table_rec.wait_for(lambda s, n=n: len(plays(s)) >= n)  # type: ignore[misc]
        # the clock: every score in seat order, Ximena's turn again in its own colour
        devices.wait(lambda: devices.apps() and text_of(devices.apps()[-1]) == (
            "Xi 10 Bo 10 Ca 0 De 5"))  # fmt: skip
        assert turn_of(devices.apps()[-1]) == "Xi"
        turns = [turn_of(a) for a in devices.apps()]
        assert [t for i, t in enumerate(turns) if t and t != turns[i - 1]][-4:] == [
            "Bo", "Ca", "De", "Xi",
        ]  # fmt: skip
        # a notification per scoring play: 5-5 (laid before the table knew who led), 5-0, 0-2
        devices.wait(lambda: len(devices.notes()) >= 3)
        assert devices.notes() == [
            {"text": "+10", "color": SCORED, "duration": 3},
            {"text": "Bo +10", "color": SCORED, "duration": 3},
            {"text": "Dev +5", "color": SCORED, "duration": 3},
        ]
        # the strip: the turn seat lit, in turn
        devices.wait(lambda: devices.strips()[-1] == [LIT, OFF, OFF, OFF])
        lit = [s.index(LIT) for s in devices.strips() if LIT in s]
        assert [seat for i, seat in enumerate(lit) if i == 0 or seat != lit[i - 1]] == [1, 2, 3, 0]

        # an illegal tile: the strip all red and a red notification, until it is lifted
        board.place(TileAt(6, 4, 570, 300, 594, 300))  # against the 2: it shows no 2
        devices.wait(lambda: devices.strips()[-1] == [(True, RED)] * 4)
        devices.wait(lambda: devices.notes()[-1]["color"] == ILLEGAL)
        got = table_rec.wait_for(
            lambda s: any(
                x.topic == f"{P}/event/alert" and x.json()["code"] == "NO_MATCH" for x in s
            )
        )
        alert = next(x.json() for x in got if x.topic == f"{P}/event/alert"
                     and x.json()["code"] == "NO_MATCH")  # fmt: skip
        assert devices.notes()[-1] == {"text": alert["message"], "color": ILLEGAL, "duration": 5}
        board.lift(Tile.parse("6-4"))
        devices.wait(lambda: devices.strips()[-1] == [LIT, OFF, OFF, OFF])
        devices.check_all()

        # the devices leave: the game goes on as before
        devices.recorder.close()
        table.lay("6-2", "2-0")
        got = table_rec.wait_for(lambda s: len(plays(s)) >= 5)
        assert plays(got)[-1]["tile"] == "6-2" and plays(got)[-1]["seat"] == 0
        assert service.alive() and not service.errors()

        # a device that comes back gets what changes next, also across a broker restart
        back = listen(broker, "clock-back")
        back.recorder.subscribed.clear()
        broker.restart()
        assert back.recorder.subscribed.wait(30)

        def answered() -> bool:  # the table is back on the broker, and so is its recorder
            send(broker, {"id": f"ping-{len(table_rec.seen)}", "action": "snapshot"})
            try:
                table_rec.wait_for(lambda s: bool(replies_to_pings(s)), timeout=2)
            except AssertionError:  # not yet
                return False
            return True

        service.wait_until(answered, timeout=30)
        table.lay("3-3", "5-3")  # Bo's
        back.wait(lambda: back.apps() and turn_of(back.apps()[-1]) == "Ca", timeout=30)
        back.wait(lambda: back.strips() and back.strips()[-1] == [OFF, OFF, LIT, OFF])
        assert text_of(back.apps()[-1]) == "Xi 10 Bo 10 Ca 0 De 5"

        # a clean stop: the clock's app is deleted (an empty payload), the strip dark
        assert service.stop() == 0
        back.wait(lambda: any(not s.payload for s in back.seen(APP)))
        back.wait(lambda: back.strips()[-1] == [OFF] * 4)
        back.check_all()
        back.recorder.close()
        assert not service.errors(), service.output()
        assert "voice:" not in service.output()  # espeak-ng spoke without a complaint
    finally:
        service.stop()
        table_rec.close()
