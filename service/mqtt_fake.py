"""A real fake of the MQTT client: an in-process broker and paho-compatible clients.

`FakeBroker().client` is a `client_factory` for `MqttLink`, so the service runs on a
laptop with no broker at all (and the link's logic can be tested without one). It keeps
what the link relies on: retained messages (an empty payload deletes), `+`/`#`
wildcards, in-order delivery, acks (`on_publish`) after delivery, subscription acks,
the Last Will when a client `crash()`es, a broker that goes `down()` and comes `up()`
again (clients reconnect every second), and MQTT 5's retain-as-published. It does not
do QoS 2, sessions, authentication or TLS (those settings are accepted and ignored).
Callbacks run on each client's own thread, as paho's do.
"""

from __future__ import annotations

import functools
import itertools
import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import paho.mqtt.client as mqtt
from paho.mqtt.enums import MQTTErrorCode
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.reasoncodes import ReasonCode
from paho.mqtt.subscribeoptions import SubscribeOptions

log = logging.getLogger(__name__)


def topic_matches(pattern: str, topic: str) -> bool:
    """MQTT topic filter matching (`+` one level, `#` the rest)."""
    want, have = pattern.split("/"), topic.split("/")
    for index, level in enumerate(want):
        if level == "#":
            return True
        if index >= len(have) or (level not in ("+", have[index])):
            return False
    return len(want) == len(have)


@dataclass(frozen=True)
class _Sub:
    pattern: str
    retain_as_published: bool


