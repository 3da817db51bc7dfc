"""The desk's journal: every command, seating, result and correction, in order (SQLite).

Append-only: the table's triggers refuse UPDATE and DELETE, so nothing the desk wrote is
ever changed; a correction is a new record. WAL with `synchronous=FULL`: a record is on
disk when `append` returns, before anything is published from it. Its folder is made
durably and fsynced once the database file is made (`durable`), so a power cut during
the desk's first start leaves a journal or none, never a log without its database. The
first record is the event itself (the event file as validated); a journal of another
event is refused, so a desk pointed at the wrong state directory says so instead of
mixing two events.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from durable import make_dirs, sync_dir
from tournament.errors import JournalError

SCHEMA = """
CREATE TABLE IF NOT EXISTS journal (
    n INTEGER PRIMARY KEY,
    ts TEXT NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS journal_no_update BEFORE UPDATE ON journal
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS journal_no_delete BEFORE DELETE ON journal
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
"""


class Kind(StrEnum):
    """What a journal record says happened."""

    EVENT = "event"  # the event file, validated: always record 1
    COMMAND = "command"  # a desk command and the reply it got
    CHECK_IN = "check_in"
    ADD_PLAYER = "add_player"
    WITHDRAW = "withdraw"
    SEATING = "seating"  # a round seated: tables, seats, byes, ends_at
    SENT = "sent"  # a table's new_game (its id) went out
    ACK = "ack"  # a table acknowledged its new_game
    REFUSED = "refused"  # a table answered its new_game with ok: false
    STARTED = "started"  # a table reported the round's game started (its game_id)
    RESULT = "result"  # a table's result counted
    CONFIRMED = "confirmed"  # the players confirmed a counted result at their table
    UNCOUNTED = "uncounted"  # a result seen and not counted, with why
    ENTERED = "entered"  # a result entered by hand
    VOID = "void"
    FORFEIT = "forfeit"
    CLOSE = "close"  # a round closed; the tables that never reported
    NOTE = "note"  # the director's note on a game's result ("checked, stands", ...)


@dataclass(frozen=True)
class Record:
    n: int
    ts: str
    kind: Kind
    data: dict[str, Any]

    def payload(self) -> dict[str, Any]:
        return {"n": self.n, "ts": self.ts, "kind": self.kind.value, "data": self.data}


class Journal:
    """One SQLite file; `append_many` is durable when it returns, `add` once `commit`
    has returned."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            make_dirs(path.parent)
            made = not path.exists()
            self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.executescript(SCHEMA)
            if made:
                sync_dir(path.parent)  # the database's own name on disk, not only its log's
        except OSError as exc:
            raise JournalError(
                f"cannot open the journal {path}: {exc}; give a state directory this user "
                "may write with --state-dir"
            ) from exc
        except sqlite3.Error as exc:
            raise JournalError(
                f"cannot open the journal {path}: {exc}; give a state directory this user "
                "may write with --state-dir"
            ) from exc

    def append(self, ts: str, kind: Kind, data: dict[str, Any]) -> Record:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        try:
            cursor = self.db.execute(
                "INSERT INTO journal (ts, kind, data) VALUES (?, ?, ?)", (ts, kind.value, text)
            )
        except sqlite3.Error as exc:
            raise JournalError(f"cannot write the journal {self.path}: {exc}") from exc
        n = cursor.lastrowid
        assert n is not None
        return Record(n, ts, kind, json.loads(text))

    def append_many(self, ts: str, items: list[tuple[Kind, dict[str, Any]]]) -> list[Record]:
        """Several records in one transaction: all of them are on disk, or none."""
        out = self.add(ts, items)
        self.commit()
        return out

    def add(self, ts: str, items: list[tuple[Kind, dict[str, Any]]]) -> list[Record]:
        """Records in the open transaction (begun if none is): on disk once `commit()`
        returns, all of them and those added before, or none (a failure rolls back the
        whole transaction: `pending` says whether one is open)."""
        if not items:
            return []
        try:
            if not self.db.in_transaction:
                self.db.execute("BEGIN IMMEDIATE")
            return [self.append(ts, kind, data) for kind, data in items]
        except (sqlite3.Error, JournalError) as exc:
            self._rollback()
            raise JournalError(f"cannot write the journal {self.path}: {exc}") from exc

    @property
    def pending(self) -> bool:
        """Records added and not committed yet."""
        return self.db.in_transaction

    def commit(self) -> None:
        """Every record added so far on disk (one sync); nothing to do when none is."""
        if not self.db.in_transaction:
            return
        try:
            self.db.execute("COMMIT")
        except sqlite3.Error as exc:
            self._rollback()
            raise JournalError(f"cannot write the journal {self.path}: {exc}") from exc

    def _rollback(self) -> None:
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")

    def records(self, after: int = 0) -> Iterator[Record]:
        try:
            rows = self.db.execute(
                "SELECT n, ts, kind, data FROM journal WHERE n > ? ORDER BY n", (after,)
            ).fetchall()
        except sqlite3.Error as exc:
            raise JournalError(f"cannot read the journal {self.path}: {exc}") from exc
        for n, ts, kind, data in rows:
            yield Record(n, ts, Kind(kind), json.loads(data))

    def count(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM journal").fetchone()[0])

    def close(self) -> None:
        self.db.close()


def read(path: Path) -> list[Record]:
    """Every record of a journal file, opened read-only (for checks and recomputation)."""
    if not path.exists():
        raise JournalError(f"no journal at {path}")
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT n, ts, kind, data FROM journal ORDER BY n").fetchall()
    finally:
        db.close()
    return [Record(n, ts, Kind(kind), json.loads(data)) for n, ts, kind, data in rows]
