"""The table service's own events, beside the engine's (`engine.events`).

The table core publishes them on its `Bus` after the journal has the change:

- `AlertRaised` / `AlertResolved`: a `TableAlert` that stands until resolved (an illegal
  position the reconciler saw, a source offline, a lead nobody named, an unreadable
  place); each is journaled as an `alert` event.
- `Recorded`: the events of one change as the journal stored them (the MQTT payloads,
  with their seqs), in order: what the MQTT link publishes.
- `StateChanged`: the table after the change, typed for the panel and as the `state`
  payload for MQTT.
- `GameOver`: a game ended; its stored `game` event is the retained `result`.
- `ResultConfirmed`: a seat confirmed the finished game's result: the result again,
  with `confirmed_by`.
- `Answered`: the service's answer to a command from MQTT (published by the service).

Per change the core publishes each engine event and alert change first, then
`Recorded`, `StateChanged`, when a game ended `GameOver`, and when a seat confirmed
its result `ResultConfirmed`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.alerts import AlertCode, Severity
from engine.events import Coords, Event
from engine.game import Phase
from service.store.journal import JournalEvent


class Spot(NamedTuple):
    """A place on the surface (mm) with no tile known there: `xa, ya` of spec/mqtt.md."""

    xa: int
    ya: int

    def fields(self) -> dict[str, int]:
        return {"xa": self.xa, "ya": self.ya}


@dataclass(frozen=True, slots=True)
class TableAlert:
    """An alert the table raised, standing until resolved; `key` says what resolves it."""

    key: str
    code: AlertCode
    severity: Severity
    message: str
    id: str
    seat: int | None = None
    tile: str | None = None
    at: Coords | Spot | None = None


@dataclass(frozen=True, slots=True)
class AlertRaised:
    alert: TableAlert


@dataclass(frozen=True, slots=True)
class AlertResolved:
    """`alert` no longer stands; `raised` is its `alert` event as stored (None: never
    published, e.g. a lead alert rebuilt after a restart)."""

    alert: TableAlert
    raised: JournalEvent | None


@dataclass(frozen=True, slots=True)
class Recorded:
    """The events of one change as the journal stored them, in seq order; `stored`
    False: published under seqs kept beside the journal, which could not store them
    (the table's alert that it cannot save), stored once it can."""

    events: tuple[JournalEvent, ...]
    stored: bool = True

    @property
    def seqs(self) -> tuple[int, ...]:
        return tuple(e.seq for e in self.events)


@dataclass(frozen=True, slots=True)
class StateChanged:
    """The table after a change: `payload` is spec/mqtt.md's `state` (no envelope)."""

    payload: dict[str, Any]
    phase: Phase
    turn: int | None
    seats: int
    standing: tuple[TableAlert, ...]

    @property
    def lead_wanted(self) -> bool:
        """Whether the table asks who led (a `LEAD_UNKNOWN` alert stands)."""
        return any(a.code is AlertCode.LEAD_UNKNOWN for a in self.standing)


@dataclass(frozen=True, slots=True)
class GameOver:
    """A game ended: `result` is its `game` event (`"event": "over"`) as stored."""

    game_id: str
    result: JournalEvent


@dataclass(frozen=True, slots=True)
class ResultConfirmed:
    """A seat confirmed a finished game's result: `result` is its `game` event as stored,
    with `confirmed_by` (the seats that confirmed, in order), to be retained again."""

    game_id: str
    result: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Answered:
    """The service's answer to a command that came over MQTT (the service publishes it,
    not the core): `error` None means done."""

    command_id: str
    error: str | None
    detail: dict[str, Any] | None = None  # the reply's `detail` (calibrate, enrol)


TableEvent = Event | AlertRaised | AlertResolved
"""What one change of the table tells, each in turn, before `Recorded`."""
