"""What every output shares: its place on the table's bus and its way to a device.

An `Output` subscribes to the table core's `Recorded` (the events of a change, as the
payloads the table publishes) and `StateChanged` (the `state` payload after it), so
each device shows what the display shows, from the same payloads. It runs on the
table's worker thread and never waits there: a device's message is handed to the
table's MQTT link (`DeviceLink.publish_device`, QoS 0, nothing waited for) and speech
to the voice's own thread. An output that fails is logged and the game goes on.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from service.core.bus import Bus
from service.core.table_events import Recorded, StateChanged
from service.outputs.scoreboard import Scoreboard

log = logging.getLogger(__name__)


class DeviceLink(Protocol):
    """Where device messages go: the table's MQTT link (`service.mqtt.link.MqttLink`)."""

    def publish_device(self, topic: str, payload: bytes, *, keep: bool) -> None:
        """Send `payload` on `topic` (QoS 0, not retained) without waiting; while the
        broker is away nothing is sent. `keep`: send the latest again on every reconnect."""


def encode(payload: Mapping[str, Any]) -> bytes:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()


class Output:
    """A subscriber that shows the game: `on_event` for each event of a change,
    `on_board` with the table after it; `close` when the table stops cleanly."""

    def __init__(self) -> None:
        self.board: Scoreboard | None = None
        self._over: Mapping[str, Any] | None = None  # the current game's `game` over event
        self._failed = False

    def subscribe(self, bus: Bus) -> None:
        bus.subscribe(Recorded, self._recorded)
        bus.subscribe(StateChanged, self._state_changed)

    def on_event(self, kind: str, event: Mapping[str, Any]) -> None:
        """One event of a change, in seq order (before the state after it)."""

    def on_board(self, board: Scoreboard) -> None:
        """The table after a change (and at start-up)."""

    def close(self) -> None:
        """The table stops cleanly (called through `stop`)."""

    def stop(self) -> None:
        """The table stops cleanly: `close`, which may fail without stopping the table."""
        self._guard(self.close)

    def _recorded(self, recorded: Recorded) -> None:
        for event in recorded.events:
            if event.kind == "game":
                self._over = event.payload if event.payload.get("event") == "over" else None
            self._guard(self.on_event, event.kind, event.payload)

    def _state_changed(self, changed: StateChanged) -> None:
        def show() -> None:
            self.board = Scoreboard.from_state(changed.payload, self._over)
            self.on_board(self.board)

        self._guard(show)

    def _guard(self, handler: Callable[..., None], *args: Any) -> None:
        """Run `handler`; a failure is this output's, never the table's (logged once)."""
        try:
            handler(*args)
        except Exception:
            if not self._failed:
                log.exception("outputs: %s failed; the game goes on", type(self).__name__)
            self._failed = True
