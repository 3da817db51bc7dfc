"""The players' panel as a subscriber of the table's bus: its turn LEDs, alert LED and
buzzer, and whether its PASS buttons name the leader (the panel knows no alert code:
`PanelDriver` translates). The panel itself is `hardware.panel.Panel`, told plain values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from engine.alerts import Severity
from engine.events import AlertEvent
from engine.game import Phase
from hardware.patterns import Severity as PanelSeverity
from service.core.bus import Bus
from service.core.table_events import AlertRaised, StateChanged


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
