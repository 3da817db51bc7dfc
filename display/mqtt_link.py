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
from paho.mqtt.enums import CallbackAPIVersion

from display.settings import DisplaySettings

log = logging.getLogger(__name__)

# topic suffixes under domino/<table>/ and the QoS the display asks for
SUBSCRIPTIONS = ("state", "status", "event/#", "cmd/reply", "result/#")


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
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=f"domino-display-{settings.table}-{uuid.uuid4().hex[:8]}",
        )
        if settings.mqtt_username is not None:
            client.username_pw_set(settings.mqtt_username, settings.mqtt_password)
        client.reconnect_delay_set(1, 2)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self.client = client

    def topic(self, suffix: str) -> str:
        return f"{self.settings.prefix}/{suffix}"

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        log.info(
            "mqtt: connecting to %s:%d for table %s",
            self.settings.mqtt_host,
            self.settings.mqtt_port,
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
        """The one way from paho's thread into the loop."""
        if self.loop is None:
            return
        try:
            self.loop.call_soon_threadsafe(method, *args)
        except RuntimeError:  # the loop is closed: the display is stopping
            log.debug("mqtt: loop closed, dropped %s", getattr(method, "__name__", method))

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
