"""The table's MQTT link over the in-process fake broker, handed to it as its client factory
(the fake's own promises, checked beside Mosquitto: tests/fixtures/test_mqtt_fake.py)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.subscribeoptions import SubscribeOptions

from engine.inputs import Undo
from service.core.commands import Command, GameCommand
from service.mqtt.link import MqttLink
from service.store.journal import Journal
from tests.fixtures.mqtt_fake import FakeBroker, FakeClient
from tests.fixtures.mqtt_recorder import mqtt_settings, play_payload, state_payload
from tests.fixtures.spec import kind_of_topic, validate

P = "domino/t1"


Seen = tuple[str, bytes, bool]


class Watcher:
    """A fake subscriber recording (topic, payload, retain), validating JSON payloads."""

    def __init__(self, broker: FakeBroker, patterns: list[str]) -> None:
        self.seen: list[Seen] = []
        self.cond = threading.Condition()
        self.client: FakeClient = broker.client("watcher")

        def subscribe(c: FakeClient, *_: object) -> None:
            for pattern in patterns:
                c.subscribe(pattern, qos=1)

        self.client.on_connect = subscribe
        self.client.on_message = self._message
        self.client.connect_async("fake")
        self.client.loop_start()

    def _message(self, client: Any, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        kind = kind_of_topic(msg.topic)
        if kind is not None and msg.payload:
            validate(kind, json.loads(msg.payload))
        with self.cond:
            self.seen.append((msg.topic, bytes(msg.payload), bool(msg.retain)))
            self.cond.notify_all()

    def wait(self, test: Callable[[list[Seen]], bool], timeout: float = 5.0) -> list[Seen]:
        with self.cond:
            assert self.cond.wait_for(lambda: test(self.seen), timeout), self.seen
            return list(self.seen)


def last_parts(seen: list[Seen]) -> list[str]:
    return [t.rsplit("/", 1)[1] for t, _, _ in seen]


def make_link(broker: FakeBroker, journal: Journal, commands: list[Command]) -> MqttLink:
    return MqttLink(
        mqtt_settings("fake", 1883),
        "t1",
        journal,
        state=lambda: state_payload(seq=max(journal.last_seq(), 1)),
        on_command=commands.append,
        client_factory=broker.client_factory,
    )


def test_link_over_the_fake(tmp_path: Path) -> None:
    broker = FakeBroker()
    watcher = Watcher(broker, [f"{P}/state", f"{P}/status", f"{P}/event/#", f"{P}/cmd/reply"])
    commands: list[Command] = []
    with Journal(tmp_path, "t1") as journal:
        link = make_link(broker, journal, commands)
        link.start()
        assert link.wait_connected(5)
        assert last_parts(watcher.wait(lambda s: len(s) >= 2)) == ["state", "status"]
        for n in range(5):
            link.publish_journaled(journal.append(Undo(), [("play", play_payload(n))]))
        seen = watcher.wait(lambda s: len(s) >= 7)
        assert [json.loads(p)["seq"] for t, p, _ in seen if "/event/" in t] == [1, 2, 3, 4, 5]
        deadline = time.monotonic() + 5
        while journal.pending_count():
            assert time.monotonic() < deadline
            time.sleep(0.01)

        watcher.client.publish(f"{P}/cmd", b'{"id": "r", "action": "undo"}', retain=True)
        watcher.client.publish(f"{P}/cmd", b'{"id": "c1", "action": "undo"}')
        while not commands:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        link.reply("c1", True)
        seen = watcher.wait(lambda s: "reply" in last_parts(s))
        replies = [json.loads(p) for t, p, _ in seen if t.endswith("/cmd/reply")]
        assert commands == [GameCommand("c1", Undo())]
        assert [(r["id"], r["ok"]) for r in replies] == [("c1", True)]

        before = len(seen)
        broker.down()  # the link reconnects and catches up again: state, then online
        broker.up()
        seen = watcher.wait(lambda s: "status" in last_parts(s[before:]), timeout=10)
        assert last_parts(seen[before:])[:2] == ["state", "status"]
        assert link.wait_connected(5)
        link.stop()
    assert broker.retained[f"{P}/status"] == b"offline"
    watcher.client.disconnect()
    watcher.client.loop_stop()


def test_a_crashed_client_leaves_its_will(tmp_path: Path) -> None:
    broker = FakeBroker()
    with Journal(tmp_path, "t1") as journal:
        link = make_link(broker, journal, [])
        link.start()
        assert link.wait_connected(5)
        assert broker.retained[f"{P}/status"] == b"online"
        broker.made[-1].crash()
        assert broker.retained[f"{P}/status"] == b"offline"
        late = broker.client("late")
        got: list[mqtt.MQTTMessage] = []
        late.on_message = lambda c, u, m: got.append(m)
        late.on_connect = lambda c, u, f, r, p: c.subscribe(
            f"{P}/status", options=SubscribeOptions(qos=1)
        )
        late.connect_async("fake")
        late.loop_start()
        deadline = time.monotonic() + 5
        while not got:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert got[0].payload == b"offline" and got[0].retain
        late.loop_stop()
