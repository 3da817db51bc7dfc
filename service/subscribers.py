"""The table's publishers, each a subscriber of the table core's bus.

`TableService` builds the parts a table has (the MQTT link, the players' panel, the
instrumented board) and subscribes each one's publisher at start-up, with the log:

- `MqttPublisher`: the journaled events, the retained state and result, command replies;
- `PanelDriver`: the panel's turn LEDs, alert LED and buzzer, and whether its PASS
  buttons name the leader (the panel knows no alert code: this translates);
- `BoardSignal`: the board's LED and beep under an illegal tile;
- `EventLog`: one log line per event.

Each subscribes to the types it shows (`service.table_events`, `engine.events`); none
of them knows of the others.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Protocol

from engine.alerts import AlertCode, Severity
from engine.events import (
    AlertEvent,
    Coords,
    DrawEvent,
    GameEvent,
    HandEvent,
    LeadEvent,
    PassEvent,
    PlayEvent,
    UndoEvent,
)
from engine.game import Phase
from firmware_bridge.messages import Colour
from hardware.patterns import Severity as PanelSeverity
from mqttweb.envelope import stamp
from service.bus import Bus
from service.mqtt_link import MqttLink
from service.table_events import (
    AlertRaised,
    AlertResolved,
    Answered,
    GameOver,
    Recorded,
    ResultConfirmed,
    Spot,
    StateChanged,
)

log = logging.getLogger(__name__)


class Subscriber(Protocol):
    def subscribe(self, bus: Bus) -> None:
        """Subscribe this publisher's handlers to `bus`."""


# --- MQTT ------------------------------------------------------------------------------------


class MqttPublisher:
    """The MQTT link as a subscriber: events as stored, the state, the result, replies."""

    def __init__(self, link: MqttLink, table: str, seats: int) -> None:
        self.link = link
        self.table = table
        self.seats = seats

    def subscribe(self, bus: Bus) -> None:
        bus.subscribe(Recorded, self.recorded)
        bus.subscribe(StateChanged, self.state_changed)
        bus.subscribe(GameOver, self.game_over)
        bus.subscribe(ResultConfirmed, lambda c: self.link.publish_result(c.game_id, c.result))
        bus.subscribe(Answered, self.answered)

    def recorded(self, recorded: Recorded) -> None:
        for event in recorded.events:
            self.link.publish_event(event.seq, event.kind, event.payload, stored=recorded.stored)

    def state_changed(self, changed: StateChanged) -> None:
        if changed.seats != self.seats:
            self.seats = changed.seats
            self.link.set_seats(changed.seats)  # Home Assistant: one score sensor per seat
        self.link.publish_state(stamp(self.table, changed.payload))

    def game_over(self, over: GameOver) -> None:
        self.link.publish_result(over.game_id, over.result.payload)

    def answered(self, answer: Answered) -> None:
        self.link.reply(answer.command_id, answer.error is None, answer.error, answer.detail)


# --- the players' panel ----------------------------------------------------------------------


class Panel(Protocol):
    """What the driver tells the panel (`hardware.panel.Panel`)."""

    def show_turn(self, seat: int | None) -> None: ...
    def show_alerts(self, standing: list[PanelSeverity]) -> None: ...
    def alert(self, severity: PanelSeverity) -> None: ...
    def lead_wanted(self, wanted: bool) -> None: ...


_ON_PANEL = {
    Severity.ILLEGAL: PanelSeverity.ILLEGAL,
    Severity.WARNING: PanelSeverity.WARNING,
    Severity.FAULT: PanelSeverity.FAULT,
}
TURN_PHASES = frozenset({Phase.LEAD, Phase.PLAY})
"""Phases in which the turn seat's LED is lit; in every other phase all turn LEDs are off."""


@dataclass
class PanelDriver:
    """Shows the table on the panel: its turn, its standing alerts, each new alert."""

    panel: Panel

    def subscribe(self, bus: Bus) -> None:
        bus.subscribe(StateChanged, self.state_changed)
        bus.subscribe(AlertRaised, lambda raised: self.sound(raised.alert.severity))
        bus.subscribe(AlertEvent, lambda event: self.sound(event.reason.severity))

    def state_changed(self, changed: StateChanged) -> None:
        self.panel.show_turn(changed.turn if changed.phase in TURN_PHASES else None)
        self.panel.show_alerts([_ON_PANEL[a.severity] for a in changed.standing])
        self.panel.lead_wanted(changed.lead_wanted)

    def sound(self, severity: Severity) -> None:
        self.panel.alert(_ON_PANEL[severity])


# --- the instrumented board ------------------------------------------------------------------


class Board(Protocol):
    """What the signal tells the board (`firmware_bridge.adapter.BoardAdapter`)."""

    def led(self, x: float, y: float, colour: Colour) -> Any: ...
    def leds_off(self) -> Any: ...
    def beep(self, ms: int) -> Any: ...


@dataclass
class BoardSignal:
    """Lights the board red under an illegal tile and beeps; dark again when resolved."""

    board: Board

    def subscribe(self, bus: Bus) -> None:
        bus.subscribe(AlertRaised, lambda e: self.illegal(e.alert.severity, e.alert.at))
        bus.subscribe(AlertEvent, lambda e: self.illegal(e.reason.severity, e.coords))
        bus.subscribe(AlertResolved, lambda _: self._send(self.board.leds_off))

    def illegal(self, severity: Severity, at: Coords | Spot | None) -> None:
        if severity is not Severity.ILLEGAL:
            return
        if at is not None:
            self._send(lambda: self.board.led(at.xa, at.ya, Colour.RED))
        self._send(lambda: self.board.beep(200))

    def _send(self, signal: Any) -> None:
        try:
            signal()
        except Exception as exc:  # the board being away must not stop the table
            log.info("board: could not signal the alert: %s", exc)


# --- the log ----------------------------------------------------------------------------------

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
