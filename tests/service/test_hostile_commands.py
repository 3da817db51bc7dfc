"""Malformed, unknown and hostile commands against the real service and Mosquitto: each
is answered `ok: false` (with its id when one can be read) or, where the spec says so
(a retained command, another table's topic), ignored; none changes anything: the
journal's seq and inputs, and the retained state, stay as they were. A command the table
fails on is still answered (the service in this process, on the fake broker)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from config.loader import load_settings
from service.app import TableService
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_fake import FakeBroker
from tests.fixtures.mqtt_recorder import Recorder
from tests.fixtures.service_process import Service
from tests.fixtures.tiers import needs
from tests.service.faults import (
    TOPICS,
    Commander,
    JournalView,
    P,
    fresh_state,
    statuses,
)

ROOT = Path(__file__).resolve().parents[2]
FAKE_TS = "2026-01-01T00:00:00.000Z"
ANY_ID = "<any>"  # the reply may carry the id or "" (the payload could not be read)


@dataclass(frozen=True)
class Case:
    name: str
    payload: bytes
    reply_id: str | None  # None: no reply at all (ignored)
    topic: str = f"{P}/cmd"
    retain: bool = False


def body(**fields: Any) -> bytes:
    return json.dumps(fields).encode()


def nested(depth: int) -> bytes:
    return b'{"id": "deep", "action": "pass", "seat": ' + b"[" * depth + b"]" * depth + b"}"


def cases(tmp_path: Path) -> list[Case]:
    house = tmp_path / "house.toml"
    house.write_text((ROOT / "engine" / "rulesets" / "walnut.toml").read_text())
    big_name = "x" * (1024 * 1024)
    return [
        Case("bad json", b"{not json", ""),
        Case("empty", b"", ""),
        Case("binary garbage", bytes(range(256)) * 8, ""),
        Case("not utf-8", b'{"id": "latin", "action": "undo", "x": "\xe9"}', ""),
        Case("a list", b'[{"id": "l1", "action": "undo"}]', ""),
        Case("a string", b'"undo"', ""),
        Case("null", b"null", ""),
        Case("missing id", body(action="undo"), ""),
        Case("numeric id", body(id=5, action="undo"), ""),
        Case("empty id", body(id="", action="undo"), ""),
        Case("id too long", body(id="i" * 129, action="undo"), ""),
        Case("missing action", body(id="na"), "na"),
        Case("unknown action", body(id="ua", action="shuffle"), "ua"),
        Case("action of another case", body(id="uc", action="PASS"), "uc"),
        Case("wrong type seat", body(id="wt", action="pass", seat="zero"), "wt"),
        Case("bool seat", body(id="wb", action="pass", seat=True), "wb"),
        Case("float seat", body(id="wf", action="pass", seat=1.0), "wf"),
        Case("negative seat", body(id="ns", action="lead", seat=-1), "ns"),
        Case("no such seat", body(id="ss", action="lead", seat=7), "ss"),
        Case("huge count", body(id="hc", action="draw", count=10**30), "hc"),
        Case("NaN", b'{"id": "nan", "action": "draw", "count": NaN}', "nan"),
        Case(
            "Infinity",
            b'{"id": "inf", "action": "new_game", "rules": "walnut", "seats": 1e999}',
            "inf",
        ),
        Case("unknown field", body(id="uf", action="undo", sudo=True), "uf"),
        Case("missing field", body(id="mf", action="lead"), "mf"),
        Case("count both", body(id="cb", action="count", seat=0, pips=3, tiles=["1-1"]), "cb"),
        Case("bad tile", body(id="bt", action="correct", tile="7-7", **{"as": "x"}), "bt"),
        Case("out of place", body(id="op", action="undo"), "op"),
        Case("unknown rules", body(id="ur", action="new_game", rules="chess", seats=2), "ur"),
        Case(
            "rules from a file path",
            body(id="fp", action="new_game", rules="/etc/passwd", seats=2),
            "fp",
        ),
        Case(
            "rules from a house file",
            body(id="hf", action="new_game", rules=str(house), seats=2),
            "hf",
        ),
        Case(
            "lone surrogate name",
            b'{"id": "sur", "action": "rename", "seat": 0, "name": "\\ud800x"}',
            "sur",
        ),
        Case("lone surrogate id", b'{"id": "x\\udfff", "action": "undo"}', ""),
        Case("null name", body(id="nn", action="rename", seat=0, name=None), "nn"),
        Case("null tile", body(id="nt", action="correct", tile=None, **{"as": "6-4"}), "nt"),
        Case("null seat", body(id="nz", action="lead", seat=None), "nz"),
        Case("a NUL in a name", body(id="n0", action="rename", seat=0, name="a\u0000b"), "n0"),
        Case(
            "rules with a line break",
            body(id="wn", action="new_game", rules="walnut\n", seats=2),
            "wn",
        ),
        Case("name too long", body(id="nl", action="rename", seat=0, name="n" * 33), "nl"),
        Case("1 MB payload", body(id="big", action="rename", seat=0, name=big_name), ""),
        Case("deeply nested", nested(20_000), ANY_ID),
        Case("nested under the limit", nested(5_000), ANY_ID),
        Case(
            "another table",
            body(id="t2", action="new_game", rules="walnut", seats=3),
            None,
            topic="domino/t2/cmd",
        ),
        Case(
            "below the cmd topic",
            body(id="sub", action="new_game", rules="walnut", seats=3),
            None,
            topic=f"{P}/cmd/x",
        ),
        Case(
            "a fake reply",
            body(v=1, table="t1", ts=FAKE_TS, id="ng1", ok=False, error="fake"),
            None,
            topic=f"{P}/cmd/reply",
        ),
        Case(
            "retained",
            body(id="ret", action="new_game", rules="walnut", seats=3),
            None,
            retain=True,
        ),
        Case("replayed id", body(id="ng1", action="new_game", rules="walnut", seats=4), "ng1"),
    ]


class Journal:
    """What must not change: the seq, the inputs, the stored events."""

    def __init__(self, state_dir: Path) -> None:
        self.view = JournalView(state_dir)

    def fingerprint(self) -> tuple[int, int, int]:
        db = sqlite3.connect(f"file:{self.view.path}?mode=ro", uri=True)
        try:
            inputs = db.execute("SELECT count(*) FROM inputs").fetchone()[0]
            events = db.execute("SELECT count(*) FROM events").fetchone()[0]
        finally:
            db.close()
        return self.view.last_seq(), inputs, events


@pytest.fixture
@needs("process")
def service(broker: Mosquitto, tmp_path: Path) -> Iterator[Service]:
    with Service(broker, tmp_path / "state", "--rules", "puerto-rico", "--seats", "4",
                 log=tmp_path / "service.log") as proc:  # fmt: skip
        yield proc


def replies(rec: Recorder) -> list[dict[str, Any]]:
    return [s.json() for s in rec.on(f"{P}/cmd/reply")]


def marked(rec: Recorder, mark: str, _: object = None) -> bool:
    return any(r["id"] == mark for r in replies(rec))


def without_ts(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "ts"}


def test_hostile_commands_are_refused_and_change_nothing(
    broker: Mosquitto, service: Service, tmp_path: Path
) -> None:
    rec = Recorder(broker.host, broker.port, [*TOPICS, "domino/t2/#"])
    commands = Commander(broker)
    journal = Journal(tmp_path / "state")
    try:
        rec.wait_for(lambda s: b"online" in statuses(s), timeout=20)
        commands.send({"id": "ng1", "action": "new_game", "rules": "walnut", "seats": 2})
        rec.wait_for(lambda s: any(r["id"] == "ng1" for r in replies(rec)), timeout=10)
        (first,) = replies(rec)
        assert first["ok"] is True
        before = journal.fingerprint()
        state = fresh_state(broker)
        assert state["seq"] == before[0]

        for n, case in enumerate(cases(tmp_path)):
            seen = len(replies(rec))
            commands.publish(case.payload, topic=case.topic, retain=case.retain)
            mark = f"mark-{n}"  # refused in the lead phase: handled after the case
            commands.send({"id": mark, "action": "undo"})
            rec.wait_for(partial(marked, rec, mark), timeout=10)
            got = [
                r
                for r in replies(rec)[seen:]
                if r["id"] != mark and r["ts"] != FAKE_TS  # our own fake reply
            ]
            if case.reply_id is None:
                assert got == [], case.name
            else:
                assert len(got) == 1, (case.name, got)
                reply = got[0]
                if case.name == "replayed id":
                    assert reply == first, "a replayed id gets the first reply again"
                else:
                    assert reply["ok"] is False and reply["error"], (case.name, reply)
                    if case.reply_id != ANY_ID:
                        assert reply["id"] == case.reply_id, (case.name, reply)
            assert journal.fingerprint() == before, case.name
            assert not [s for s in rec.seen if s.topic.startswith("domino/t2/cmd/reply")]

        after = fresh_state(broker)
        assert without_ts(after) == without_ts(state)
        assert [s.json()["seq"] for s in rec.on(f"{P}/state")][-1] == state["seq"]
        assert not service.errors(), service.errors()

        # The retained command is still on the broker: a restarted service ignores it.
        service.stop()
        service.start()
        rec.wait_for(lambda s: statuses(s)[-1:] == [b"online"], timeout=20)
        commands.send({"id": "mark-end", "action": "undo"})
        rec.wait_for(lambda s: any(r["id"] == "mark-end" for r in replies(rec)), timeout=10)
        assert not [r for r in replies(rec) if r["id"] == "ret"]
        assert journal.fingerprint() == before
        assert without_ts(fresh_state(broker)) == without_ts(state)
        assert not service.errors(), service.errors()
    finally:
        commands.publish(b"", retain=True)  # clear the retained command
        rec.close()


@pytest.mark.logs_errors
def test_a_command_the_table_fails_on_is_still_answered(
    mqtt_fake: FakeBroker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = load_settings(
        None,
        {
            "table.id": "t1", "table.rules": "walnut", "table.seats": 2,
            "serial.enabled": False, "mqtt.host": mqtt_fake.host, "mqtt.port": mqtt_fake.port,
            "state.dir": str(tmp_path / "state"),
        },
    )  # fmt: skip
    rec = Recorder(mqtt_fake.host, mqtt_fake.port, TOPICS)
    service = TableService(settings)

    def broken(command: object) -> str | None:
        raise RuntimeError("a fault of ours")

    monkeypatch.setattr(service.core, "command", broken)
    service.start()
    try:
        assert service.mqtt is not None and service.mqtt.wait_connected(10)
        Commander(mqtt_fake).send({"id": "r1", "action": "rename", "seat": 0, "name": "Ana"})
        got = rec.wait_for(lambda s: bool(replies(rec)), timeout=10)
        assert got
        (reply,) = replies(rec)
        assert reply["id"] == "r1" and reply["ok"] is False and "a fault of ours" in reply["error"]
    finally:
        service.stop()
        rec.close()
