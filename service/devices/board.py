"""The instrumented board in the service: its LED and beep under an illegal tile
(`BoardSignal`, a subscriber of the table's bus), and its edge buttons
(`BTN,<id>,<DOWN|UP|HOLD>`) as the same commands MQTT carries (`command_for`):

| button | press | command |
|---|---|---|
| 0-9 | DOWN | `pass` for that seat; while the table asks who led (`LEAD_UNKNOWN`), `lead` |
| 12 | DOWN | `draw` for the turn seat |
| 13 | DOWN | `confirm` the counts the table made |
| 14 | DOWN | `next_hand` |
| 15 | HOLD | `undo` (held, so it is never pressed by accident) |

Other buttons and actions do nothing.
"""

from __future__ import annotations

import itertools
import logging
from dataclasses import dataclass
from typing import Any, Protocol

from engine.alerts import Severity
from engine.events import AlertEvent, Coords
from firmware_bridge.adapter import ButtonEvent
from firmware_bridge.messages import ButtonAction, Colour
from service.core.bus import Bus
from service.core.table_events import AlertRaised, AlertResolved, Spot, StateChanged

log = logging.getLogger(__name__)

SEAT_BUTTONS = range(10)
_SIMPLE = {
    (12, ButtonAction.DOWN): "draw",
    (13, ButtonAction.DOWN): "confirm",
    (14, ButtonAction.DOWN): "next_hand",
    (15, ButtonAction.HOLD): "undo",
}
_ids = itertools.count(1)


def command_for(event: ButtonEvent, table: StateChanged | None) -> dict[str, Any] | None:
    """The command a board button means now (given the table's latest state), or None."""
    cmd_id = f"board-{event.at:.3f}-{next(_ids)}"
    action = _SIMPLE.get((event.button, event.action))
    if action is not None:
        return {"id": cmd_id, "action": action}
    if event.button not in SEAT_BUTTONS or event.action is not ButtonAction.DOWN:
        return None
    if table is None or event.button >= table.seats:
        return None
    action = "lead" if table.lead_wanted else "pass"
    return {"id": cmd_id, "action": action, "seat": event.button}


# --- the board's LED and beep ----------------------------------------------------------------


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
