"""What the table core knows beyond its game, to put back after a failed write or a restart.

The game itself is rebuilt from the journal's inputs (the counts given seat by seat too:
the game keeps them). The rest is held by its owners, each in one frozen value that writes
itself (`service.core.kept`): the core's own (`CoreMemory`: the game's id, the sources'
status, the tiles counted in the seat zones), the standing alerts
(`service.core.alerts.StandingAlerts`) and the reconciler's (`service.core.reconciler.
Memory`). A `Moment` is all of them at once: the core takes one before each change and
puts it back when the journal could not store the change. With every change the core
keeps one in the journal (`kept`, JSON under the journal's `kv` key `table`), so that a
restart goes on exactly where the table was: the same alerts with the same ids, the same
sources, the tiles it leaves alone (the last game's, a play taken back by a command), a
corrected tile's reading, the alert the reconciler stands by.

What is not kept across a restart (`NOT_KEPT`): where the tiles lie and a pending
alert's grace time (the first snapshot after it says where they lie, and a pending alert
waits its grace time again), the last event published and the plays' seqs (both from the
journal), why a source went offline.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from service.core.alerts import Standing, as_kept
from service.core.kept import NOT_KEPT, Kept
from service.core.reconciler import Memory, ZoneCounts

KV_KEY = "table"


@dataclass(frozen=True, slots=True)
class CoreMemory(Kept):
    """The table core's own state beyond its game (`TableCore.memory`)."""

    game_id: str = ""
    sources: Mapping[str, bool] = field(default_factory=dict)  # each source: online or not
    zone_counts: ZoneCounts | None = None  # the tiles last counted in the seat zones
    last: Mapping[str, Any] | None = field(default=None, metadata=NOT_KEPT)  # last published
    details: Mapping[str, str] = field(default_factory=dict, metadata=NOT_KEPT)  # why offline


@dataclass(frozen=True, slots=True)
class Moment:
    """Everything the core knows beyond its game at one moment (`TableCore.remember`)."""

    core: CoreMemory
    standing: tuple[Standing, ...]
    reconciler: Memory | None
    ref_seq: Mapping[int, int]  # the engine's number of a play or pass -> its seq


def kept(moment: Moment) -> dict[str, Any]:
    """`moment` as JSON, to keep in the journal with a change: each owner's value as it
    writes itself."""
    reconciler = moment.reconciler.as_dict() if moment.reconciler is not None else None
    return {**moment.core.as_dict(), "standing": as_kept(moment.standing), "reconciler": reconciler}


def read_kept(data: Mapping[str, Any]) -> tuple[CoreMemory, list[list[Any]], Memory | None]:
    """What `kept` wrote: the core's own, the standing alerts as kept, the reconciler's."""
    reconciler = data.get("reconciler")
    return (
        CoreMemory.from_dict(data),
        list(data.get("standing", [])),
        Memory.from_dict(reconciler) if reconciler is not None else None,
    )
