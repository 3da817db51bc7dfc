"""What the desk knows about every table, folded from the tables' MQTT topics.

Pure: topics and payloads in, the `standings` payload's `tables` and `entries` out.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import Any

from tournament.errors import ResultError
from tournament.standings import Entry, GameResult, standings

log = logging.getLogger(__name__)

TABLE_ID = re.compile(r"[a-z0-9][a-z0-9_-]*")  # whole id (fullmatch): "t1\n" is none
RESERVED = "tournament"
UNKNOWN = "unknown"  # a table whose `status` the desk has not seen (or was cleared)


@dataclass
class TableInfo:
    """One line of the standings' `tables`."""

    status: str = UNKNOWN
    game_id: str | None = None
    hand: int | None = None

    def payload(self, table: str) -> dict[str, Any]:
        return {"table": table, "status": self.status, "game_id": self.game_id, "hand": self.hand}


def split_topic(topic: str) -> tuple[str, str, str | None] | None:
    """`domino/<table>/status|state|result/<game_id>` -> (table, kind, game_id), else None."""
    parts = topic.split("/")
    if len(parts) < 3 or parts[0] != "domino":
        return None
    table = parts[1]
    if table == RESERVED or not TABLE_ID.fullmatch(table):
        return None
    if len(parts) == 3 and parts[2] in ("status", "state"):
        return (table, parts[2], None)
    if len(parts) == 4 and parts[2] == "result" and parts[3]:
        return (table, "result", parts[3])
    return None


class Board:
    """Tables and finished games; `entries()` ranks the players."""

    def __init__(self) -> None:
        self.tables: dict[str, TableInfo] = {}
        self.results: dict[tuple[str, str], GameResult] = {}
        # results counted or cleared since `drain_changes()`: (table, game_id, payload or None)
        self.changes: list[tuple[str, str, Any]] = []
        self._entries: list[Entry] | None = []

    def on_message(self, topic: str, payload: bytes) -> bool:
        """Fold one message in; True when the standings payload changes."""
        where = split_topic(topic)
        if where is None:
            return False
        table, kind, game_id = where
        try:
            if kind == "status":
                return self._status(table, payload)
            if kind == "state":
                return self._state(table, payload)
            assert game_id is not None
            return self._result(table, game_id, payload)
        except (ResultError, ValueError, TypeError) as exc:
            # network input: a payload of the wrong shape must not stop the desk
            log.warning("desk: %s ignored: %s", topic, exc)
            return False

    def _table(self, table: str) -> TableInfo:
        info = self.tables.get(table)
        if info is None:
            info = self.tables[table] = TableInfo()
        return info

    def _status(self, table: str, payload: bytes) -> bool:
        status = payload.decode("utf-8", "replace").strip() or UNKNOWN
        info = self._table(table)
        changed = info.status != status
        info.status = status
        return changed

    def _state(self, table: str, payload: bytes) -> bool:
        if not payload:
            return False  # a cleared retained state: the table keeps its last known game
        state = json.loads(payload)
        if not isinstance(state, dict):
            raise TypeError("the state is not a JSON object")
        game_id, hand = state.get("game_id"), state.get("hand")
        if not isinstance(game_id, str) or not isinstance(hand, int) or isinstance(hand, bool):
            raise TypeError("the state has no string game_id and integer hand")
        info = self._table(table)
        changed = (info.game_id, info.hand) != (game_id, hand)
        info.game_id, info.hand = game_id, hand
        return changed

    def _result(self, table: str, game_id: str, payload: bytes) -> bool:
        self._table(table)
        key = (table, game_id)
        if not payload:  # a retained result cleared: the game no longer counts
            removed = self.results.pop(key, None) is not None
            if removed:
                log.info("desk: result %s/%s cleared, no longer counted", table, game_id)
                self.changes.append((table, game_id, None))
                self._entries = None
            return removed
        return self.add_result(table, game_id, json.loads(payload))

    def add_result(self, table: str, game_id: str, payload: Any) -> bool:
        """Count one finished game (again: no change); `ResultError` when it is none."""
        result = GameResult.from_payload(table, game_id, payload)
        key = result.key
        if self.results.get(key) == result:
            return False
        if key not in self.results:
            log.info("desk: game %s at table %s counted", game_id, table)
        self.results[key] = result
        self.changes.append((table, game_id, payload))
        self._entries = None
        return True

    def drain_changes(self) -> list[tuple[str, str, Any]]:
        changes, self.changes = self.changes, []
        return changes

    def entries(self) -> list[Entry]:
        if self._entries is None:
            self._entries = standings(self.results.values())
        return self._entries

    def payload(self) -> dict[str, Any]:
        """`tables` and `entries` of the standings payload (without `v`, `ts`, `seq`)."""
        return {
            "tables": [self.tables[t].payload(t) for t in sorted(self.tables)],
            "entries": [e.payload() for e in self.entries()],
        }
