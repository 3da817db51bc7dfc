"""The MQTT link of one table: one paho client that keeps the promises of spec/mqtt.md.

- Last Will: `offline`, retained, QoS 1 on `<prefix>/status`; a clean `stop()`
  publishes `offline` itself.
- On every (re)connect, in this order: the latest `state` (retained), `online`
  (retained), every event the journal holds as not yet acknowledged, in seq order, and
  the results and Home Assistant configs. Publishing is serialised by one lock, so an
  event published meanwhile by the service cannot overtake them.
- Events are QoS 1, not retained. The journal marks an event acked only when the broker
  acknowledged that very publish (paho's `on_publish` for its mid). Nothing is handed to
  paho while disconnected: paho would keep it in memory only; the journal republishes
  it on reconnect instead. Subscribers drop repeats by `seq`. An event the journal could
  not store (the table's alert that it cannot save) is kept here to be republished the
  same way until the journal holds it; an ack the journal cannot write is only logged
  (the event is published again).
- A broker that dies (SIGKILL, power cut) may have acknowledged events it never
  delivered or saved. So after an unexpected disconnect the link also republishes the
  last `replay_window` events it had published before the link went down, acked or not.
- Commands on `<prefix>/cmd` go through `CommandIntake`; a retained command is ignored.

Threads: paho's network thread runs the callbacks; every public method may be called
from any thread.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar, cast

import paho.mqtt.client as mqtt
from paho.mqtt.enums import MQTTErrorCode
from paho.mqtt.reasoncodes import ReasonCode
from paho.mqtt.subscribeoptions import SubscribeOptions

from config.settings import MqttSettings
from mqttweb.client import RECONNECT_S
from mqttweb.envelope import encode, stamp
from service.core.commands import Command
from service.mqtt.client import table_client
from service.mqtt.discovery import discovery_messages, seat_config_topic
from service.mqtt.intake import CommandIntake
from service.mqtt.topics import HA_STATUS, Topics
from service.store.journal import Journal, JournalError, JournalEvent

log = logging.getLogger(__name__)

QOS = 1
REPLAY_WINDOW = 100
ClientFactory = Callable[[str], mqtt.Client]
"""Makes the link's paho client for a client id (a test's fake broker has its own)."""


_Callback = TypeVar("_Callback", bound=Callable[..., None])


def _guarded(callback: _Callback) -> _Callback:
    """Keep paho's network thread alive: an exception in a callback is logged, not raised.

    (paho re-raises it, which ends the thread and with it every reconnect.)
    """

    @functools.wraps(callback)
    def run(self: MqttLink, *args: Any) -> None:
        try:
            callback(self, *args)
        except Exception as exc:
            self._last_error = f"{callback.__name__.strip('_')}: {exc}"
            log.exception("mqtt: %s failed", callback.__name__.strip("_"))

    return cast("_Callback", run)


class _Acks:
    """Maps paho message ids to journal seqs, safe against an ack that beats `publish()`."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._mids: dict[int, int | None] = {}
        self._early: set[int] = set()

    def sent(self, info: mqtt.MQTTMessageInfo, seq: int | None) -> bool:
        """Record a publish; True when its ack already came and `seq` may be marked acked."""
        delivered = info.rc == MQTTErrorCode.MQTT_ERR_SUCCESS
        with self._lock:
            if info.mid in self._early:
                self._early.discard(info.mid)
                return delivered and seq is not None
            self._mids[info.mid] = seq if delivered else None
        return False

    def acked(self, mid: int) -> int | None:
        """The broker acknowledged `mid`: the seq to mark acked, if it was an event."""
        with self._lock:
            if mid not in self._mids:
                self._early.add(mid)
                return None
            return self._mids.pop(mid)


