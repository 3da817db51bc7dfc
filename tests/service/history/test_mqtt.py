"""`history` and `frame` over MQTT, on a real Mosquitto: the replies (checked against the
spec's schema by the recorder), the picture on `history/frame`, replies never kept in the
journal, and a full disk said by a `DISK_FULL` alert while the game goes on."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from config.loader import load_settings
from engine import Tile
from engine.geometry import Placer
from engine.surface import SeenTile, Snapshot
from mqttweb.frame_mark import read_mark
from service.app import TableService
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_recorder import Recorder, Seen
from tests.fixtures.service_process import TOPICS, replies, send
from tests.fixtures.tiers import needs
from tests.service.core.test_faults_disk import SmallDisk
from tests.service.faults import JournalView

P = "domino/t1"


class Board:
    """Snapshots a board would send, straight to the service."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.placer = Placer(900, 600)
        self.surface: list[SeenTile] = []

    def lay(self, tile: str, rec: Recorder) -> None:
        game = self.service.core.game
        reconciler = self.service.core.reconciler
        assert game is not None and reconciler is not None
        coords = [p for p in reconciler.placed() if p is not None]
        t = Tile.parse(tile)
        end = next((e for e in game.layout.ends if e.pip in (t.high, t.low)), None)
        self.surface.append(self.placer.place(game.layout, coords, t, end))
        want = len(plays(rec.seen)) + 1
        self.service.submit(Snapshot(tuple(self.surface), at=time.monotonic()))
        rec.wait_for(lambda s: len(plays(s)) >= want)


def plays(seen: list[Seen]) -> list[dict[str, Any]]:
    return [s.json() for s in seen if s.topic == f"{P}/event/play"]


def ask(broker: Mosquitto, rec: Recorder, body: dict[str, Any]) -> dict[str, Any]:
    send(broker, body)
    got = rec.wait_for(lambda s: body["id"] in replies(s))
    return replies(got)[body["id"]]


@pytest.fixture
@needs("process")
def table(broker: Mosquitto, tmp_path: Path) -> Iterator[tuple[TableService, Recorder]]:
    settings = load_settings(
        None,
        {
            "table.id": "t1",
            "table.rules": "straight-block",
            "table.seats": 2,
            "mqtt.host": broker.host,
            "mqtt.port": broker.port,
            "state.dir": str(tmp_path / "state"),
        },
    )
    rec = Recorder(broker.host, broker.port, [*TOPICS, f"{P}/history/frame"])
    service = TableService(settings)
    service.start()
    try:
        rec.wait_for(lambda s: any(x.payload == b"online" for x in s), timeout=20)
        yield service, rec
    finally:
        service.stop()
        rec.close()


def test_history_and_frame_over_mqtt(
    broker: Mosquitto, tmp_path: Path, table: tuple[TableService, Recorder]
) -> None:
    service, rec = table
    board = Board(service)
    board.lay("6-6", rec)
    assert ask(broker, rec, {"id": "lead", "action": "lead", "seat": 0})["ok"]
    board.lay("6-3", rec)
    reply = ask(broker, rec, {"id": "h1", "action": "history"})
    assert reply["ok"] and reply["error"] is None
    detail = reply["detail"]
    published = {s.json()["seq"]: s.json() for s in rec.seen if "/event/" in s.topic}
    assert [{k: v for k, v in e.items() if k != "type"} for e in detail["events"]] == [
        published[seq] for seq in sorted(published)
    ]  # every event of the game, as it was published
    seq = plays(rec.seen)[-1]["seq"]
    assert seq in detail["frames"]

    reply = ask(
        broker, rec, {"id": "f1", "action": "frame", "game_id": detail["game_id"], "seq": seq}
    )
    assert reply["ok"] and reply["detail"]["type"] == "image/png"
    (picture,) = rec.on(f"{P}/history/frame")
    assert picture.payload.startswith(b"\x89PNG") and not picture.retain
    assert read_mark(picture.payload) == {"game_id": detail["game_id"], "seq": seq}
    assert rec.seen.index(picture) < next(
        i for i, s in enumerate(rec.seen) if s.topic == f"{P}/cmd/reply" and s.json()["id"] == "f1"
    )  # the picture, then the reply

    missing = ask(broker, rec, {"id": "f2", "action": "frame", "game_id": "nope", "seq": seq})
    assert not missing["ok"] and "No frame is kept" in missing["error"]
    bad = ask(broker, rec, {"id": "f3", "action": "frame", "game_id": detail["game_id"]})
    assert not bad["ok"] and bad["error"] == '"frame" needs "seq".'
    assert len(rec.on(f"{P}/history/frame")) == 1  # nothing else published

    # a repeated id: the same reply again, the picture not published twice; and only
    # the commands that change the game keep their replies in the journal
    send(broker, {"id": "h1", "action": "history"})
    rec.wait_for(
        lambda s: sum(1 for x in s if x.topic.endswith("cmd/reply") and x.json()["id"] == "h1") == 2
    )
    again = [s.json() for s in rec.on(f"{P}/cmd/reply") if s.json()["id"] == "h1"]
    assert again[0] == again[1]
    journal = JournalView(tmp_path / "state")
    assert journal.reply("lead") is not None
    assert journal.reply("h1") is None and journal.reply("f1") is None


@pytest.mark.process
def test_a_full_disk_for_the_record_raises_an_alert_and_the_game_goes_on(
    broker: Mosquitto, tmp_path: Path
) -> None:
    disk = SmallDisk(tmp_path / "state" / "history", "1m")
    settings = load_settings(
        None,
        {
            "table.id": "t1",
            "table.rules": "straight-block",
            "table.seats": 2,
            "table.language": "es",
            "mqtt.host": broker.host,
            "mqtt.port": broker.port,
            "state.dir": str(tmp_path / "state"),
        },
    )
    rec = Recorder(broker.host, broker.port, TOPICS)
    service = TableService(settings)
    service.start()
    try:
        rec.wait_for(lambda s: any(x.payload == b"online" for x in s), timeout=20)
        board = Board(service)
        board.lay("6-6", rec)
        assert ask(broker, rec, {"id": "lead", "action": "lead", "seat": 1})["ok"]
        assert service.history.wait_idle()
        disk.fill()
        board.lay("6-1", rec)  # the game goes on

        def alerts(seen: list[Seen]) -> list[dict[str, Any]]:
            return [
                s.json()
                for s in seen
                if s.topic == f"{P}/event/alert" and s.json()["code"] == "DISK_FULL"
            ]

        (raised,) = alerts(rec.wait_for(lambda s: len(alerts(s)) >= 1))
        assert raised["severity"] == "fault" and not raised["resolved"]
        assert raised["message"].startswith("La mesa no puede guardar el historial")
        board.lay("1-1", rec)  # and commands too
        assert ask(broker, rec, {"id": "pass", "action": "pass", "seat": 0})["ok"]
        disk.free()
        got = rec.wait_for(lambda s: len(alerts(s)) >= 2, timeout=30)
        assert alerts(got)[-1]["resolved"] and alerts(got)[-1]["id"] == raised["id"]
        assert service.history.wait_idle()
        detail = ask(broker, rec, {"id": "h", "action": "history"})["detail"]
        assert [e["tile"] for e in detail["events"] if e["type"] == "play"] == ["6-6", "6-1", "1-1"]
    finally:
        service.stop()
        rec.close()
        disk.unmount()
