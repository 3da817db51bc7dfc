"""The table's standing alerts: each stands from when it is raised until it is resolved.

An illegal position the reconciler saw, a source offline, a lead nobody named, a journal
that cannot store: each is a `TableAlert` with a `key` that says what resolves it. The
table core raises and resolves them through `StandingAlerts`, which holds the alerts
standing in one frozen value (`value`) and says what each change tells (`AlertRaised`,
`AlertResolved`); the core journals those as `alert` events and then tells `published`
which event each raised alert became, so the state lists each as it was published.

With every change the table keeps which alerts stand, as their keys and the seqs of their
events (`as_dict`); after a restart `recall` finds those events in the journal again, so
the same alerts stand with the same ids.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.alerts import AlertCode, Severity
from engine.events import Coords
from engine.game import Game, Phase
from engine.messages import message
from service.core.payloads import alert_id, alert_payload
from service.core.table_events import AlertRaised, AlertResolved, Spot, TableAlert
from service.store.journal import JournalEvent

LEAD = "lead"  # the key of the alert standing while nobody said who laid the lead


@dataclass(frozen=True, slots=True)
class Standing:
    """An alert that stands until resolved, and its `alert` event once stored."""

    alert: TableAlert
    raised: JournalEvent | None = None

    def shown(self) -> dict[str, Any]:
        """The alert as the state lists it: as published (never published: as made)."""
        return self.raised.payload if self.raised is not None else alert_payload(self.alert)


class StandingAlerts:
    """The alerts standing at one table (see the module's doc).

    `number()` gives the number of an alert raised now (`alert_id`): the seq of the next
    event the journal stores.
    """

    def __init__(self, number: Callable[[], int]) -> None:
        self.number = number
        self.value: tuple[Standing, ...] = ()

    def alerts(self) -> tuple[TableAlert, ...]:
        return tuple(s.alert for s in self.value)

    def shown(self) -> list[dict[str, Any]]:
        """Each standing alert as the state lists it."""
        return [s.shown() for s in self.value]

    def stand(
        self,
        key: str,
        code: AlertCode,
        severity: Severity,
        text: str,
        *,
        seat: int | None = None,
        tile: str | None = None,
        at: Coords | Spot | None = None,
    ) -> list[AlertRaised]:
        """Raise the alert `key` (nothing when it stands already)."""
        if any(s.alert.key == key for s in self.value):
            return []
        alert = TableAlert(key, code, severity, text, alert_id(code, self.number()), seat, tile, at)
        self.value = (*self.value, Standing(alert))
        return [AlertRaised(alert)]

    def add(self, alert: TableAlert, raised: JournalEvent) -> None:
        """An alert published but not stored (the journal cannot store): it stands too."""
        self.value = (*self.value, Standing(alert, raised))

    def resolve(self, key: str) -> list[AlertResolved]:
        """Resolve the alert `key` (nothing when none stands)."""
        found = [s for s in self.value if s.alert.key == key]
        self.value = tuple(s for s in self.value if s.alert.key != key)
        return [AlertResolved(s.alert, s.raised) for s in found]

    def lead(self, game: Game | None, language: str) -> list[AlertRaised | AlertResolved]:
        """LEAD_UNKNOWN stands while a lead is down and nobody said who laid it."""
        waiting = (
            game is not None
            and game.phase is Phase.PLAY
            and game.turn is None
            and len(game.layout) > 0
        )
        standing = any(s.alert.key == LEAD for s in self.value)
        if waiting and not standing and game is not None:
            code = AlertCode.LEAD_UNKNOWN
            text = message(code, language)
            tile = game.layout.nodes[0].tile.text
            return [*self.stand(LEAD, code, code.severity, text, tile=tile)]
        if not waiting and standing:
            return list(self.resolve(LEAD))
        return []

    def published(self, told: Sequence[object], stored: Sequence[JournalEvent | None]) -> None:
        """The events of a change as stored: each alert it raised stands as published."""
        made = zip(told, stored, strict=True)
        raised = {e.alert.id: s for e, s in made if type(e) is AlertRaised}
        self.value = tuple(replace(s, raised=raised.get(s.alert.id, s.raised)) for s in self.value)

    # --- kept with each change -------------------------------------------------------------

    def as_dict(self) -> list[list[Any]]:
        """The published alerts standing, as kept with each change (`as_kept`)."""
        return as_kept(self.value)

    def recall(
        self, kept: Sequence[Sequence[Any]], event: Callable[[int], JournalEvent | None]
    ) -> None:
        """The alerts kept by `as_dict` stand again, from their events (`event(seq)`)."""
        standing = []
        for key, seq in kept:
            raised = event(seq)
            if raised is not None:
                standing.append(Standing(alert_of(str(key), raised.payload), raised))
        self.value = tuple(standing)


def as_kept(standing: Sequence[Standing]) -> list[list[Any]]:
    """The published alerts of `standing` as `[key, seq]` (the seq of its `alert` event)."""
    return [[s.alert.key, s.raised.seq] for s in standing if s.raised is not None]


def alert_of(key: str, payload: dict[str, Any]) -> TableAlert:
    """A standing alert again, from its `alert` event as published."""
    at: Coords | Spot | None = None
    if all(k in payload for k in ("xa", "ya", "xb", "yb")):
        at = Coords(payload["xa"], payload["ya"], payload["xb"], payload["yb"])
    elif "xa" in payload and "ya" in payload:
        at = Spot(payload["xa"], payload["ya"])
    return TableAlert(
        key,
        AlertCode(payload["code"]),
        Severity(payload["severity"]),
        payload["message"],
        payload["id"],
        payload.get("seat"),
        payload.get("tile"),
        at,
    )
