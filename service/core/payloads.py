"""The MQTT boundary: the table's typed events become spec/mqtt.md payloads here, and only here.

The table core hands every change's events (the engine's, and its own alerts in
`service.core.table_events`) to `Outbox.record`, which turns each into its payload and
stores it in the journal; the MQTT link publishes them from there. `state_payload`
is the `state` (`open_end_places`: where its open ends take their next tiles),
`reply_payload` a command's reply, `Numbering` the payloads a replay (or a simulated
table) makes without a journal. The envelope (`v`, `table`, `ts`) is `mqttweb.envelope`'s.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engine.alerts import AlertCode
from engine.events import (
    AlertEvent,
    DrawEvent,
    Event,
    GameEvent,
    HandEvent,
    LeadEvent,
    PassEvent,
    PlayEvent,
    UndoEvent,
)
from engine.game import Game
from engine.geometry import GeometryError, TileSize, edge_positions
from engine.inputs import Input
from engine.layout import Layout
from engine.surface import SeenTile
from mqttweb.envelope import stamp
from service.core.table_events import AlertRaised, AlertResolved, TableAlert, TableEvent
from service.store.journal import Journal, JournalEvent


def reply_payload(
    table: str,
    cmd_id: str,
    ok: bool,
    error: str | None = None,
    detail: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A command reply: `{"v", "table", "ts", "id", "ok", "error"}`, and `detail` when a
    command has more to say (spec/mqtt.md: `calibrate`, `enrol`)."""
    body: dict[str, Any] = {"id": cmd_id, "ok": ok, "error": None if ok else error}
    if detail is not None:
        body["detail"] = dict(detail)
    return stamp(table, body)


def state_payload(
    game: Game,
    *,
    seq: int,
    game_id: str,
    sides: Sequence[str],
    ends_at: Callable[[Sequence[Mapping[str, Any]]], Sequence[tuple[int, int] | None]],
    surface: tuple[int, int],
    alerts: Sequence[Mapping[str, Any]],
    last: Mapping[str, Any] | None,
    sources: Mapping[str, bool],
    zone_counts: Sequence[int] | None,
) -> dict[str, Any]:
    """The `state` payload of spec/mqtt.md (without the envelope's `v`/`table`/`ts`).

    `sides` names each seat's side of the table (none: unknown), `ends_at` where each
    open end takes its next tile (mm, when known) from the layout's tiles, `alerts` the
    standing alerts as they were published.
    """
    summary = game.summary()
    for seat in summary["seats"]:
        seat["side"] = sides[seat["seat"]] if sides else None
    layout = summary["layout"]
    for entry, at in zip(layout["open_ends"], ends_at(layout["tiles"]), strict=False):
        if at is not None:
            entry["x"], entry["y"] = at
    width, height = surface
    return {
        "seq": seq,
        "game_id": game_id,
        **summary,
        "surface": {"width_mm": width, "height_mm": height},
        "alerts": list(alerts),
        "last": last,
        "language": game.language,
        "sources": dict(sources),
        "zone_counts": list(zone_counts) if zone_counts is not None else None,
    }


def open_end_places(
    layout: Layout, tiles: Sequence[Mapping[str, Any]], *, size: TileSize
) -> list[tuple[int, int] | None]:
    """Where each open end of `layout` takes its next tile (mm), when every tile's place
    is known (else none).

    From `tiles`, the state's layout: where each tile lay when it was played (the journal
    keeps it), so a restart gives the same places.
    """
    if not layout.nodes or len(tiles) != len(layout.nodes) or any("xa" not in t for t in tiles):
        return []
    placed = [
        SeenTile(n.tile.high, n.tile.low, t["xa"], t["ya"], t["xb"], t["yb"])
        for n, t in zip(layout.nodes, tiles, strict=True)
    ]
    try:
        edges = edge_positions(layout, placed, size)
    except GeometryError:
        return []
    out: list[tuple[int, int] | None] = []
    for end in layout.ends:
        at = next((e for e in edges[end.node] if e.edge is end.edge), None)
        out.append((round(at.x), round(at.y)) if at is not None else None)
    return out


# --- typed events -> payloads: the one place they become dicts ---------------------------------


@dataclass(frozen=True)
class _Numbers:
    """What a payload needs beyond its event: the game, a play's seq, an alert's number."""

    game_id: str
    ref_seq: Mapping[int, int]
    alert_number: int  # an alert's `id` is `<code>-<alert_number>`


@functools.singledispatch
def _payload(event: object, numbers: _Numbers) -> tuple[str, dict[str, Any]]:
    raise TypeError(f"no payload for {event!r}: register one in service.core.payloads")


