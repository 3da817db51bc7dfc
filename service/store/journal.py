"""The game's journal: an SQLite file in the state directory, the single source of truth.

Event-sourced. Each accepted input (the command or observation that changed the game)
is stored in its `engine.inputs` JSON form with the events it produced, in one
transaction, before anything is published; replaying `inputs()` through the engine
rebuilds the game. Each event takes the next `seq` (1, 2, 3, ... never reused, across
restarts) and is stored exactly as it will be published (`v`, `table`, `ts`, `seq`
stamped), so a republished event is byte-for-byte the first one. An event stays
`pending` until the broker acknowledged it. A journal written before the inputs had
their notation (schema 1) is converted when it is opened (`service.store.upgrade`).

SQLite runs in WAL mode with `synchronous=FULL` (the default): a committed `append`
survives a `kill -9` or a power cut. With `synchronous=NORMAL` it survives a `kill -9`;
a power cut may lose the last changes (never the file), and the seq mark then skips the
seqs they may have used. One connection, guarded by a lock, so any thread may call any
method (`mark_acked` comes from paho's network thread). `batch()` makes several writes
one transaction: all stored, or none.

Opening refuses a journal that cannot be trusted, with one sentence saying what
happened and what to do (`JournalError`): a file that is not a database or is damaged,
a zero-length file where an earlier run kept a game, a write-ahead log whose journal is
gone. Seqs go on after every seq handed out before, by this journal or an earlier one
(`service.store.seq_mark`, a small file beside the journal).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from durable import make_dirs, sync_dir
from engine.inputs import Input, read
from mqttweb.envelope import stamp
from service.store.seq_mark import RESERVE, SeqMark, SeqMarkError, boot_id
from service.store.upgrade import UpgradeError, converted

log = logging.getLogger(__name__)

FILE_NAME = "journal.sqlite3"
SCHEMA_VERSION = 2  # 2: inputs in their `engine.inputs` JSON form (1 is converted on open)
REPLIES_KEPT = 1000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS inputs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY,
    input_id INTEGER REFERENCES inputs(id),
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    acked INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS events_pending ON events(seq) WHERE acked = 0;
CREATE TABLE IF NOT EXISTS replies (
    n INTEGER PRIMARY KEY AUTOINCREMENT,
    cmd_id TEXT NOT NULL UNIQUE,
    reply TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS kv (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS counters (
    name TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
INSERT OR IGNORE INTO counters (name, value) VALUES ('seq', 0);
"""


class JournalError(Exception):
    """The journal cannot be opened or written (disk full, corrupt file, wrong version)."""


_DAMAGED = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}


def _opening_problem(path: Path, marks_last: int) -> str | None:
    """Why the files in the state directory cannot be a journal to go on with, if so."""
    wal, shm = Path(f"{path}-wal"), Path(f"{path}-shm")
    aside = f"move {path.name}, {wal.name} and {shm.name} aside (keep them to look into)"
    if not path.exists() and wal.exists():
        return (
            f"journal: {path} is gone but its write-ahead log {wal} is still there, so the "
            f"game it held is lost: {aside} to start a new game, or put the journal back."
        )
    if path.exists() and path.stat().st_size == 0 and (wal.exists() or marks_last > 0):
        held = f"seq {marks_last}" if marks_last else "a write-ahead log"
        return (
            f"journal: {path} is empty (0 bytes) though an earlier run stored events up to "
            f"{held} in it, so the game it held is lost: {aside} to start a new game."
        )
    return None


def _damaged(path: Path, detail: object) -> JournalError:
    return JournalError(
        f"journal: {path} is damaged ({detail}) and cannot be read: move it aside (with its "
        "-wal and -shm files; keep them to look into) to start a new game."
    )


def _open_failed(path: Path, exc: sqlite3.Error) -> JournalError:
    """The sentence for an SQLite error at start-up: damaged, or not reachable."""
    if getattr(exc, "sqlite_errorcode", None) in _DAMAGED:
        return _damaged(path, exc)
    return JournalError(
        f"journal: cannot open {path} ({exc}): check that the state directory is writable "
        "and the disk is not full"
    )


@dataclass(frozen=True)
class JournalEvent:
    """One stored event: its seq, topic kind (`play`, `alert`, ...) and full payload."""

    seq: int
    kind: str
    payload: dict[str, Any]


