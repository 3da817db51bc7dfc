"""The MQTT link: order on (re)connect, acks, results, status. What the broker keeps or
loses across a restart, and reconnects, run against a real Mosquitto; the link's own
logic (order, acks, a failing journal or state) against the fake broker."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.inputs import Undo
from service.core.commands import Command
from service.mqtt.link import MqttLink
from service.store.journal import Journal
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_fake import FakeBroker
from tests.fixtures.mqtt_recorder import Recorder, Seen, mqtt_settings, play_payload, state_payload

P = "domino/t1"


class Table:
    """A journal, a state the link reads, and a link: the bits of the service the link sees."""

    def __init__(
        self,
        tmp_path: Path,
        broker: Mosquitto | FakeBroker,
        journal: Journal | None = None,
        **kw: Any,
    ) -> None:
        self.journal = journal or Journal(tmp_path / "state", "t1")
        self.state: dict[str, Any] | None = state_payload(seq=self.journal.last_seq())
        self.commands: list[Command] = []
        self.link = MqttLink(
            mqtt_settings(broker.host, broker.port, **kw),
            "t1",
            self.journal,
            state=lambda: self.state,
            on_command=self.commands.append,
        )

    def play(self, n: int) -> int:
        (seq,) = self.journal.append(Undo(), [("play", play_payload(n))])
        self.state = state_payload(seq=seq)
        self.link.publish_journaled([seq])
        self.link.publish_state(self.state)
        return seq

    def wait_commands(self, n: int, timeout: float = 5.0) -> list[Command]:
        deadline = time.monotonic() + timeout
        while len(self.commands) < n:
            assert time.monotonic() < deadline, f"commands handed on: {self.commands}"
            time.sleep(0.01)
        return self.commands

    def close(self) -> None:
        self.link.stop()
        self.journal.close()


@pytest.fixture
def table(tmp_path: Path, broker: Mosquitto) -> Iterator[Table]:
    t = Table(tmp_path, broker)
    yield t
    t.close()


def status_and_state(seen: list[Seen]) -> list[str]:
    out = []
    for s in seen:
        if s.topic == f"{P}/status":
            out.append(s.payload.decode())
        elif s.topic == f"{P}/state":
            out.append("state")
    return out


def wait_acked(journal: Journal, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while journal.pending_count() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert journal.pending_count() == 0


def test_state_before_online_on_connect_and_reconnect(table: Table, broker: Mosquitto) -> None:
    rec = Recorder(broker.host, broker.port, [f"{P}/#"])
    try:
        assert rec.subscribed.wait(5)
        table.link.start()
        assert table.link.wait_connected(5)
        rec.wait_for(lambda seen: status_and_state(seen) == ["state", "online"])
        assert table.link.status()["connected"] is True

        broker.kill()  # no clean goodbye: both clients must reconnect
        broker.start()
        rec.wait_for(
            lambda seen: (
                status_and_state(seen)[-2:] == ["state", "online"]
                and len(status_and_state(seen)) >= 4
            ),
            15,
        )
        after = status_and_state(rec.seen)[2:]
        assert after.index("state") < after.index("online")
    finally:
        rec.close()


@pytest.fixture
def fake_table(tmp_path: Path, mqtt_fake: FakeBroker) -> Iterator[Table]:
    t = Table(tmp_path, mqtt_fake)
    yield t
    t.close()


def test_events_arrive_in_seq_order_and_are_acked(fake_table: Table, mqtt_fake: FakeBroker) -> None:
    table = fake_table
    rec = Recorder(mqtt_fake.host, mqtt_fake.port, [f"{P}/event/#"])
    try:
        assert rec.subscribed.wait(5)
        table.link.start()
        assert table.link.wait_connected(5)
        seqs = [table.play(n) for n in range(60)]
        seen = rec.wait_for(lambda s: len(s) >= 60)
        assert [s.json()["seq"] for s in seen] == seqs == list(range(1, 61))
        assert all(s.topic == f"{P}/event/play" and not s.retain for s in seen)
        wait_acked(table.journal)
    finally:
        rec.close()


def test_events_published_while_offline_go_out_on_connect(
    tmp_path: Path, mqtt_fake: FakeBroker
) -> None:
    table = Table(tmp_path, mqtt_fake)
    try:
        seqs = [table.play(n) for n in range(5)]  # not started: nothing can be sent
        assert table.journal.pending_count() == 5
        rec = Recorder(mqtt_fake.host, mqtt_fake.port, [f"{P}/#"])
        assert rec.subscribed.wait(5)
        table.link.start()
        seen = rec.wait_for(lambda s: sum("/event/" in x.topic for x in s) >= 5)
        order = [
            x.topic.rsplit("/", 1)[-1] if "/event/" not in x.topic else x.json()["seq"]
            for x in seen
        ]
        assert order[:2] == ["state", "status"] and order[2:7] == seqs
        assert seen[0].json()["seq"] == 5  # the state republished is the latest
        wait_acked(table.journal)
        rec.close()
    finally:
        table.close()


def test_retained_state_survives_a_broker_restart(table: Table, broker: Mosquitto) -> None:
    table.link.start()
    assert table.link.wait_connected(5)
    table.play(1)
    wait_acked(table.journal)
    table.close()  # clean stop: offline
    broker.stop()
    broker.start()
    rec = Recorder(broker.host, broker.port, [f"{P}/state", f"{P}/status"])
    try:
        seen = rec.wait_for(lambda s: len(s) >= 2)
        by_topic = {s.topic: s for s in seen}
        assert by_topic[f"{P}/status"].payload == b"offline" and by_topic[f"{P}/status"].retain
        assert by_topic[f"{P}/state"].json()["seq"] == 1 and by_topic[f"{P}/state"].retain
    finally:
        rec.close()


def test_result_is_retained_and_sent_after_reconnect(table: Table, broker: Mosquitto) -> None:
    game = {
        "game_id": "g1",
        "seq": 9,
        "event": "over",
        "winner": 1,
        "team": None,
        "scores": [50, 150],
        "team_scores": [],
        "names": ["A", "B"],
    }
    table.link.publish_result("g1", game)  # not connected yet: kept until connected
    live = Recorder(broker.host, broker.port, [f"{P}/result/+"])
    try:
        assert live.subscribed.wait(5)
        table.link.start()
        (seen,) = live.wait_for(lambda s: len(s) >= 1)
        assert seen.topic == f"{P}/result/g1" and seen.json()["winner"] == 1
    finally:
        live.close()
    late = Recorder(broker.host, broker.port, [f"{P}/result/+"])
    try:
        (seen,) = late.wait_for(lambda s: len(s) >= 1)
        assert seen.topic == f"{P}/result/g1" and seen.retain
    finally:
        late.close()


def test_status_reports_the_broker_down(table: Table, broker: Mosquitto) -> None:
    table.link.start()
    assert table.link.wait_connected(5)
    broker.kill()
    deadline = time.monotonic() + 5
    while table.link.status()["connected"] and time.monotonic() < deadline:
        time.sleep(0.05)
    table.play(1)
    status = table.link.status()
    assert status["connected"] is False and status["pending"] == 1
    assert status["last_error"] and "password" not in str(status)
    broker.start()
    assert table.link.wait_connected(10)
    wait_acked(table.journal)


@pytest.mark.logs_errors
def test_a_failing_journal_does_not_stop_replies_or_the_network_thread(
    fake_table: Table, mqtt_fake: FakeBroker
) -> None:
    table = fake_table
    rec = Recorder(mqtt_fake.host, mqtt_fake.port, [f"{P}/state", f"{P}/cmd/reply"])
    try:
        table.link.start()
        assert table.link.wait_connected(5)
        table.journal.close()  # every journal call now fails, in paho's thread too
        rec.client.publish(f"{P}/cmd", b'{"id": "c1", "action": "shuffle"}', qos=1)
        rec.client.publish(f"{P}/cmd", b'{"id": "c2", "action": "undo"}', qos=1)
        replies = rec.wait_for(lambda s: any(x.topic.endswith("/reply") for x in s))
        (reply,) = [x.json() for x in replies if x.topic.endswith("/reply")]
        assert reply["id"] == "c1" and reply["ok"] is False  # sent, though not stored
        assert [c.id for c in table.wait_commands(1)] == ["c2"]
        assert table.link.status()["pending"] is None
        table.link.publish_state(state_payload(seq=7))  # the link still works
        rec.wait_for(lambda s: any(x.json().get("seq") == 7 for x in s))
    finally:
        rec.close()


def test_acks_are_not_fsynced_but_appends_are(tmp_path: Path) -> None:
    with Journal(tmp_path, "t") as j:
        j.append(None, [("play", play_payload(1))])
        j.mark_acked(1)
        assert j._query("PRAGMA synchronous")[0][0] == 2  # FULL again after the ack


def test_acks_map_mids_to_seqs_and_never_ack_queued_publishes() -> None:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import MQTTErrorCode

    from service.mqtt.link import _Acks

    def info(mid: int, rc: int) -> mqtt.MQTTMessageInfo:
        i = mqtt.MQTTMessageInfo(mid)
        i.rc = MQTTErrorCode(rc)
        return i

    acks = _Acks()
    assert acks.sent(info(1, 0), 10) is False
    assert acks.acked(1) == 10  # the usual order
    assert acks.acked(2) is None  # the ack beat publish() back
    assert acks.sent(info(2, 0), 11) is True
    assert acks.sent(info(3, 4), 12) is False  # rc 4: queued by paho while offline
    assert acks.acked(3) is None  # paho's later resend is never taken as the event's ack
    assert acks.sent(info(4, 0), None) is False  # state, status, replies: not events
    assert acks.acked(4) is None


@pytest.mark.logs_errors
def test_a_failing_state_callable_still_lets_the_link_come_online(
    tmp_path: Path, mqtt_fake: FakeBroker
) -> None:
    def broken() -> dict[str, Any]:
        raise RuntimeError("not ready")

    with Journal(tmp_path / "state", "t1") as journal:
        link = MqttLink(
            mqtt_settings(mqtt_fake.host, mqtt_fake.port),
            "t1",
            journal,
            state=broken,
            on_command=print,
        )
        link.publish_state(state_payload(seq=3))  # before the connection: kept
        rec = Recorder(mqtt_fake.host, mqtt_fake.port, [f"{P}/state", f"{P}/status"])
        try:
            assert rec.subscribed.wait(5)
            link.start()
            assert link.wait_connected(5)
            seen = rec.wait_for(lambda s: len(s) >= 2)
            assert [s.topic.rsplit("/", 1)[1] for s in seen[:2]] == ["state", "status"]
            assert seen[0].json()["seq"] == 3
        finally:
            link.stop()
            rec.close()