class MqttLink:
    """Publishes one table's game and takes its commands over MQTT."""

    def __init__(
        self,
        settings: MqttSettings,
        table_id: str,
        journal: Journal,
        *,
        state: Callable[[], Mapping[str, Any] | None],
        on_command: Callable[[Command], None],
        seats: int = 4,
        camera: bool = False,
        replay_window: int = REPLAY_WINDOW,
        client_factory: ClientFactory | None = None,
    ) -> None:
        self.settings = settings
        self.table_id = table_id
        self.topics = Topics(settings.prefix)
        self._journal = journal
        self._state = state
        self._intake = CommandIntake(table_id, journal, on_command)
        self._seats = seats
        self._camera = camera  # Home Assistant: a camera entity
        self._retained: dict[str, tuple[bytes, int]] = {}  # camera topics: sent again on connect
        self._devices: dict[str, bytes] = {}  # the outputs' latest: sent again on connect
        self._discovered = 0  # seat configs published so far
        self._pub_lock = threading.RLock()
        self._acks = _Acks()
        self._connected = threading.Event()
        self._listening = threading.Event()  # the broker acknowledged the cmd subscription
        self._cmd_sub_mid: int | None = None
        self._started = False
        self._last_error: str | None = None
        self._failures = 0
        self._latest_state: dict[str, Any] | None = None
        self._unsent_results: dict[str, dict[str, Any]] = {}
        self._unstored: dict[int, tuple[str, dict[str, Any]]] = {}  # seq -> kind, payload
        self._ack_failing = False
        self._replay_window = replay_window
        self._replay_from: int | None = None  # set when the link went down unexpectedly
        if client_factory is None:  # user, password and TLS from [mqtt] (MqttLinkError)
            self._client = table_client(settings, settings.client_id)
        else:
            self._client = client_factory(settings.client_id)
        self._configure()

    # -- set-up -------------------------------------------------------------------------

    def _configure(self) -> None:
        c = self._client
        c.will_set(self.topics.status, "offline", qos=QOS, retain=True)
        c.on_connect = self._on_connect
        c.on_connect_fail = self._on_connect_fail
        c.on_disconnect = self._on_disconnect
        c.on_publish = self._on_publish
        c.on_message = self._on_message
        c.on_subscribe = self._on_subscribe

    def start(self) -> None:
        """Connect in the background (and keep reconnecting every 1-2 s)."""
        if self._started:
            return
        s = self.settings
        log.info("mqtt: connecting to %s:%d as %s", s.host, s.port, s.client_id)
        self._started = True
        self._client.connect_async(s.host, s.port, keepalive=s.keepalive, clean_start=True)
        self._client.loop_start()

    def wait_connected(self, timeout: float) -> bool:
        """True once connected, caught up (state, online, pending events sent) and
        subscribed to commands (the broker acknowledged the subscription)."""
        deadline = time.monotonic() + timeout
        return self._connected.wait(timeout) and self._listening.wait(
            max(0.0, deadline - time.monotonic())
        )

    def stop(self, timeout: float = 5.0) -> None:
        """Publish `offline` (retained), disconnect and stop paho's thread. Idempotent."""
        if not self._started:
            return
        self._started = False
        info = None
        with self._pub_lock:  # nothing else is published after `offline`
            if self._connected.is_set():
                info = self._client.publish(self.topics.status, "offline", qos=QOS, retain=True)
            self._connected.clear()
        if info is not None:  # wait outside the lock: paho's thread may need it meanwhile
            try:
                info.wait_for_publish(timeout)
            except (RuntimeError, ValueError) as exc:
                log.warning("mqtt: could not publish offline before stopping (%s)", exc)
        self._client.disconnect()
        self._client.loop_stop()
        log.info("mqtt: stopped")

    # -- publishing ---------------------------------------------------------------------

    def _publish(
        self,
        topic: str,
        payload: bytes | str,
        *,
        retain: bool,
        seq: int | None = None,
        qos: int = QOS,
    ) -> None:
        """Hand one message to paho (call with `_pub_lock` held)."""
        info = self._client.publish(topic, payload, qos=qos, retain=retain)
        if info.rc != MQTTErrorCode.MQTT_ERR_SUCCESS:
            log.debug("mqtt: %s not sent now (%s)", topic, mqtt.error_string(info.rc))
        if self._acks.sent(info, seq) and seq is not None:
            self._mark_acked(seq)

    def _mark_acked(self, seq: int) -> None:
        try:
            self._journal.mark_acked(seq)
        except JournalError as exc:  # a full disk: the event is only published again
            if not self._ack_failing:
                log.warning("mqtt: cannot note the broker's acks (%s)", exc)
            self._ack_failing = True
        else:
            self._ack_failing = False

    def publish_event(
        self, seq: int, kind: str, payload: Mapping[str, Any], *, stored: bool = True
    ) -> None:
        """Publish journaled event `seq` on `<prefix>/event/<kind>` (QoS 1, not retained).

        `payload` is the stored one (`Journal.event(seq).payload`). While disconnected
        nothing is sent: the event stays pending in the journal and goes out on reconnect.
        An event not `stored` (the journal could not) is kept here for that until it is.
        """
        body = encode(stamp(self.table_id, payload, seq=seq))
        topic = self.topics.event(kind)
        with self._pub_lock:
            if not stored:
                self._unstored[seq] = (kind, stamp(self.table_id, payload, seq=seq))
            if self._connected.is_set():
                self._publish(topic, body, retain=False, seq=seq)

    def publish_journaled(self, seqs: Sequence[int]) -> None:
        """Publish the journal's events with these seqs (what `Journal.append` returned)."""
        for seq in seqs:
            event = self._journal.event(seq)
            if event is not None:
                self.publish_event(event.seq, event.kind, event.payload)

    def publish_state(self, payload: Mapping[str, Any]) -> None:
        """Publish the whole game on `<prefix>/state`, retained (stamped if need be)."""
        state = stamp(self.table_id, payload)
        with self._pub_lock:
            self._latest_state = state
            if self._connected.is_set():
                self._publish(self.topics.state, encode(state), retain=True)

    def publish_result(self, game_id: str, payload: Mapping[str, Any]) -> None:
        """Publish a finished game's `game` event on `<prefix>/result/<game_id>`, retained."""
        topic = self.topics.result(game_id)
        result = stamp(self.table_id, payload)
        with self._pub_lock:
            if self._connected.is_set():
                self._publish(topic, encode(result), retain=True)
            else:
                self._unsent_results[topic] = result

    def publish_retained(self, topic: str, payload: bytes, qos: int = QOS) -> None:
        """Publish `payload` retained on `topic` (the camera's status and snapshot); the
        latest of each is published again on every reconnect."""
        with self._pub_lock:
            self._retained[topic] = (payload, qos)
            if self._connected.is_set():
                self._publish(topic, payload, retain=True, qos=qos)

    def publish_once(self, topic: str, payload: bytes, qos: int = QOS) -> None:
        """Publish `payload` on `topic`, not retained and never again (a history frame,
        on the command that asked for it); while the broker is away nothing is sent."""
        with self._pub_lock:
            if self._connected.is_set():
                self._publish(topic, payload, retain=False, qos=qos)

    def publish_device(self, topic: str, payload: bytes, *, keep: bool) -> None:
        """Send `payload` to a device that is not ours (an AWTRIX clock, a WLED strip:
        `service.outputs`) on `topic`: QoS 0, not retained, nothing waited for; while the
        broker is away nothing is sent. `keep`: the latest on `topic` goes again on every
        reconnect (the clock's app, the strip's colours), so the devices catch up."""
        with self._pub_lock:
            if keep:
                self._devices[topic] = payload
            if self._connected.is_set():
                self._publish(topic, payload, retain=False, qos=0)

    def reply(
        self,
        cmd_id: str,
        ok: bool,
        error: str | None = None,
        detail: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The service's answer to a command: stored, then published on `<prefix>/cmd/reply`."""
        replies = self._intake.answer(cmd_id, ok, error, detail)
        self._publish_replies(replies)
        return replies[0]

    def _publish_replies(self, replies: Sequence[Mapping[str, Any]]) -> None:
        with self._pub_lock:
            if not self._connected.is_set():
                return  # stored in the journal: a resent command gets it
            for reply in replies:
                self._publish(self.topics.cmd_reply, encode(reply), retain=False)

    def set_seats(self, seats: int) -> None:
        """The game now has `seats` seats: update the Home Assistant sensors."""
        with self._pub_lock:
            self._seats = seats
            if self._connected.is_set():
                self._publish_discovery()

    def _publish_discovery(self) -> None:
        if not self.settings.discovery:
            return
        messages = discovery_messages(self.table_id, self.topics, self._seats, self._camera)
        for topic, config in messages:
            self._publish(topic, encode(config) if config else b"", retain=True)
        for seat in range(self._seats, self._discovered):  # seats that went away
            self._publish(seat_config_topic(self.table_id, seat), b"", retain=True)
        self._discovered = self._seats

    # -- paho callbacks (paho's thread) ---------------------------------------------------

    @_guarded
    def _on_connect(
        self,
        client: mqtt.Client,
        userdata: Any,
        flags: mqtt.ConnectFlags,
        reason_code: ReasonCode,
        properties: Any,
    ) -> None:
        if reason_code.is_failure:
            self._note_failure(
                f"the broker refused the connection: {reason_code} "
                "(check mqtt.username, the password file or variable, and the broker's ACL)"
            )
            return
        s = self.settings
        log.info("mqtt: connected to %s:%d", s.host, s.port)
        self._failures = 0
        self._last_error = None
        self._listening.clear()
        _, self._cmd_sub_mid = client.subscribe(
            self.topics.cmd, options=SubscribeOptions(qos=QOS, retainAsPublished=True)
        )
        if s.discovery:
            client.subscribe(HA_STATUS, options=SubscribeOptions(qos=QOS))
        with self._pub_lock:
            if not self._started:
                return  # stop() came first: publish nothing after its `offline`
            self._catch_up()
            self._connected.set()

    def _latest(self) -> Mapping[str, Any] | None:
        try:
            return self._state() or self._latest_state
        except Exception:
            log.exception("mqtt: the state callable failed: republishing the last state")
            return self._latest_state

    def _catch_up(self) -> None:
        state = self._latest()
        if state is not None:
            self._latest_state = stamp(self.table_id, state)
            self._publish(self.topics.state, encode(self._latest_state), retain=True)
        self._publish(self.topics.status, "online", retain=True)
        if self._replay_from is None:
            pending = self._journal.pending()
        else:
            pending = self._journal.pending_since(self._replay_from)
            self._replay_from = None
        pending = sorted([*pending, *self._still_unstored()], key=lambda e: e.seq)
        for event in pending:
            self._publish(
                self.topics.event(event.kind), encode(event.payload), retain=False, seq=event.seq
            )
        if pending:
            log.info("mqtt: republished %d events from seq %d", len(pending), pending[0].seq)
        for topic, result in self._unsent_results.items():
            self._publish(topic, encode(result), retain=True)
        self._unsent_results.clear()
        for topic, (payload, qos) in self._retained.items():
            self._publish(topic, payload, retain=True, qos=qos)
        for topic, payload in self._devices.items():
            self._publish(topic, payload, retain=False, qos=0)
        self._publish_discovery()

    def _still_unstored(self) -> list[JournalEvent]:
        """The events published unstored that the journal does not hold yet."""
        for seq in [s for s in self._unstored if self._journal.event(s) is not None]:
            del self._unstored[seq]
        return [JournalEvent(seq, kind, body) for seq, (kind, body) in self._unstored.items()]

    @_guarded
    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        s = self.settings
        self._note_failure(f"cannot reach the broker at {s.host}:{s.port}")

    @_guarded
    def _on_disconnect(
        self,
        client: mqtt.Client,
        userdata: Any,
        flags: mqtt.DisconnectFlags,
        reason_code: ReasonCode,
        properties: Any,
    ) -> None:
        was_connected = self._connected.is_set()
        self._connected.clear()
        self._listening.clear()
        if self._started and was_connected:  # a refused connect was reported already
            self._replay_from = self._journal.last_seq() - self._replay_window + 1
            self._note_failure(f"disconnected from the broker: {reason_code}")

    def _note_failure(self, message: str) -> None:
        self._last_error = message
        self._failures += 1
        level = logging.WARNING if self._failures == 1 else logging.DEBUG
        log.log(level, "mqtt: %s; retrying every %d s", message, RECONNECT_S[1])

    @_guarded
    def _on_publish(
        self,
        client: mqtt.Client,
        userdata: Any,
        mid: int,
        reason_code: ReasonCode,
        properties: Any,
    ) -> None:
        seq = self._acks.acked(mid)
        if seq is None:
            return
        if reason_code.is_failure:
            log.warning("mqtt: the broker refused event %d: %s", seq, reason_code)
            return
        self._mark_acked(seq)

    @_guarded
    def _on_subscribe(
        self,
        client: mqtt.Client,
        userdata: Any,
        mid: int,
        reason_codes: list[ReasonCode],
        properties: Any,
    ) -> None:
        if mid != self._cmd_sub_mid:
            return
        if any(code.is_failure for code in reason_codes):
            self._last_error = f"the broker refused the subscription to {self.topics.cmd}"
            log.warning("mqtt: %s: %s", self._last_error, reason_codes)
            return
        self._listening.set()

    @_guarded
    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        if msg.topic == HA_STATUS:
            if msg.payload == b"online":
                log.info("mqtt: Home Assistant is online: publishing discovery again")
                with self._pub_lock:
                    self._publish_discovery()
            return
        if msg.retain:
            log.warning("mqtt: ignoring a retained command on %s", msg.topic)
            return
        self._publish_replies(self._intake.receive(bytes(msg.payload)))

    # -- status -------------------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        """The link as plain data: connected, pending events, last error (no secrets)."""
        last_error = self._last_error
        try:
            pending: int | None = self._journal.pending_count()
        except JournalError as exc:
            pending, last_error = None, last_error or str(exc)
        return {
            "connected": self._connected.is_set(),
            "listening": self._listening.is_set(),
            "broker": f"{self.settings.host}:{self.settings.port}",
            "prefix": self.settings.prefix,
            "pending": pending,
            "last_error": last_error,
        }