class FakeBroker:
    """The in-process broker. Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._clients: list[FakeClient] = []
        self.retained: dict[str, bytes] = {}
        self.made: list[FakeClient] = []  # every client made, to crash one in a test
        self.is_up = True

    def client(self, client_id: str = "") -> FakeClient:
        """A new client of this broker."""
        client = FakeClient(self, client_id)
        self.made.append(client)
        return client

    def client_factory(self, client_id: str) -> mqtt.Client:
        """`MqttLink(..., client_factory=broker.client_factory)`: a duck-typed paho client."""
        return cast("mqtt.Client", self.client(client_id))

    def down(self) -> None:
        """The broker stops: every client is disconnected (its Will is not sent)."""
        with self._lock:
            self.is_up, clients, self._clients = False, self._clients, []
        for client in clients:
            client.lost()

    def up(self) -> None:
        with self._lock:
            self.is_up = True

    def _join(self, client: FakeClient) -> bool:
        with self._lock:
            if self.is_up and client not in self._clients:
                self._clients.append(client)
            return self.is_up

    def _leave(self, client: FakeClient, *, will: tuple[str, bytes, bool] | None) -> None:
        with self._lock:
            if client in self._clients:
                self._clients.remove(client)
                if will is not None:
                    self._route(*will)

    def _route(self, topic: str, payload: bytes, retain: bool) -> None:
        with self._lock:
            if retain:
                if payload:
                    self.retained[topic] = payload
                else:
                    self.retained.pop(topic, None)
            for client in list(self._clients):
                client.deliver(topic, payload, retain)

    def _retained_for(self, pattern: str) -> list[tuple[str, bytes]]:
        with self._lock:
            return [(t, p) for t, p in self.retained.items() if topic_matches(pattern, t)]


def _reason(packet: int, name: str) -> ReasonCode:
    return ReasonCode(packet, name)


class FakeClient:
    """The subset of `paho.mqtt.client.Client` that `MqttLink` uses."""

    def __init__(self, broker: FakeBroker, client_id: str) -> None:
        self.broker = broker
        self.client_id = client_id
        self.on_connect: Callable[..., None] | None = None
        self.on_connect_fail: Callable[..., None] | None = None
        self.on_disconnect: Callable[..., None] | None = None
        self.on_publish: Callable[..., None] | None = None
        self.on_message: Callable[..., None] | None = None
        self.on_subscribe: Callable[..., None] | None = None
        self._will: tuple[str, bytes, bool] | None = None
        self._subs: list[_Sub] = []
        self._mids = itertools.count(1)
        self._jobs: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._connected = False
        self._wanted = False
        self._retry = 1.0

    # -- set-up (accepted as paho does; auth and TLS are not simulated) -------------------

    def will_set(
        self, topic: str, payload: str | bytes, qos: int = 0, retain: bool = False
    ) -> None:
        self._will = (topic, payload.encode() if isinstance(payload, str) else payload, retain)

    def reconnect_delay_set(self, min_delay: int = 1, max_delay: int = 120) -> None:
        self._retry = float(min_delay)

    def username_pw_set(self, username: str | None, password: str | None = None) -> None:
        pass

    def tls_set(self, **kwargs: Any) -> None:
        pass

    def tls_insecure_set(self, value: bool) -> None:
        pass

    # -- the network thread ---------------------------------------------------------------

    def connect_async(self, host: str, port: int = 1883, keepalive: int = 60, **kw: Any) -> None:
        self._wanted = True

    def loop_start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=f"fake-mqtt-{self.client_id}")
        self._thread.daemon = True
        self._thread.start()
        self._jobs.put(self._try_connect)

    def loop_stop(self) -> None:
        self._jobs.put(None)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(5)

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            try:
                job()
            except Exception:
                log.exception("fake mqtt: a callback failed")

    def _call(self, name: str, *args: Any) -> None:
        callback = getattr(self, name)
        if callback is not None:
            callback(self, None, *args)

    def _try_connect(self) -> None:
        if not self._wanted or self._connected:
            return
        if not self.broker._join(self):
            self._call("on_connect_fail")
            self._retry_later()
            return
        self._connected = True
        self._subs = []
        flags = mqtt.ConnectFlags(session_present=False)
        self._call("on_connect", flags, _reason(PacketTypes.CONNACK, "Success"), None)

    def lost(self) -> None:
        """The connection broke (called by the broker)."""
        self._jobs.put(self._on_lost)

    def _on_lost(self) -> None:
        if not self._connected:
            return
        self._connected = False
        flags = mqtt.DisconnectFlags(is_disconnect_packet_from_server=False)
        self._call(
            "on_disconnect", flags, _reason(PacketTypes.DISCONNECT, "Unspecified error"), None
        )
        self._retry_later()

    def _retry_later(self) -> None:
        timer = threading.Timer(self._retry, self._jobs.put, args=(self._try_connect,))
        timer.daemon = True
        timer.start()

    def crash(self) -> None:
        """The process died: the broker sends the Will; nothing more from this client."""
        self._wanted = False
        self._connected = False
        self.broker._leave(self, will=self._will)
        self._jobs.put(None)

    def disconnect(self) -> MQTTErrorCode:
        self._wanted = False
        self.broker._leave(self, will=None)
        if self._connected:
            self._connected = False
            flags = mqtt.DisconnectFlags(is_disconnect_packet_from_server=False)
            reason = _reason(PacketTypes.DISCONNECT, "Normal disconnection")
            self._jobs.put(lambda: self._call("on_disconnect", flags, reason, None))
        return MQTTErrorCode.MQTT_ERR_SUCCESS

    def is_connected(self) -> bool:
        return self._connected

    # -- messages ---------------------------------------------------------------------------

    def publish(
        self, topic: str, payload: str | bytes = b"", qos: int = 0, retain: bool = False
    ) -> mqtt.MQTTMessageInfo:
        info = mqtt.MQTTMessageInfo(next(self._mids))
        if not self._connected:
            info.rc = MQTTErrorCode.MQTT_ERR_NO_CONN  # paho would queue it in memory only
            return info
        info.rc = MQTTErrorCode.MQTT_ERR_SUCCESS
        data = payload.encode() if isinstance(payload, str) else bytes(payload)
        self.broker._route(topic, data, retain)

        def ack() -> None:
            self._call("on_publish", info.mid, _reason(PacketTypes.PUBACK, "Success"), None)
            info._set_as_published()

        self._jobs.put(ack)
        return info

    def subscribe(
        self, topic: str, qos: int = 0, options: SubscribeOptions | None = None, **kw: Any
    ) -> tuple[MQTTErrorCode, int]:
        mid = next(self._mids)
        as_published = bool(options is not None and options.retainAsPublished)
        self._subs.append(_Sub(topic, as_published))
        retained = self.broker._retained_for(topic)

        def acked() -> None:
            self._call("on_subscribe", mid, [_reason(PacketTypes.SUBACK, "Granted QoS 1")], None)
            for found, payload in retained:
                self._message(found, payload, retain=True)

        self._jobs.put(acked)
        return MQTTErrorCode.MQTT_ERR_SUCCESS, mid

    def deliver(self, topic: str, payload: bytes, retain: bool) -> None:
        """A message routed to this client (called by the broker)."""
        for sub in self._subs:
            if topic_matches(sub.pattern, topic):
                flag = retain and sub.retain_as_published
                self._jobs.put(functools.partial(self._message, topic, payload, retain=flag))
                return

    def _message(self, topic: str, payload: bytes, *, retain: bool) -> None:
        msg = mqtt.MQTTMessage(0, topic.encode())
        msg.payload = payload
        msg.qos = 1
        msg.retain = retain
        self._call("on_message", msg)