def _engine_event(event: Event, numbers: _Numbers) -> tuple[str, dict[str, Any]]:
    body = event.payload()
    body["game_id"] = numbers.game_id
    return event.kind, body


for _kind in (PlayEvent, PassEvent, DrawEvent, LeadEvent, HandEvent, GameEvent):
    _payload.register(_kind, _engine_event)


@_payload.register
def _undo(event: UndoEvent, numbers: _Numbers) -> tuple[str, dict[str, Any]]:
    kind, body = _engine_event(event, numbers)
    body["undone"] = numbers.ref_seq.get(event.undone, event.undone)
    return kind, body


@_payload.register
def _engine_alert(event: AlertEvent, numbers: _Numbers) -> tuple[str, dict[str, Any]]:
    kind, body = _engine_event(event, numbers)
    body["id"] = alert_id(event.code, numbers.alert_number)
    return kind, body


@_payload.register
def _raised(event: AlertRaised, numbers: _Numbers) -> tuple[str, dict[str, Any]]:
    return "alert", alert_payload(event.alert)


@_payload.register
def _resolved(event: AlertResolved, numbers: _Numbers) -> tuple[str, dict[str, Any]]:
    shown = event.raised.payload if event.raised is not None else alert_payload(event.alert)
    return "alert", {**shown, "resolved": True}


def alert_id(code: AlertCode, number: int) -> str:
    """An alert's `id`: its code in lower case and a number (`no_match-12`)."""
    return f"{code.value.lower()}-{number}"


def alert_payload(alert: TableAlert) -> dict[str, Any]:
    """A raised alert's `alert` payload (no envelope, no `game_id`)."""
    body: dict[str, Any] = {
        "code": alert.code.value,
        "severity": alert.severity.value,
        "message": alert.message,
        "resolved": False,
        "id": alert.id,
    }
    if alert.seat is not None:
        body["seat"] = alert.seat
    if alert.tile is not None:
        body["tile"] = alert.tile
    if alert.at is not None:
        body |= alert.at.fields()
    return body


class Outbox:
    """A table's events as payloads in its journal, where the MQTT link publishes them.

    Every change's events go through `record`: each becomes its spec/mqtt.md payload
    (with `game_id`; an `undo` names the `seq` of the play it takes back; an engine
    alert's `id` is numbered by the change's first seq) and is stored with the next seq,
    with the input and the command's reply, in one transaction.
    """

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.ref_seq: dict[int, int] = {}  # the engine's number of a play or pass -> seq

    def record(
        self,
        told: Input | None,
        events: Sequence[TableEvent],
        *,
        game_id: str,
        reply: Mapping[str, Any] | None = None,
        echo: Mapping[str, Any] | None = None,
    ) -> list[JournalEvent]:
        """Store `told` (the input) and `events` as payloads; the stored events, in order.

        `echo`: fields every `game` event carries besides the engine's (a desk's seating).
        """
        numbers = _Numbers(game_id, self.ref_seq, self.journal.last_seq() + 1)
        made = [_payload(event, numbers) for event in events]
        for kind, payload in made:
            payload.setdefault("game_id", game_id)
            if kind == "game" and echo:
                payload.update(echo)
        stored = self.journal.record(told, made, reply=reply)
        self.renumber(events, stored)
        return stored

    def renumber(self, events: Sequence[object], stored: Sequence[JournalEvent | None]) -> None:
        """Pair the plays and passes among `events` with those `stored`, in order (after a
        restart, `events` are the replayed input's: they lack the alerts stored with it)."""
        refs = [e.ref for e in events if isinstance(e, PlayEvent | PassEvent)]
        seqs = [e.seq for e in stored if e is not None and e.kind in ("play", "pass")]
        for ref, seq in zip(refs, seqs, strict=False):
            self.ref_seq[ref] = seq


@dataclass
class Numbering:
    """Gives each event of one table the next `seq` and builds its payload (a replay's,
    a simulated table's): the payloads the table service would publish."""

    table: str
    game_id: str
    seq: int = 0
    ref_seq: dict[int, int] = field(default_factory=dict)

    def payload(self, event: Event, now: datetime | None = None) -> dict[str, Any]:
        self.seq += 1
        _, body = _payload(event, _Numbers(self.game_id, self.ref_seq, self.seq))
        if isinstance(event, PlayEvent | PassEvent):
            self.ref_seq[event.ref] = self.seq
        return stamp(self.table, body, seq=self.seq, now=now)
