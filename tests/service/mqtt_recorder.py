"""Test helpers: a subscriber that records what a table publishes, and minimal payloads."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Self

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from config.settings import MqttSettings
from tests.fixtures.spec import kind_of_topic, validate


@dataclass(frozen=True)
class Seen:
    topic: str
    payload: bytes
    retain: bool

    def json(self) -> Any:
        return json.loads(self.payload)


class Recorder:
    """A paho subscriber that validates every JSON payload it sees against the spec."""

    def __init__(
        self,
        host: str,
        port: int,
        topics: list[str],
        *,
        client_id: str = "",
        persistent: bool = False,
    ) -> None:
        self.seen: list[Seen] = []
        self.errors: list[str] = []  # payloads that break the spec
        self._cond = threading.Condition()
        self._topics = topics
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=client_id,
            clean_session=not persistent,
            protocol=mqtt.MQTTv311,
        )
        self.client.reconnect_delay_set(1, 2)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.subscribed = threading.Event()
        self.client.on_subscribe = lambda *a: self.subscribed.set()
        self.client.connect_async(host, port, keepalive=10)
        self.client.loop_start()

    def _on_connect(self, client: mqtt.Client, *args: Any) -> None:
        for topic in self._topics:
            client.subscribe(topic, qos=1)

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        kind = kind_of_topic(msg.topic)
        try:
            if kind is not None and msg.payload and not msg.topic.startswith("homeassistant/"):
                validate(kind, json.loads(msg.payload))
        except (AssertionError, ValueError) as exc:
            self.errors.append(f"{msg.topic}: {exc}")
        with self._cond:
            self.seen.append(Seen(msg.topic, bytes(msg.payload), bool(msg.retain)))
            self._cond.notify_all()

    def wait_for(self, test: Callable[[list[Seen]], bool], timeout: float = 10.0) -> list[Seen]:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not test(self.seen):
                assert not self.errors, self.errors
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(
                        "timed out; seen: "
                        + "; ".join(f"{s.topic} {s.payload[:80]!r}" for s in self.seen[-20:])
                    )
                self._cond.wait(left)
            assert not self.errors, self.errors
            return list(self.seen)

    def on(self, topic: str) -> list[Seen]:
        with self._cond:
            return [s for s in self.seen if s.topic == topic]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
        assert not self.errors, self.errors

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def mqtt_settings(host: str, port: int, table: str = "t1", **kw: Any) -> MqttSettings:
    return MqttSettings(
        host=host,
        port=port,
        prefix=f"domino/{table}",
        client_id=f"domino-table-{table}",
        keepalive=5,
        **kw,
    )


def state_payload(seq: int = 1, seats: int = 2, **kw: Any) -> dict[str, Any]:
    """A minimal spec-valid state (without the envelope, which the link adds).

    The schema's common part wants `seq` >= 1, so a state needs an event before it.
    """
    return {
        "seq": max(seq, 1),
        "game_id": "g1",
        "rules": "walnut",
        "target": 150,
        "hand": 1,
        "phase": "play",
        "turn": 0,
        "surface": {"width_mm": 900, "height_mm": 600},
        "seats": [
            {
                "seat": n,
                "name": f"P{n}",
                "team": None,
                "side": "bottom",
                "score": 5 * n,
                "tiles_left": None,
            }
            for n in range(seats)
        ],
        "teams": [],
        "layout": {"tiles": [], "spinner": None, "open_ends": [], "ends_total": 0},
        "boneyard": None,
        "alerts": [],
        "history": [],
        "last": None,
    } | kw


def play_payload(n: int) -> dict[str, Any]:
    return {
        "game_id": "g1",
        "hand": 1,
        "seat": n % 2,
        "tile": "6-4",
        "points": 0,
        "ends_total": 10,
        "score": 0,
        "announce": [],
        "n": n,
    }
