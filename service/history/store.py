"""The record of a table's games on its disk: their events, inputs and frames.

Everything lives under `<state dir>/history/`:

- `history.sqlite3` (SQLite, WAL): per game, every event the table published (its
  payload as published, by `seq`), every input the journal kept for it (in the notation
  of `engine.inputs`, with the seqs of the events it made: what `domino-table replay`
  reads), and which events have a picture;
- `frames/<n>/<seq>.jpg`: a camera table's frames, one file per settled reading, named
  by the first event read from it (`n` numbers the game); several events read from the
  same frame share its file. A board table's surface at each event is kept as the
  board reported it (its tiles in mm, in the database) and drawn as a PNG when asked.

The events and inputs are copied from the journal (`catch_up`), so the record never
misses what the journal has, after a crash too; only the pictures come from the
running table. A frame is written whole or not at all (`durable.write_file`: a temporary
file, fsynced, renamed over, the folder fsynced) before its row is committed; a file left
without its row by a cut is removed at the next start.

Kept: at least the last `KEEP_GAMES` games, in at most `max_bytes` (`prune`): over it the
oldest games go first while more than `KEEP_GAMES` are kept, then the oldest games'
frames (their events stay); never the game in play.

Not thread-safe: one thread writes (`service.history.recorder`); `open_read` gives a
reader for the command line while the table runs.
"""

from __future__ import annotations

import json
import logging
import shutil
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from durable import make_dirs, sync_dir, write_file
from engine.inputs import Input

__all__ = [
    "DB_NAME",
    "FOLDER",
    "KEEP_GAMES",
    "GameRecord",
    "GameSummary",
    "HistoryError",
    "HistoryStore",
    "Picture",
]

log = logging.getLogger(__name__)

FOLDER = "history"
DB_NAME = "history.sqlite3"
KEEP_GAMES = 50
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    n INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT NOT NULL UNIQUE,
    rules TEXT,
    names TEXT NOT NULL DEFAULT '[]',
    started TEXT,
    ended TEXT,
    hands INTEGER NOT NULL DEFAULT 0,
    scores TEXT NOT NULL DEFAULT '[]',
    source TEXT
);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY,
    game INTEGER NOT NULL REFERENCES games(n),
    kind TEXT NOT NULL,
    payload TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_game ON events(game, seq);
