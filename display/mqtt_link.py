"""The display's MQTT connection (paho in its own network thread).

paho calls back on its thread; every callback crosses into the asyncio loop in exactly
one way, `loop.call_soon_threadsafe` (`mqttweb.link`), and the loop side (`Listener`)
does the rest.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from typing import Any, Protocol

import paho.mqtt.client as mqtt

from display.outputs import device_topics
from display.settings import DisplayServerSettings
from mqttweb.link import SubscriberLink

log = logging.getLogger(__name__)

# topic suffixes under domino/<table>/ and the QoS the display asks for
SUBSCRIPTIONS = (
    "state",
    "status",
    "event/#",
    "cmd/reply",
    "result/#",
    "camera/+",
    "history/frame",
)


class Listener(Protocol):
    """What the link reports to, always on the asyncio loop."""

    def on_connection(self, connected: bool) -> None: ...

    def on_message(self, topic: str, payload: bytes) -> None: ...

    def on_refused(self, reason: str) -> None: ...


class MqttLink(SubscriberLink):
    """Subscribes to one table's topics and publishes its commands."""

    def __init__(self, settings: DisplayServerSettings, listener: Listener) -> None:
        client_id = f"domino-display-{settings.table}-{uuid.uuid4().hex[:8]}"
        super().__init__(settings, client_id, who="display", log=log)
        self.table = settings.table
        self.prefix = settings.prefix
        self.devices = list(device_topics(settings.awtrix, settings.awtrix_app, settings.wled))
        self.listener = listener
        self.connected = False

    def topic(self, suffix: str) -> str:
        return f"{self.prefix}/{suffix}"

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._connect(loop, f" for table {self.table}")

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

    def _subscribe(self, client: mqtt.Client) -> str:
        client.subscribe(
            [(self.topic(s), 1) for s in SUBSCRIPTIONS] + [(t, 0) for t in self.devices]
        )
        return ", ".join([f"{self.prefix}/#", *self.devices])

    def _connection(self, connected: bool) -> None:
        self._handoff(self._set_connected, connected)

    def _refused(self, reason: str) -> None:
        # shown on the page; an unreachable broker stays "connecting"/"lost"
        self._handoff(self.listener.on_refused, reason)

    def _message(self, msg: mqtt.MQTTMessage) -> None:
        self._handoff(self.listener.on_message, msg.topic, bytes(msg.payload))

    # ---- the loop -------------------------------------------------------------------

    def _set_connected(self, connected: bool) -> None:
        self.connected = connected
        self.listener.on_connection(connected)
