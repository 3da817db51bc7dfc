"""The subscriber's MQTT link the display and the tournament desk share: one paho client
in its own network thread, connected with `connect_async` and `loop_start`.

paho calls back on its thread; everything for the asyncio loop crosses over in exactly
one way (`handoff`, i.e. `loop.call_soon_threadsafe`). A subclass says what to
subscribe to once connected (`_subscribe`), what a message means (`_message`) and whom
to tell of the connection (`_connection`) and of a refusal (`_refused`); all four run on
paho's thread. Refusals and failures are logged once each, not every retry, with the
subclass's own logger.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Protocol

import paho.mqtt.client as mqtt

from mqttweb.client import MqttTls, connect_failure, handoff, new_client


class BrokerSettings(Protocol):
    """Where the broker is and who connects (the display's and the desk's settings)."""

    @property
    def mqtt_host(self) -> str: ...
    @property
    def mqtt_port(self) -> int: ...
    @property
    def mqtt_username(self) -> str | None: ...
    @property
    def mqtt_password(self) -> str | None: ...
    @property
    def mqtt_tls(self) -> MqttTls | None: ...


class SubscriberLink:
    """A paho client that connects, subscribes and hands what it hears to the loop."""

    def __init__(
        self, settings: BrokerSettings, client_id: str, *, who: str, log: logging.Logger
    ) -> None:
        self.settings = settings
        self.who = who  # in the log: "broker refused the <who>"
        self.log = log
        self.loop: asyncio.AbstractEventLoop | None = None
        self.stopping = False
        # paho's thread only: for logging each change once, not every retry
        self._up = False
        self._refusal: str | None = None
        client = new_client(
            client_id, settings.mqtt_username, settings.mqtt_password, settings.mqtt_tls
        )
        client.on_connect = self._on_connect
        client.on_connect_fail = self._on_connect_fail
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self.client = client

    def _connect(self, loop: asyncio.AbstractEventLoop, purpose: str = "") -> None:
        """Start connecting (and retrying) in paho's thread; `purpose` ends the log line."""
        self.loop = loop
        s = self.settings
        how = "TLS" if s.mqtt_tls is not None else "plain MQTT"
        self.log.info("mqtt: connecting to %s:%d (%s)%s", s.mqtt_host, s.mqtt_port, how, purpose)
        self.client.connect_async(s.mqtt_host, s.mqtt_port, keepalive=10)
        self.client.loop_start()

    def stop(self) -> None:
        self.stopping = True
        self.client.disconnect()
        self.client.loop_stop()

    # ---- for subclasses, on paho's thread ---------------------------------------------

    def _subscribe(self, client: mqtt.Client) -> str:
        """Subscribe once connected; what to, for the log."""
        raise NotImplementedError

    def _message(self, msg: mqtt.MQTTMessage) -> None:
        raise NotImplementedError

    def _connection(self, connected: bool) -> None:
        """The broker is there or gone (hand it to the loop)."""

    def _refused(self, reason: str) -> None:
        """The broker refused us, or TLS with it failed: retrying will not help."""

    def _handoff(self, method: Callable[..., None], *args: Any) -> None:
        handoff(self.loop, method, *args)

    # ---- paho's callbacks -------------------------------------------------------------

    def _on_connect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        if reason.is_failure:
            if str(reason) != self._refusal:
                self.log.warning(
                    "mqtt: broker refused the %s: %s (check user and password)", self.who, reason
                )
            self._refusal = str(reason)
            self._refused(str(reason))
            return
        self._up, self._refusal = True, None
        what = self._subscribe(client)  # before the loop hears of it: a command it sends
        self.log.info("mqtt: connected, subscribed to %s", what)  # then follows SUBSCRIBE
        self._connection(True)

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        s = self.settings
        reason, tls_failed = connect_failure(s.mqtt_host, s.mqtt_port, s.mqtt_tls)
        if reason != self._refusal:
            self.log.warning("mqtt: %s; retrying every 2 s", reason)
        self._refusal = reason
        if tls_failed:  # an unreachable broker is only retried
            self._refused(reason)

    def _on_disconnect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        if self.stopping:
            self.log.info("mqtt: disconnected")
        elif self._up:
            self.log.warning("mqtt: lost the broker (%s); reconnecting", reason)
        self._up = False
        self._connection(False)

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        self._message(msg)
