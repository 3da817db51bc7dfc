"""Commands over MQTT, on the fake broker (what is tested is the link's intake, not the
broker): refusals, retained commands, duplicates, replies that last."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.inputs import Pass, Undo
from service.core.commands import GameCommand
from service.core.payloads import reply_payload
from tests.fixtures.mqtt_fake import FakeBroker
from tests.fixtures.mqtt_recorder import Recorder, Seen
from tests.service.mqtt.test_link import P, Table

CMD = f"{P}/cmd"
REPLY = f"{P}/cmd/reply"


@pytest.fixture
def table(tmp_path: Path, mqtt_fake: FakeBroker) -> Iterator[Table]:
    t = Table(tmp_path, mqtt_fake)
    t.link.start()
    assert t.link.wait_connected(5)
    yield t
    t.close()


@pytest.fixture
def desk(mqtt_fake: FakeBroker) -> Iterator[Recorder]:
    rec = Recorder(mqtt_fake.host, mqtt_fake.port, [REPLY])
    assert rec.subscribed.wait(5)
    yield rec
    rec.close()


def send(desk: Recorder, body: object, *, retain: bool = False) -> None:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    desk.client.publish(CMD, raw, qos=1, retain=retain).wait_for_publish(5)


def replies(seen: list[Seen]) -> list[dict[str, object]]:
    return [s.json() for s in seen if s.topic == REPLY]


def wait_replies(desk: Recorder, n: int) -> list[dict[str, object]]:
    return replies(desk.wait_for(lambda s: len(replies(s)) >= n))


def test_malformed_commands_get_ok_false_and_change_nothing(table: Table, desk: Recorder) -> None:
    send(desk, b"{not json")
    send(desk, [1, 2])
    send(desk, {"action": "pass"})
    send(desk, {"id": "c1", "action": "shuffle"})
    send(desk, {"id": "c2", "action": "lead", "seat": "two"})
    send(desk, {"id": "c3", "action": "undo", "pad": "x" * 17000})
    got = wait_replies(desk, 6)
    assert [(r["id"], r["ok"]) for r in got] == [
        ("", False),
        ("", False),
        ("", False),
        ("c1", False),
        ("c2", False),
        ("", False),
    ]
    errors = [str(r["error"]) for r in got]
    assert "not JSON" in errors[0]
    assert "JSON object" in errors[1]
    assert 'needs an "id"' in errors[2]
    assert 'Unknown action "shuffle"' in errors[3]
    assert '"seat" must be a seat number' in errors[4]
    assert "at most 16384" in errors[5]
    assert table.commands == []


def test_retained_commands_are_ignored(table: Table, desk: Recorder, mqtt_fake: FakeBroker) -> None:
    send(desk, {"id": "r1", "action": "undo"}, retain=True)  # live, but published retained
    send(desk, {"id": "c1", "action": "undo"})
    table.wait_commands(1)  # commands are handled in order: r1 came first and was ignored
    table.link.reply("c1", True)
    got = wait_replies(desk, 1)
    assert [r["id"] for r in got] == ["c1"]
    assert table.commands == [GameCommand("c1", Undo())]
    # A retained command sitting on the broker when a table connects is ignored too.
    table.link.stop()
    later = Table(table.journal.path.parent.parent / "other", mqtt_fake)
    try:
        later.link.start()
        assert later.link.wait_connected(5)
        send(desk, {"id": "c2", "action": "undo"})
        later.wait_commands(1)
        later.link.reply("c2", True)
        got = wait_replies(desk, 2)
        assert [r["id"] for r in got] == ["c1", "c2"]
        assert later.commands == [GameCommand("c2", Undo())]
    finally:
        later.close()
        desk.client.publish(CMD, b"", qos=1, retain=True).wait_for_publish(5)


def test_a_duplicate_id_gets_the_same_reply_and_is_applied_once(
    table: Table, desk: Recorder, tmp_path: Path, mqtt_fake: FakeBroker
) -> None:
    send(desk, {"id": "c1", "action": "pass", "seat": 1})
    table.wait_commands(1)
    send(desk, {"id": "c1", "action": "pass", "seat": 1})  # before the service answered
    table.link.reply("c1", True)
    first, again = wait_replies(desk, 2)
    assert first == again and first["ok"] is True and first["error"] is None
    send(desk, {"id": "c1", "action": "pass", "seat": 1})  # after the answer
    assert wait_replies(desk, 3)[2] == first
    send(desk, {"id": "c1", "action": "shuffle"})  # same id, even malformed: same reply
    assert wait_replies(desk, 4)[3] == first
    assert table.commands == [GameCommand("c1", Pass(seat=1))]

    # The reply is in the journal: a restarted table answers the same and applies nothing.
    table.link.stop()
    again_table = Table(tmp_path, mqtt_fake, journal=table.journal)
    again_table.link.start()
    try:
        assert again_table.link.wait_connected(5)
        send(desk, {"id": "c1", "action": "pass", "seat": 1})
        assert wait_replies(desk, 5)[4] == first
        assert again_table.commands == []
    finally:
        again_table.link.stop()


def test_refused_reply_is_also_kept(table: Table, desk: Recorder) -> None:
    send(desk, {"id": "c9", "action": "out", "seat": 1})
    table.wait_commands(1)
    table.link.reply("c9", False, "Nobody can go out before the hand starts.")
    send(desk, {"id": "c9", "action": "out", "seat": 1})
    a, b = wait_replies(desk, 2)
    assert a == b and a["error"] == "Nobody can go out before the hand starts."
    assert len(table.commands) == 1


def test_reply_stored_with_the_events_is_the_one_published(table: Table, desk: Recorder) -> None:
    send(desk, {"id": "c5", "action": "undo"})
    table.wait_commands(1)
    stored = reply_payload("t1", "c5", True)
    table.journal.append(Undo(), [], reply=stored)
    table.link.reply("c5", True)
    (got,) = wait_replies(desk, 1)
    assert got == stored
