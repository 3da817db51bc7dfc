"""What a publisher of the table is, and the log of its events.

`TableService` (`service.app`) builds the parts a table has and subscribes each one's
publisher to the table core's bus at start-up, with the log:

- `service.mqtt.publisher.MqttPublisher`: the journaled events, the retained state and
  result, command replies;
- `service.devices.panel.PanelDriver`: the players' panel (turn LEDs, alert LED, buzzer);
- `service.devices.board.BoardSignal`: the board's LED and beep under an illegal tile;
- `service.camera.publisher.CameraPublisher`: the camera's status and snapshots;
- `EventLog`: one log line per event.

Each subscribes to the types it shows (`service.core.table_events`, `engine.events`);
none of them knows of the others.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Protocol

from engine.alerts import AlertCode
from engine.events import (
    AlertEvent,
    DrawEvent,
    GameEvent,
    HandEvent,
    LeadEvent,
    PassEvent,
    PlayEvent,
    UndoEvent,
)
from service.core.bus import Bus
from service.core.table_events import AlertRaised, AlertResolved

log = logging.getLogger(__name__)


class Subscriber(Protocol):
    def subscribe(self, bus: Bus) -> None:
        """Subscribe this publisher's handlers to `bus`."""


_LOGGED = (PlayEvent, PassEvent, DrawEvent, LeadEvent, UndoEvent, HandEvent, GameEvent)


@dataclass
class EventLog:
    """One line per event in the service's log (at info: the reconciler and the sources
    warn of what went wrong themselves)."""

    table: str

    def subscribe(self, bus: Bus) -> None:
        for kind in _LOGGED:
            bus.subscribe(kind, self.event)
        bus.subscribe(AlertEvent, lambda e: self.alert(e.code, e.message))
        bus.subscribe(AlertRaised, lambda e: self.alert(e.alert.code, e.alert.message))
        bus.subscribe(AlertResolved, lambda e: self.alert(e.alert.code, "resolved"))

    def event(self, event: object) -> None:
        log.info("table %s: %r", self.table, event)

    def alert(self, code: AlertCode, text: str) -> None:
        log.info("table %s: alert %s: %s", self.table, code, text)
