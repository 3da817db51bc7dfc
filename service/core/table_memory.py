"""What the table core knows beyond its game, to put back after a failed write or a restart.

The game itself is rebuilt from the journal's inputs (the counts given seat by seat
too: the game keeps them). The rest is a `CoreMemory`: the standing alerts (with their
events as published), the sources' status, what the reconciler knows
(`service.core.reconciler.Memory`). The core takes one before each change and puts it
back when the journal could not store the change; and it keeps one in the journal with
every change (`saved`, JSON under the journal's `kv` key `table`), so that a restart goes
on exactly where the table was: the same alerts with the same ids, the same sources, the
tiles it leaves alone (the last game's, a play taken back by a command), a corrected
tile's reading, the alert the reconciler stands by.

Where the tiles lie and a pending alert's grace time are not kept across a restart: the
first snapshot after it says where they lie (`Reconciler` adopts them), and a pending
alert waits its grace time again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.alerts import AlertCode, Severity
from engine.events import Coords, Reason
from engine.surface import SeenTile
from engine.tiles import Tile
from service.core.reconciler import Memory, SurfaceAlert, ZoneCounts
from service.core.table_events import Spot, TableAlert
from service.store.journal import JournalEvent

KV_KEY = "table"


@dataclass(frozen=True)
class CoreMemory:
    """The core beyond its game, at one moment (`TableCore._memory`)."""

    game_id: str
    standing: tuple[tuple[TableAlert, JournalEvent | None], ...]
    last: dict[str, Any] | None
    sources: dict[str, bool]
    zone_counts: ZoneCounts | None
    ref_seq: dict[int, int]
    reconciler: Memory | None


# --- kept in the journal ----------------------------------------------------------------------


def saved(memory: CoreMemory) -> dict[str, Any]:
    """`memory` as JSON, to keep in the journal with a change."""
    return {
        "game_id": memory.game_id,
        "standing": [[a.key, e.seq] for a, e in memory.standing if e is not None],
        "sources": dict(memory.sources),
        "zone_counts": _counts(memory.zone_counts),
        "reconciler": _reconciler(memory.reconciler) if memory.reconciler else None,
    }


def _counts(counts: ZoneCounts | None) -> list[list[str]] | None:
    return [[t.text for t in seat] for seat in counts.tiles] if counts is not None else None


def _seen(seen: SeenTile) -> list[float]:
    return [seen.a, seen.b, seen.xa, seen.ya, seen.xb, seen.yb, seen.confidence]


def _reconciler(m: Memory) -> dict[str, Any]:
    standing = m.standing
    return {
        "standing": _problem(standing) if standing is not None else None,
        "hand": m.hand,
        "counts": _counts(m.counts),
        "cleared": m.cleared,
        "known": [t.text for t in m.known],
        "ignored": [_seen(s) for s in m.ignored.values()],
        "aliases": [[old.text, new.text] for old, new in m.aliases.items()],
        "looks": m.looks,
        "first_seen": [[t.text, n] for t, n in m.first_seen.items()],
        "surface": [_seen(s) for s in m.surface],
    }


def _problem(p: SurfaceAlert) -> dict[str, Any]:
    return {
        "code": p.code.value,
        "tile": p.tile.text if p.tile is not None else None,
        "coords": list(p.coords) if p.coords is not None else None,
        "message": p.message,
        "seat": p.seat,
        "reason": p.reason.value if p.reason is not None else None,
    }


# --- read back after a restart ----------------------------------------------------------------


def reconciler_memory(data: dict[str, Any]) -> Memory:
    """The reconciler's memory as kept (without where tiles lie, or a pending alert)."""
    return Memory(
        placed={},
        pending=None,
        pending_since=0.0,
        standing=_problem_of(data["standing"]) if data["standing"] is not None else None,
        hand=int(data["hand"]),
        counts=_counts_of(data["counts"]),
        cleared=bool(data["cleared"]),
        known=[Tile.parse(t) for t in data["known"]],
        ignored={s.tile: s for s in map(_seen_of, data["ignored"])},
        aliases={Tile.parse(a): Tile.parse(b) for a, b in data["aliases"]},
        looks=int(data["looks"]),
        first_seen={Tile.parse(t): int(n) for t, n in data["first_seen"]},
        surface=tuple(map(_seen_of, data["surface"])),
    )


def zone_counts(data: list[list[str]] | None) -> ZoneCounts | None:
    return _counts_of(data)


def _counts_of(data: list[list[str]] | None) -> ZoneCounts | None:
    if data is None:
        return None
    return ZoneCounts(tuple(tuple(Tile.parse(t) for t in seat) for seat in data))


def _seen_of(v: list[float]) -> SeenTile:
    return SeenTile(int(v[0]), int(v[1]), v[2], v[3], v[4], v[5], v[6])


def _problem_of(d: dict[str, Any]) -> SurfaceAlert:
    return SurfaceAlert(
        AlertCode(d["code"]),
        Tile.parse(d["tile"]) if d["tile"] is not None else None,
        Coords(*d["coords"]) if d["coords"] is not None else None,
        d["message"],
        d["seat"],
        Reason(d["reason"]) if d["reason"] is not None else None,
    )


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