@dataclass(frozen=True)
class JournalInput:
    """One accepted input, and the seqs of the events it produced."""

    id: int
    told: Input
    seqs: tuple[int, ...]


class Journal:
    """The journal of one table. A context manager; `close()` is idempotent."""

    def __init__(
        self,
        state_dir: Path,
        table: str,
        *,
        replies_kept: int = REPLIES_KEPT,
        synchronous: str = "FULL",
    ) -> None:
        self.path = state_dir / FILE_NAME
        self.table = table
        if synchronous.upper() not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        self.synchronous = synchronous.upper()
        self._replies_kept = replies_kept
        self._lock = threading.RLock()
        self._depth = 0  # transactions open (a batch and the writes inside it)
        self._handed = 0  # the last seq stored by the open transaction
        self._out = 0  # the last seq handed out unstored (`hand_out`) since opening
        self._db: sqlite3.Connection | None = None
        try:
            make_dirs(state_dir)
            self.mark = SeqMark(state_dir)
            problem = _opening_problem(self.path, self.mark.marks.last)
            if problem is not None:
                raise JournalError(problem)
            made = not self.path.exists()
            new = made or self.path.stat().st_size == 0
            self._db = sqlite3.connect(
                self.path, check_same_thread=False, isolation_level=None, timeout=10
            )
            self._setup()
            if made:
                sync_dir(state_dir)  # the new database's name on disk, not only its log's
            self._go_on(new)
        except (OSError, SeqMarkError) as exc:
            self.close()
            raise JournalError(
                f"journal: cannot open {self.path} ({exc}): check that the state directory "
                "is writable and the disk is not full"
            ) from exc
        except sqlite3.Error as exc:
            self.close()
            raise _open_failed(self.path, exc) from exc
        except JournalError:
            self.close()
            raise
        log.info("journal: %s opened, last seq %d", self.path, self.last_seq())

    def _setup(self) -> None:
        db = self._conn()
        check = db.execute("PRAGMA quick_check").fetchall()
        if check != [("ok",)]:
            raise _damaged(self.path, "; ".join(str(row[0]) for row in check[:3]))
        mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode != "wal":
            raise JournalError(f"journal: {self.path} cannot use WAL mode (got {mode})")
        db.execute(f"PRAGMA synchronous={self.synchronous}")
        db.execute("PRAGMA foreign_keys=ON")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, 1, SCHEMA_VERSION):
            raise JournalError(
                f"journal: {self.path} has schema version {version}, this program knows "
                f"{SCHEMA_VERSION}: upgrade domino-table or move the file away"
            )
        if version == 1:
            self._upgrade(db)
        db.executescript(f"BEGIN; {_SCHEMA} PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")

    def _upgrade(self, db: sqlite3.Connection) -> None:
        """A journal written before `engine.inputs`: its inputs in their JSON form now,
        all of them and the version in one transaction (`service.store.upgrade`)."""
        rows = db.execute("SELECT id, body FROM inputs ORDER BY id").fetchall()
        try:
            new = [(_dump(converted(json.loads(body))), input_id) for input_id, body in rows]
        except (UpgradeError, ValueError) as exc:
            raise JournalError(
                f"journal: {self.path} was written by an older domino-table and one of its "
                f"inputs cannot be read ({exc}): move it aside (keep it to look into) to start "
                "a new game"
            ) from None
        db.execute("BEGIN")
        db.executemany("UPDATE inputs SET body=? WHERE id=?", new)
        db.execute("PRAGMA user_version=2")
        db.execute("COMMIT")
        log.warning("journal: %s converted to schema 2 (%d inputs)", self.path, len(new))

    def _go_on(self, new: bool) -> None:
        """Seqs go on after every seq handed out before (`service.store.seq_mark`).

        A mark that cannot be read (`SeqMark.damage`: empty, cut short, not JSON; left by
        a cut while an earlier version wrote it in place) on a journal that holds no event
        is a fresh start. On a journal that holds events, the seqs handed out beyond them
        are not known: the events go on `RESERVE` seqs after the journal's last, past any
        seq the mark may have held (a jump forward, as after a power cut)."""
        db = self._conn()
        counted = int(db.execute("SELECT value FROM counters WHERE name='seq'").fetchone()[0])
        boot = boot_id()
        mark = self.mark
        floor = mark.marks.floor(counted, new_journal=new, boot=boot)
        if mark.damage is not None:
            stored = db.execute("SELECT max(seq) FROM events").fetchone()[0]
            if stored is None:
                log.warning(
                    "journal: %s is damaged (%s) and %s holds no event: a fresh start",
                    mark.path,
                    mark.damage,
                    self.path,
                )
            else:
                floor = max(floor, counted + RESERVE)
                log.warning(
                    "journal: %s is damaged (%s) and %s holds events up to seq %d: the seqs "
                    "handed out beyond them are not known, so events go on after %d",
                    mark.path,
                    mark.damage,
                    self.path,
                    stored,
                    floor,
                )
        if floor > counted:
            db.execute("UPDATE counters SET value=? WHERE name='seq'", (floor,))
            log.warning(
                "journal: %s: events go on from seq %d (seqs up to %d were handed out before%s)",
                self.path,
                floor + 1,
                floor,
                ", by an earlier journal" if new else "",
            )
        mark.open(floor, boot)

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise JournalError("journal: used after close()")
        return self._db

    def batch(self) -> AbstractContextManager[sqlite3.Connection]:
        """Every write inside the block is one transaction: all stored, or none (the
        block's exception, or `JournalError` when the journal cannot store it)."""
        return self._transaction()

    @contextmanager
    def _transaction(self, *, durable: bool = True) -> Iterator[sqlite3.Connection]:
        """One write transaction (or a part of the batch already open); `durable=False`
        skips the fsync (for acks only)."""
        with self._lock:
            db = self._conn()
            if self._depth:
                self._depth += 1
                try:
                    yield db
                finally:
                    self._depth -= 1
                return
            self._depth, self._handed = 1, 0
            try:
                if not durable:
                    db.execute("PRAGMA synchronous=NORMAL")
                db.execute("BEGIN IMMEDIATE")
                yield db
                db.execute("COMMIT")
            except BaseException as exc:
                _roll_back(db)
                if isinstance(exc, sqlite3.Error):
                    raise JournalError(
                        f"journal: cannot write to {self.path} ({exc}): check the disk"
                    ) from exc
                raise
            finally:
                self._depth = 0
                if not durable:
                    _quietly(db, f"PRAGMA synchronous={self.synchronous}")
            self._stored(self._handed)

    def _stored(self, last: int) -> None:
        """A transaction stored events up to `last`: the seq mark knows (the journal holds
        them; the mark's file is written when it next reserves or closes)."""
        if not last:
            return
        try:
            self.mark.handed(last)
        except SeqMarkError as exc:
            log.warning("journal: %s (the journal has seq %d)", exc, last)

    def _query(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        with self._lock:
            try:
                return self._conn().execute(sql, args).fetchall()
            except sqlite3.Error as exc:
                raise JournalError(f"journal: cannot read {self.path} ({exc})") from exc

    # -- events ---------------------------------------------------------------------

    def append(
        self,
        inputs: Input | None,
        events: Sequence[tuple[str, Mapping[str, Any]]],
        *,
        reply: Mapping[str, Any] | None = None,
    ) -> list[int]:
        """Store an input and its events (and a command's reply); their seqs, in order."""
        return [event.seq for event in self.record(inputs, events, reply=reply)]

    def record(
        self,
        inputs: Input | None,
        events: Sequence[tuple[str, Mapping[str, Any]]],
        *,
        reply: Mapping[str, Any] | None = None,
    ) -> list[JournalEvent]:
        """Store an input and its events (and a command's reply) in one transaction.

        Each event gets the next seq and is stamped (`v`, `table`, `ts`, `seq`); the
        events are returned as stored, in order. `reply`, a stamped reply payload with
        an `id`, is stored for dedupe in the same transaction, so a command is never
        applied twice even if the process dies before publishing the reply.
        """
        with self._transaction() as db:
            input_id = None
            if inputs is not None:
                cur = db.execute("INSERT INTO inputs (body) VALUES (?)", (_dump(inputs.to_json()),))
                input_id = cur.lastrowid
            last = self._last(db)
            seqs = list(range(last + 1, last + 1 + len(events)))
            rows = [
                (seq, input_id, kind, _dump(stamp(self.table, payload, seq=seq)))
                for seq, (kind, payload) in zip(seqs, events, strict=True)
            ]
            self._insert(db, rows, last + len(events))
            if reply is not None:
                self._store_reply(db, str(reply["id"]), reply)
        return [_event((seq, kind, text)) for seq, _, kind, text in rows]

    def record_handed(self, events: Sequence[JournalEvent]) -> None:
        """Store events exactly as they were published under seqs handed out before the
        journal could store them (`hand_out`)."""
        with self._transaction() as db:
            rows = [(e.seq, None, e.kind, _dump(e.payload)) for e in events]
            self._insert(db, rows, max((e.seq for e in events), default=0))

    def hand_out(self) -> int:
        """The next seq, for an event the journal cannot store now (the disk is full);
        kept in the seq mark, fsynced, so that it is never handed out again. Handed out
        even when the mark cannot be written either (a read-only file system): then a
        restart before the journal stores it may hand it out again (logged)."""
        with self._lock:
            seq = self.last_seq() + 1
            self._out = seq
            try:
                self.mark.handed(seq, stored=False)
            except SeqMarkError as exc:
                log.warning("journal: seq %d not kept (%s): a restart may use it again", seq, exc)
            return seq

    def _last(self, db: sqlite3.Connection) -> int:
        counted = int(db.execute("SELECT value FROM counters WHERE name='seq'").fetchone()[0])
        return max(counted, self.mark.marks.last)

    def _insert(self, db: sqlite3.Connection, rows: Sequence[tuple[Any, ...]], last: int) -> None:
        """Insert event rows; the counter goes to `last` (reserved in the mark first)."""
        try:
            self.mark.reserve(last)
        except SeqMarkError as exc:
            raise JournalError(f"journal: cannot reserve seq {last} ({exc})") from exc
        db.executemany(
            "INSERT INTO events (seq, input_id, kind, payload) VALUES (?, ?, ?, ?)", rows
        )
        counted = db.execute("SELECT value FROM counters WHERE name='seq'").fetchone()[0]
        db.execute("UPDATE counters SET value=? WHERE name='seq'", (max(counted, last),))
        self._handed = max(self._handed, last)

    def event(self, seq: int) -> JournalEvent | None:
        """The stored event with that seq, or None."""
        rows = self._query("SELECT seq, kind, payload FROM events WHERE seq=?", (seq,))
        return _event(rows[0]) if rows else None

    def last_event(self) -> JournalEvent | None:
        """The event stored last (None before the first)."""
        rows = self._query("SELECT seq, kind, payload FROM events ORDER BY seq DESC LIMIT 1")
        return _event(rows[0]) if rows else None

    def pending(self) -> list[JournalEvent]:
        """The events the broker has not acknowledged yet, in seq order."""
        rows = self._query("SELECT seq, kind, payload FROM events WHERE acked=0 ORDER BY seq")
        return [_event(row) for row in rows]

    def pending_since(self, first_seq: int) -> list[JournalEvent]:
        """The pending events plus every event from `first_seq` on, acked or not, in order."""
        rows = self._query(
            "SELECT seq, kind, payload FROM events WHERE acked=0 OR seq>=? ORDER BY seq",
            (first_seq,),
        )
        return [_event(row) for row in rows]

    def pending_count(self) -> int:
        return int(self._query("SELECT count(*) FROM events WHERE acked=0")[0][0])

    def mark_acked(self, seq: int) -> None:
        """The broker acknowledged the event `seq` (called from paho's thread).

        Not fsynced: an ack lost in a power cut only means the event is published again.
        """
        with self._transaction(durable=False) as db:
            db.execute("UPDATE events SET acked=1 WHERE seq=?", (seq,))

    def last_seq(self) -> int:
        """The last seq handed out (0 before the first): of the last event stored, or of
        one handed out and not stored yet (`hand_out`)."""
        counted = int(self._query("SELECT value FROM counters WHERE name='seq'")[0][0])
        return max(counted, self.mark.marks.last)

    def last_event_seq(self) -> int:
        """The seq of the last event handed out (0 before the first): the last one stored,
        or one handed out unstored since the journal was opened (`hand_out`). Unlike
        `last_seq`, never a seq skipped after a power cut or a lost journal: `state`
        carries this one (spec/mqtt.md: the seq of the last event it includes)."""
        rows = self._query("SELECT max(seq) FROM events")
        return max(int(rows[0][0] or 0), self._out)

    def inputs(self, after: int = 0) -> list[JournalInput]:
        """The stored inputs with an id above `after`, in order, to replay."""
        rows = self._query(
            "SELECT i.id, i.body, group_concat(e.seq) FROM inputs i "
            "LEFT JOIN events e ON e.input_id = i.id WHERE i.id > ? "
            "GROUP BY i.id ORDER BY i.id",
            (after,),
        )
        return [
            JournalInput(
                id=row[0],
                told=read(json.loads(row[1])),
                seqs=tuple(sorted(int(s) for s in row[2].split(","))) if row[2] else (),
            )
            for row in rows
        ]

    def inputs_after(self, after: int, seq_after: int) -> list[JournalInput]:
        """The inputs with an id above `after`, each with the seqs of its events above
        `seq_after` (all of them when `seq_after` is below the first), read by the
        tables' keys alone: a reader that follows the journal (the record of games)
        pays for what is new, not for the journal's length, as `inputs`' join does."""
        with self._lock:
            try:
                db = self._conn()
                rows = db.execute(
                    "SELECT id, body FROM inputs WHERE id > ? ORDER BY id", (after,)
                ).fetchall()
                made = db.execute(
                    "SELECT seq, input_id FROM events WHERE seq > ? AND input_id > ?",
                    (seq_after, after),
                ).fetchall()
            except sqlite3.Error as exc:
                raise JournalError(f"journal: cannot read {self.path} ({exc})") from exc
        seqs: dict[int, list[int]] = {}
        for seq, input_id in made:
            seqs.setdefault(int(input_id), []).append(int(seq))
        return [
            JournalInput(id=i, told=read(json.loads(body)), seqs=tuple(sorted(seqs.get(i, ()))))
            for i, body in rows
        ]

    def last_input_id(self, action: str) -> int:
        """The id of the latest input of `action` (`new_game`, say), or 0 when there is none.

        Read newest first and stopped there: the cost is the current game, not the years
        of games before it.
        """
        with self._lock:
            rows = self._conn().execute("SELECT id, body FROM inputs ORDER BY id DESC")
            for input_id, body in rows:
                if json.loads(body).get("action") == action:
                    return int(input_id)
        return 0

    # -- command replies --------------------------------------------------------------

    def put_reply(self, cmd_id: str, reply: Mapping[str, Any]) -> None:
        """Remember a command's reply; only the last `replies_kept` are kept."""
        with self._transaction() as db:
            self._store_reply(db, cmd_id, reply)

    def _store_reply(self, db: sqlite3.Connection, cmd_id: str, reply: Mapping[str, Any]) -> None:
        db.execute(
            "INSERT OR REPLACE INTO replies (cmd_id, reply) VALUES (?, ?)", (cmd_id, _dump(reply))
        )
        db.execute(
            "DELETE FROM replies WHERE n <= (SELECT max(n) FROM replies) - ?",
            (self._replies_kept,),
        )

    def get_reply(self, cmd_id: str) -> dict[str, Any] | None:
        """The reply stored for that command id, or None when it was never handled."""
        rows = self._query("SELECT reply FROM replies WHERE cmd_id=?", (cmd_id,))
        return json.loads(rows[0][0]) if rows else None

    # -- small state ------------------------------------------------------------------

    def put(self, key: str, value: Any) -> None:
        """Store a small JSON value (the game id, a calibration) under `key`."""
        with self._transaction() as db:
            db.execute("INSERT OR REPLACE INTO kv (key, value) VALUES (?, ?)", (key, _dump(value)))

    def get(self, key: str, default: Any = None) -> Any:
        rows = self._query("SELECT value FROM kv WHERE key=?", (key,))
        return json.loads(rows[0][0]) if rows else default

    # -- life cycle -------------------------------------------------------------------

    def journal_mode(self) -> str:
        return str(self._query("PRAGMA journal_mode")[0][0])

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
                self.mark.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _roll_back(db: sqlite3.Connection) -> None:
    if db.in_transaction:
        _quietly(db, "ROLLBACK")


def _quietly(db: sqlite3.Connection, sql: str) -> None:
    """Run `sql`, logging rather than raising (on the way out of a failed write)."""
    try:
        db.execute(sql)
    except sqlite3.Error as exc:
        log.warning("journal: %s failed: %s", sql.split(maxsplit=1)[0], exc)


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _event(row: tuple[int, str, str]) -> JournalEvent:
    return JournalEvent(seq=row[0], kind=row[1], payload=json.loads(row[2]))
