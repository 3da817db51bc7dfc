"""The display's MQTT connection (paho in its own network thread).

paho calls back on its thread; every callback crosses into the asyncio loop in exactly
one way, `loop.call_soon_threadsafe`, and the loop side (`Listener`) does the rest.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from typing import Any, Protocol

import paho.mqtt.client as mqtt

from display.settings import DisplaySettings
from mqttweb.client import connect_failure, handoff, new_client

log = logging.getLogger(__name__)

# topic suffixes under domino/<table>/ and the QoS the display asks for
SUBSCRIPTIONS = ("state", "status", "event/#", "cmd/reply", "result/#", "camera/+")


class Listener(Protocol):
    """What the link reports to, always on the asyncio loop."""

    def on_connection(self, connected: bool) -> None: ...

    def on_message(self, topic: str, payload: bytes) -> None: ...

    def on_refused(self, reason: str) -> None: ...


class MqttLink:
    """Subscribes to one table's topics and publishes its commands."""

    def __init__(self, settings: DisplaySettings, listener: Listener) -> None:
        self.settings = settings
        self.loop: asyncio.AbstractEventLoop | None = None
        self.listener = listener
        self.connected = False
        self.stopping = False
        # paho's thread only: for logging each change once, not every retry
        self._up = False
        self._refusal: str | None = None
        client = new_client(
            f"domino-display-{settings.table}-{uuid.uuid4().hex[:8]}",
            settings.mqtt_username,
            settings.mqtt_password,
            settings.mqtt_tls,
        )
        client.on_connect = self._on_connect
        client.on_connect_fail = self._on_connect_fail
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self.client = client

    def topic(self, suffix: str) -> str:
        return f"{self.settings.prefix}/{suffix}"

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        log.info(
            "mqtt: connecting to %s:%d (%s) for table %s",
            self.settings.mqtt_host,
            self.settings.mqtt_port,
            "TLS" if self.settings.mqtt_tls is not None else "plain MQTT",
            self.settings.table,
        )
        self.client.connect_async(self.settings.mqtt_host, self.settings.mqtt_port, keepalive=10)
        self.client.loop_start()

    def stop(self) -> None:
        self.stopping = True
        self.client.disconnect()
        self.client.loop_stop()

    def publish_command(self, command: dict[str, Any]) -> bool:
        """Send one command (QoS 1, never retained); False when the broker is not there."""
        if not self.connected:
            return False
        info = self.client.publish(self.topic("cmd"), json.dumps(command), qos=1, retain=False)
        return bool(info.rc == mqtt.MQTT_ERR_SUCCESS)

    def reread_state(self) -> None:
        """Subscribe to `state` again: the broker sends the retained one anew."""
        if self.connected:
            self.client.subscribe(self.topic("state"), qos=1)

    # ---- paho's thread --------------------------------------------------------------

    def _handoff(self, method: Any, *args: Any) -> None:
        handoff(self.loop, method, *args)

    def _on_connect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        if reason.is_failure:
            if str(reason) != self._refusal:
                log.warning(
                    "mqtt: broker refused the display: %s (check user and password)", reason
                )
            self._refusal = str(reason)
            self._handoff(self.listener.on_refused, str(reason))
            return
        self._up, self._refusal = True, None
        client.subscribe([(self.topic(s), 1) for s in SUBSCRIPTIONS])
        log.info("mqtt: connected, subscribed to %s/#", self.settings.prefix)
        self._handoff(self._set_connected, True)

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        s = self.settings
        reason, tls_failed = connect_failure(s.mqtt_host, s.mqtt_port, s.mqtt_tls)
        if reason != self._refusal:
            log.warning("mqtt: %s; retrying every 2 s", reason)
        self._refusal = reason
        if tls_failed:  # shown on the page; an unreachable broker stays "connecting"/"lost"
            self._handoff(self.listener.on_refused, reason)

    def _on_disconnect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        if self.stopping:
            log.info("mqtt: disconnected")
        elif self._up:
            log.warning("mqtt: lost the broker (%s); reconnecting", reason)
        self._up = False
        self._handoff(self._set_connected, False)

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        self._handoff(self.listener.on_message, msg.topic, bytes(msg.payload))

    # ---- the loop -------------------------------------------------------------------

    def _set_connected(self, connected: bool) -> None:
        self.connected = connected
        self.listener.on_connection(connected)