CREATE TABLE IF NOT EXISTS inputs (
    id INTEGER PRIMARY KEY,
    game INTEGER NOT NULL REFERENCES games(n),
    body TEXT NOT NULL,
    seqs TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS inputs_game ON inputs(game, id);
CREATE TABLE IF NOT EXISTS pictures (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game INTEGER NOT NULL REFERENCES games(n),
    kind TEXT NOT NULL,
    file TEXT,
    surface TEXT,
    bytes INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS pictures_game ON pictures(game);
CREATE TABLE IF NOT EXISTS frames (
    seq INTEGER PRIMARY KEY,
    game INTEGER NOT NULL REFERENCES games(n),
    picture INTEGER NOT NULL REFERENCES pictures(id)
);
CREATE INDEX IF NOT EXISTS frames_game ON frames(game);
CREATE TABLE IF NOT EXISTS marks (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


class HistoryError(Exception):
    """The record cannot be opened or read (the sentence says what to do)."""


class Journal(Protocol):
    """What the record copies from (`service.store.journal.Journal`)."""

    def last_seq(self) -> int: ...

    def last_input_id(self, action: str) -> int: ...

    def inputs(self, after: int = 0) -> Sequence[Any]: ...

    def inputs_after(self, after: int, seq_after: int) -> Sequence[Any]: ...

    def event(self, seq: int) -> Any: ...


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One game kept: `started`/`ended` are the `ts` of its `game` events (None: not
    yet), `scores` per seat as they stand, `source` `camera`, `board` or None."""

    game_id: str
    rules: str | None
    names: tuple[str, ...]
    started: str | None
    ended: str | None
    hands: int
    scores: tuple[int, ...]
    source: str | None
    frames: int

    def listed(self) -> dict[str, Any]:
        """As the `history` reply lists it (spec/mqtt.md, with fields added)."""
        return {
            "game_id": self.game_id,
            "started": self.started,
            "ended": self.ended,
            "hands": self.hands,
            "scores": list(self.scores),
            "rules": self.rules,
            "names": list(self.names),
            "frames": self.frames,
        }


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game whole: its events as published (seq order), each with its `type` (the
    kind its topic names, as `domino-table replay` prints them), the seqs with a
    picture, and its inputs (`{"id", "input", "seqs"}`, journal order)."""

    summary: GameSummary
    events: tuple[dict[str, Any], ...]
    frames: tuple[int, ...]
    inputs: tuple[dict[str, Any], ...]


@dataclass(frozen=True, slots=True)
class Picture:
    """The picture kept for one event: a JPEG's bytes (`kind` `jpeg`), or a board's
    report of the surface (`kind` `surface`: `{"surface": [w, h], "tiles": [...], "at"}`)."""

    kind: str
    jpeg: bytes | None = None
    surface: dict[str, Any] | None = None
    key: int = 0  # the picture's number: events with the same are shown by the same


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class HistoryStore:
    """A table's record of games under `state_dir/history`. `read_only`: for the command
    line, beside a running table (nothing is written, nothing is swept)."""

    def __init__(
        self, state_dir: Path, *, synchronous: str = "full", read_only: bool = False
    ) -> None:
        self.folder = Path(state_dir) / FOLDER
        self.frames_dir = self.folder / "frames"
        self.read_only = read_only
        self._depth = 0  # transactions open (a batch holds the outermost)
        path = self.folder / DB_NAME
        try:
            if read_only:
                if not path.is_file():
                    raise HistoryError(
                        f"history: {self.folder} holds no record of games: is {state_dir} "
                        "the state directory of a table that has played?"
                    )
                self._db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
            else:
                make_dirs(self.frames_dir)
                self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
                self._db.execute("PRAGMA journal_mode=WAL")
                sync = "FULL" if synchronous == "full" else "NORMAL"
                self._db.execute(f"PRAGMA synchronous={sync}")
                self._db.executescript(_SCHEMA)
                sync_dir(self.folder)  # the database's file (and its log's) made for good
                self._db.execute(
                    "INSERT OR IGNORE INTO marks (name, value) VALUES ('schema', ?)",
                    (str(SCHEMA_VERSION),),
                )
        except sqlite3.Error as exc:
            raise HistoryError(
                f"history: cannot open {path} ({exc}): move the folder {self.folder} aside "
                "to start a new record (the games' journal is not in it)"
            ) from exc
        self._check_version(path)
        if not read_only:
            self._sweep()

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> HistoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _check_version(self, path: Path) -> None:
        rows = self._db.execute("SELECT value FROM marks WHERE name='schema'").fetchall()
        version = int(rows[0][0]) if rows else 0
        if version != SCHEMA_VERSION:
            raise HistoryError(
                f"history: {path} was written in format {version}; this version reads "
                f"format {SCHEMA_VERSION}: move the folder {self.folder} aside to start a "
                "new record"
            )

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        db = self._db
        if self._depth:  # part of a batch: committed with it
            yield db
            return
        self._depth += 1
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        finally:
            self._depth -= 1
        db.execute("COMMIT")

    def batch(self) -> AbstractContextManager[sqlite3.Connection]:
        """Several writes, one transaction (one sync to disk): all stored, or none. A
        frame's file is written whole before the batch commits its row."""
        return self._transaction()

    # --- marks: how far the journal was copied ------------------------------------------

    def _mark(self, name: str, default: str = "") -> str:
        rows = self._db.execute("SELECT value FROM marks WHERE name=?", (name,)).fetchall()
        return str(rows[0][0]) if rows else default

    @staticmethod
    def _set_mark(db: sqlite3.Connection, name: str, value: object) -> None:
        db.execute("INSERT OR REPLACE INTO marks (name, value) VALUES (?, ?)", (name, str(value)))

    # --- copying the journal (the writer's thread) --------------------------------------

    def catch_up(self, journal: Journal) -> bool:
        """Copy what the journal stored since the last time: its inputs, then its events
        (each under its game); True when anything new was copied.

        A new record starts at the game in play (`begin`).
        """
        self.begin(journal)
        copied = self._copy_inputs(journal)
        return self._copy_events(journal) or copied

    def begin(self, journal: Journal) -> None:
        """A new record starts at the game in play when it is made (the journal's last
        `new_game`): the games played before it have no frames to keep."""
        if self._mark("seq"):
            return
        first = journal.last_input_id("new_game")
        seq = 0
        if first:
            started = journal.inputs(after=first - 1)
            seqs = started[0].seqs if started else ()
            seq = min(seqs) - 1 if seqs else journal.last_seq()
        else:
            seq = journal.last_seq()
        with self._transaction() as db:
            self._set_mark(db, "seq", seq)
            self._set_mark(db, "input", max(0, first - 1))
            self._set_mark(db, "input_seq", seq)

    def _copy_inputs(self, journal: Journal) -> bool:
        after = int(self._mark("input", "0"))
        seq_after = int(self._mark("input_seq", "0"))
        last = journal.last_seq()  # read first: an input stored later has its events after
        inputs = journal.inputs_after(after, seq_after)
        if not inputs:
            return False
        game = self._mark("game")
        with self._transaction() as db:
            for item in inputs:
                told: Input = item.told
                body = told.to_json()
                if body.get("action") == "new_game" and body.get("game_id"):
                    game = str(body["game_id"])
                if game:
                    n = self._game_n(db, game)
                    db.execute(
                        "INSERT OR REPLACE INTO inputs (id, game, body, seqs) VALUES (?, ?, ?, ?)",
                        (item.id, n, _dump(body), _dump(list(item.seqs))),
                    )
            self._set_mark(db, "input", inputs[-1].id)
            self._set_mark(db, "input_seq", max(seq_after, last))  # the next ones' events after
            self._set_mark(db, "game", game)
        return True

    def _copy_events(self, journal: Journal) -> bool:
        """The events after the last copied, in seq order. A seq missing in the journal
        with a later one stored is a gap that stays (a power cut's); one missing at the
        end may be stored later (the journal could not store it yet): looked for again."""
        done = int(self._mark("seq", "0"))
        last = journal.last_seq()
        found = []
        for seq in range(done + 1, last + 1):
            event = journal.event(seq)
            if event is not None:
                found.append(event)
        if not found:
            return False
        with self._transaction() as db:
            for event in found:
                self._add_event(db, event.seq, event.kind, event.payload)
            self._set_mark(db, "seq", found[-1].seq)
        return True

    def _game_n(self, db: sqlite3.Connection, game_id: str) -> int:
        rows = db.execute("SELECT n FROM games WHERE game_id=?", (game_id,)).fetchall()
        if rows:
            return int(rows[0][0])
        cur = db.execute("INSERT INTO games (game_id) VALUES (?)", (game_id,))
        assert cur.lastrowid is not None
        return cur.lastrowid

    def _add_event(
        self, db: sqlite3.Connection, seq: int, kind: str, payload: dict[str, Any]
    ) -> None:
        game_id = payload.get("game_id")
        if not isinstance(game_id, str) or not game_id:
            return  # not a game's event
        n = self._game_n(db, game_id)
        db.execute(
            "INSERT OR REPLACE INTO events (seq, game, kind, payload) VALUES (?, ?, ?, ?)",
            (seq, n, kind, _dump(payload)),
        )
        if kind == "game" and payload.get("event") == "started":
            names = payload.get("names") or []
            db.execute(
                "UPDATE games SET rules=?, names=?, started=?, scores=? WHERE n=?",
                (payload.get("rules"), _dump(names), payload.get("ts"), _dump([0] * len(names)), n),
            )
        elif kind == "game" and payload.get("event") == "over":
            db.execute(
                "UPDATE games SET ended=?, scores=? WHERE n=?",
                (payload.get("ts"), _dump(payload.get("scores") or []), n),
            )
        elif kind == "hand":
            counted = 1 if payload.get("result") != "redealt" else 0
            db.execute(
                "UPDATE games SET hands=hands+?, scores=? WHERE n=?",
                (counted, _dump(payload.get("scores") or []), n),
            )

    # --- pictures (the writer's thread) -------------------------------------------------

    def add_jpeg(self, game_id: str, seqs: Sequence[int], jpeg: bytes) -> int:
        """Keep a camera frame for the events `seqs` of `game_id`; its picture's id."""
        with self._transaction() as db:
            n = self._game_n(db, game_id)
        folder = self.frames_dir / str(n)
        make_dirs(folder)
        name = f"{min(seqs)}.jpg"
        write_file(folder / name, jpeg)
        with self._transaction() as db:
            cur = db.execute(
                "INSERT INTO pictures (game, kind, file, bytes) VALUES (?, 'jpeg', ?, ?)",
                (n, f"{n}/{name}", len(jpeg)),
            )
            assert cur.lastrowid is not None
            self._link(db, n, cur.lastrowid, seqs, "camera")
            return cur.lastrowid

    def add_surface(self, game_id: str, seqs: Sequence[int], surface: dict[str, Any]) -> int:
        """Keep a board's report of the surface for the events `seqs`; its picture's id."""
        body = _dump(surface)
        with self._transaction() as db:
            n = self._game_n(db, game_id)
            cur = db.execute(
                "INSERT INTO pictures (game, kind, surface, bytes) VALUES (?, 'surface', ?, ?)",
                (n, body, len(body)),
            )
            assert cur.lastrowid is not None
            self._link(db, n, cur.lastrowid, seqs, "board")
            return cur.lastrowid

    def link(self, game_id: str, picture: int, seqs: Sequence[int]) -> None:
        """More events shown by a picture already kept."""
        with self._transaction() as db:
            n = self._game_n(db, game_id)
            self._link(db, n, picture, seqs, None)

    @staticmethod
    def _link(
        db: sqlite3.Connection, n: int, picture: int, seqs: Sequence[int], source: str | None
    ) -> None:
        db.executemany(
            "INSERT OR REPLACE INTO frames (seq, game, picture) VALUES (?, ?, ?)",
            [(seq, n, picture) for seq in seqs],
        )
        if source is not None:
            db.execute("UPDATE games SET source=? WHERE n=? AND source IS NULL", (source, n))

    # --- keeping within bounds -----------------------------------------------------------

    def sizes(self) -> list[tuple[int, str, int, int]]:
        """Per game, oldest first: `(n, game_id, event and input bytes, picture bytes)`."""
        rows = self._db.execute(
            "SELECT g.n, g.game_id,"
            " (SELECT coalesce(sum(length(payload)), 0) FROM events WHERE game=g.n)"
            " + (SELECT coalesce(sum(length(body)), 0) FROM inputs WHERE game=g.n),"
            " (SELECT coalesce(sum(bytes), 0) FROM pictures WHERE game=g.n)"
            " FROM games g ORDER BY g.n"
        ).fetchall()
        return [(int(n), str(g), int(e), int(p)) for n, g, e, p in rows]

    def prune(self, max_bytes: int, protect: str | None) -> list[str]:
        """Keep within `max_bytes`: the oldest games go first while more than `KEEP_GAMES`
        are kept, then the oldest games' pictures; never `protect` (the game in play) nor
        the newest game. What was removed, in words (for the log)."""
        games = self.sizes()
        if not games:
            return []
        newest = games[-1][1]
        spared = {newest, protect}
        total = sum(e + p for _, _, e, p in games)
        done: list[str] = []
        count = len(games)
        for n, game_id, events, pictures in games:
            if total <= max_bytes or count <= KEEP_GAMES:
                break
            if game_id in spared:
                continue
            self._drop_game(n)
            total -= events + pictures
            count -= 1
            done.append(f"game {game_id}")
        for n, game_id, _, pictures in games:
            if total <= max_bytes:
                break
            if game_id in spared or pictures == 0 or f"game {game_id}" in done:
                continue
            self._drop_pictures(n)
            total -= pictures
            done.append(f"the frames of game {game_id}")
        return done

    def _drop_game(self, n: int) -> None:
        with self._transaction() as db:
            for table in ("frames", "pictures", "events", "inputs"):
                db.execute(f"DELETE FROM {table} WHERE game=?", (n,))
            db.execute("DELETE FROM games WHERE n=?", (n,))
        shutil.rmtree(self.frames_dir / str(n), ignore_errors=True)

    def _drop_pictures(self, n: int) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM frames WHERE game=?", (n,))
            db.execute("DELETE FROM pictures WHERE game=?", (n,))
        shutil.rmtree(self.frames_dir / str(n), ignore_errors=True)

    def _sweep(self) -> None:
        """Frame files no row names (a cut between the file and its row, a game dropped
        before its folder was removed): removed."""
        named = {
            str(f) for (f,) in self._db.execute("SELECT file FROM pictures WHERE file IS NOT NULL")
        }
        if not self.frames_dir.is_dir():
            return
        for folder in self.frames_dir.iterdir():
            if not folder.is_dir():
                continue
            for path in folder.iterdir():
                if f"{folder.name}/{path.name}" not in named:
                    log.info("history: %s is named by no record: removed", path)
                    path.unlink(missing_ok=True)
            if not any(folder.iterdir()):
                folder.rmdir()

    # --- reading (any thread that owns this store) --------------------------------------

    def games(self) -> list[GameSummary]:
        """The games kept, newest first."""
        rows = self._db.execute(
            "SELECT g.game_id, g.rules, g.names, g.started, g.ended, g.hands, g.scores,"
            " g.source, (SELECT count(*) FROM frames WHERE game=g.n)"
            " FROM games g ORDER BY g.n DESC"
        ).fetchall()
        return [_summary(row) for row in rows]

    def summary(self, game_id: str) -> GameSummary | None:
        return next((g for g in self.games() if g.game_id == game_id), None)

    def last_game(self) -> str | None:
        rows = self._db.execute("SELECT game_id FROM games ORDER BY n DESC LIMIT 1").fetchall()
        return str(rows[0][0]) if rows else None

    def record(self, game_id: str) -> GameRecord | None:
        """Game `game_id` whole, or None when it is not kept."""
        summary = self.summary(game_id)
        if summary is None:
            return None
        n = self._n(game_id)
        events = tuple(
            {"type": kind, **json.loads(text)}
            for kind, text in self._db.execute(
                "SELECT kind, payload FROM events WHERE game=? ORDER BY seq", (n,)
            )
        )
        frames = tuple(
            int(seq)
            for (seq,) in self._db.execute("SELECT seq FROM frames WHERE game=? ORDER BY seq", (n,))
        )
        inputs = tuple(
            {"id": int(i), "input": json.loads(body), "seqs": json.loads(seqs)}
            for i, body, seqs in self._db.execute(
                "SELECT id, body, seqs FROM inputs WHERE game=? ORDER BY id", (n,)
            )
        )
        return GameRecord(summary, events, frames, inputs)

    def _n(self, game_id: str) -> int | None:
        rows = self._db.execute("SELECT n FROM games WHERE game_id=?", (game_id,)).fetchall()
        return int(rows[0][0]) if rows else None

    def picture(self, game_id: str, seq: int) -> Picture | None:
        """The picture kept for event `seq` of `game_id`, or None."""
        n = self._n(game_id)
        if n is None:
            return None
        rows = self._db.execute(
            "SELECT p.kind, p.file, p.surface, p.id FROM frames f"
            " JOIN pictures p ON p.id = f.picture"
            " WHERE f.game=? AND f.seq=?",
            (n, seq),
        ).fetchall()
        if not rows:
            return None
        kind, file, surface, key = rows[0]
        if kind == "jpeg":
            try:
                return Picture("jpeg", jpeg=(self.frames_dir / str(file)).read_bytes(), key=key)
            except OSError as exc:
                log.warning("history: frame %s of game %s cannot be read: %s", seq, game_id, exc)
                return None
        return Picture("surface", surface=json.loads(surface), key=key)


def _summary(row: Sequence[Any]) -> GameSummary:
    game_id, rules, names, started, ended, hands, scores, source, frames = row
    return GameSummary(
        game_id=str(game_id),
        rules=rules,
        names=tuple(json.loads(names)),
        started=started,
        ended=ended,
        hands=int(hands),
        scores=tuple(json.loads(scores)),
        source=source,
        frames=int(frames),
    )
