"""Engine events as spec/mqtt.md payloads: the envelope, `seq`, and `undone` seqs.

The engine numbers its plays and passes (`ref`); subscribers know them by `seq`. This
keeps that mapping, so an `undo` names the `seq` of the event it takes back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engine.events import AlertEvent, Event, PassEvent, PlayEvent, UndoEvent
from mqttweb.envelope import stamp


@dataclass
class Numbering:
    """Gives each event of one table the next `seq` and builds its payload."""

    table: str
    game_id: str
    seq: int = 0
    ref_seq: dict[int, int] = field(default_factory=dict)

    def payload(self, event: Event, now: datetime | None = None) -> dict[str, Any]:
        self.seq += 1
        body = event.payload()
        if isinstance(event, PlayEvent | PassEvent) and event.ref:
            self.ref_seq[event.ref] = self.seq
        if isinstance(event, UndoEvent):
            body["undone"] = self.ref_seq.get(event.undone, event.undone)
        if isinstance(event, AlertEvent):
            body["id"] = f"{event.code.value.lower()}-{self.seq}"
        body["game_id"] = self.game_id
        return stamp(self.table, body, seq=self.seq, now=now)

    def restore(self, seq: int, ref_seq: dict[int, int]) -> None:
        self.seq = seq
        self.ref_seq = dict(ref_seq)
