"""The table's record of its games, kept beside the game on a thread of its own.

`HistoryRecorder` is a subscriber of the table core's bus. On the worker thread it only
notes and hands over, so that keeping the record adds nothing to the time from a play
to its event:

- `seen(snapshot)`: the latest settled snapshot of the surface (the camera's or the
  board's), before the core judges it;
- on each `Recorded` change: the events that deserve a picture and what to draw them
  from (the camera's frame of that snapshot, `service.history.camera.CameraFrames`; the
  board's report of it), put on its queue;
- `ask(command)`: a `history` or `frame` command, put on its queue.

Its own thread does the rest: it copies the journal's new inputs and events into the
record (`HistoryStore.catch_up`), draws and writes the pictures, answers the commands
(a `HistoryAnswer` through `submit`, which the service turns into the reply, and for
`frame` the picture on `history/frame` first) and keeps the record within
`[history] max_mb` (`[history] enabled = false`: nothing is kept, and the commands are
refused with the reason). When it cannot write (a full disk), the game goes on: it says so
once (`HistoryTrouble`, a standing `DISK_FULL` alert), keeps the latest pictures it
could not write (at most `WAITING`) and tries again every `RETRY_S`; the events come
from the journal, so none is lost. A camera table keeps a frame for each play, pass,
undo and alert; a board table the surface at every event.
"""

from __future__ import annotations

import logging
import queue
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.surface import Snapshot
from mqttweb.frame_mark import mark_image
from service.core import commands as cmd
from service.core.bus import Bus
from service.core.table_events import GameOver, Recorded, StateChanged
from service.history.events import HistoryAnswer, HistoryTrouble
from service.history.store import HistoryError, HistoryStore, Journal
from service.history.surface import board_surface, image_of

if TYPE_CHECKING:
    from service.history.camera import CameraFrames, Kept

__all__ = ["CAMERA_KINDS", "RETRY_S", "WAITING", "HistoryRecorder"]

log = logging.getLogger(__name__)

CAMERA_KINDS = frozenset({"play", "pass", "undo", "alert"})
"""The events a camera table keeps a frame of."""
RETRY_S = 5.0
DISABLED = "This table keeps no record of games ([history] enabled = false in its settings)."
WAITING = 8  # pictures kept in memory while they cannot be written
PRUNE_EVERY = 20  # pictures written between two checks of the record's size
GATHER_S = 0.5  # what the worker hands over within this is written together


@dataclass(frozen=True, slots=True, eq=False)
class _Picture:
    """Events to show with one picture: a camera frame (`Kept`) or a board's report."""

    game_id: str
    seqs: tuple[int, ...]
    frame: Kept | None = None
    surface: dict[str, Any] | None = None
    key: object = None  # the same key: the same picture (several changes, one reading)


@dataclass(frozen=True, slots=True)
class _Ask:
    command: cmd.HistoryAsk | cmd.FrameAsk


class _Stop:
    pass


class HistoryRecorder:
    """Keeps the record of a table's games (see the module). `start`, then `stop`."""

    def __init__(
        self,
        state_dir: Path,
        journal: Journal,
        submit: Callable[[object], None],
        *,
        max_mb: int,
        synchronous: str = "full",
        surface_mm: tuple[int, int] = (900, 600),
        tile_mm: tuple[int, int] = (48, 24),
        enabled: bool = True,
    ) -> None:
        self.enabled = enabled
        self.state_dir = Path(state_dir)
        self.journal = journal
        self.submit = submit
        self.max_bytes = max_mb * 1_000_000
        self.synchronous = synchronous
        self.surface_mm = surface_mm
        self.tile_mm = tile_mm
        self.camera: CameraFrames | None = None
        self.store: HistoryStore | None = None
        self._queue: queue.Queue[object] = queue.Queue()
        self._thread: threading.Thread | None = None
        # the worker's
        self._snapshot: Snapshot | None = None
        self._surface: dict[str, Any] | None = None  # the latest board report, as kept
        self._in_play: str | None = None
        # the history thread's
        self._waiting: deque[_Picture] = deque()  # the latest WAITING while in trouble
        self._pictures: dict[object, tuple[str, int]] = {}  # key -> (game_id, picture id)
        self._written = 0
        self._trouble: str | None = None
        self._broken: str | None = None  # the record cannot be opened: why
        self.cpu_s = 0.0  # the history thread's CPU so far (for benchmarks)

    # --- the worker's side ------------------------------------------------------------

    def subscribe(self, bus: Bus) -> None:
        if not self.enabled:
            return
        bus.subscribe(Recorded, self.recorded)
        bus.subscribe(StateChanged, self._state_changed)
        bus.subscribe(GameOver, lambda _: self._queue.put(_PRUNE))

    def watch_camera(
        self, pipeline: Any, *, zones: Mapping[int, Any], tile_mm: tuple[float, float]
    ) -> Callable[[Any, Any], None] | None:
        """A camera table: its frames are kept; the function the camera calls with each
        frame that gave a settled reading (`CameraSource.keep`; None: none is kept)."""
        if not self.enabled:
            return None
        from service.history.camera import CameraFrames  # noqa: PLC0415 - OpenCV

        self.camera = CameraFrames(pipeline, zones=zones, tile_mm=tile_mm)
        return self.camera.keep

    def seen(self, snapshot: Snapshot) -> None:
        """A settled snapshot, about to be judged: the events it makes are shown by it."""
        if not self.enabled:
            return
        self._snapshot = snapshot
        if self.camera is None:
            self._surface = None  # drawn from it when first needed

    def recorded(self, recorded: Recorded) -> None:
        """A change was stored: copy it, and keep a picture of its events."""
        self._queue.put(_SYNC)
        picture = self._picture_of(recorded)
        if picture is not None:
            self._queue.put(picture)

    def _picture_of(self, recorded: Recorded) -> _Picture | None:
        snapshot = self._snapshot
        if self.camera is not None:
            frame = self.camera.take(snapshot.at) if snapshot is not None else None
            frame = frame or self.camera.latest()
            if frame is None:
                return None
            seqs = [e.seq for e in recorded.events if e.kind in CAMERA_KINDS]
            game_id = _game_of(recorded, seqs)
            return _Picture(game_id, tuple(seqs), frame=frame, key=frame) if game_id else None
        if snapshot is None:
            return None
        if self._surface is None:
            now = datetime.now(UTC)
            self._surface = board_surface(snapshot, self.surface_mm, self.tile_mm, now)
        seqs = [e.seq for e in recorded.events]
        game_id = _game_of(recorded, seqs)
        if not game_id:
            return None
        return _Picture(game_id, tuple(seqs), surface=self._surface, key=snapshot)

    def _state_changed(self, changed: StateChanged) -> None:
        self._in_play = str(changed.payload.get("game_id") or "") or None

    def ask(self, command: cmd.HistoryAsk | cmd.FrameAsk) -> None:
        """A `history` or `frame` command: answered from the history's thread."""
        if not self.enabled:
            self.submit(HistoryAnswer(command.id, DISABLED))
            return
        self._queue.put(_Ask(command))

    # --- life cycle ---------------------------------------------------------------------

    def start(self) -> None:
        """Open the record (a new one starts at the game in play now), then its thread."""
        if not self.enabled:
            return
        store = self._open()
        if store is not None:
            try:
                store.begin(self.journal)
            except (OSError, sqlite3.Error) as exc:
                self._failed(exc)
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="history", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        """Write what is queued (within `timeout`), then stop."""
        if self._thread is not None:
            self._queue.put(_Stop())
            self._thread.join(timeout)
            self._thread = None

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Wait until everything queued so far is done (for tests and tools)."""
        done = threading.Event()
        self._queue.put(done)
        return done.wait(timeout)

    # --- the history's thread -------------------------------------------------------------

    def _open(self) -> HistoryStore | None:
        if self.store is None and self._broken is None:
            try:
                self.store = HistoryStore(self.state_dir, synchronous=self.synchronous)
            except HistoryError as exc:
                log.error("%s; the games are played but not kept", exc)
                self._broken = str(exc)
            except (OSError, sqlite3.Error) as exc:
                self._failed(exc)
        return self.store

    def _run(self) -> None:
        began = time.thread_time()
        try:
            while self._step():
                self.cpu_s = time.thread_time() - began
        finally:
            if self.store is not None:
                self.store.close()

    def _step(self) -> bool:
        """Take what is queued (waiting at most `RETRY_S` while in trouble); False: stop."""
        try:
            first = self._queue.get(timeout=RETRY_S if self._trouble else None)
        except queue.Empty:
            first = _SYNC  # try again
        items = [first]
        # what comes within `GATHER_S` joins it: a burst of plays is one transaction, and
        # the record is written between plays, not on the heels of each (a command that
        # asks, or a stop, is not kept waiting)
        until = time.monotonic() + GATHER_S
        while len(items) < 256 and not any(_urgent(i) for i in items):
            left = until - time.monotonic()
            try:
                items.append(
                    self._queue.get(timeout=left) if left > 0 else self._queue.get_nowait()
                )
            except queue.Empty:
                break
        stop = any(isinstance(i, _Stop) for i in items)
        self._waiting.extend(i for i in items if isinstance(i, _Picture))
        try:
            self._write(prune=any(i is _PRUNE for i in items))
        except (OSError, sqlite3.Error) as exc:
            self._failed(exc)
        for item in items:
            if isinstance(item, _Ask):
                self._answer(item.command)
            elif isinstance(item, threading.Event):
                item.set()
        return not stop

    def _write(self, *, prune: bool) -> None:
        store = self._open()
        if store is None:
            self._waiting.clear()
            return
        done = 0
        try:
            with store.batch():  # what came meanwhile, one transaction: one sync to disk
                store.catch_up(self.journal)
                for picture in self._waiting:
                    self._keep(store, picture)
                    done += 1
        except BaseException:
            self._pictures = {}  # rolled back: no picture of this batch is kept
            raise
        for _ in range(done):
            self._waiting.popleft()
        if prune or self._written >= PRUNE_EVERY:
            self._written = 0
            for what in store.prune(self.max_bytes, self._in_play):
                log.info("history: %s removed to stay within %d MB", what, self.max_bytes // 10**6)
        if self._trouble is not None:
            log.warning("history: the record is written again")
            self._trouble = None
            self.submit(HistoryTrouble(None))

    def _keep(self, store: HistoryStore, picture: _Picture) -> None:
        if not picture.seqs:
            return
        known = self._pictures.get(picture.key) if picture.key is not None else None
        if known is not None and known[0] == picture.game_id:
            store.link(picture.game_id, known[1], picture.seqs)
            return
        if picture.frame is not None:
            assert self.camera is not None
            made = store.add_jpeg(picture.game_id, picture.seqs, self.camera.render(picture.frame))
        elif picture.surface is not None:
            made = store.add_surface(picture.game_id, picture.seqs, picture.surface)
        else:
            return
        self._written += 1
        if picture.key is not None:
            self._pictures = {picture.key: (picture.game_id, made)}  # only the latest

    def _failed(self, exc: BaseException) -> None:
        while len(self._waiting) > WAITING:  # kept in memory until they can be written
            self._waiting.popleft()
        detail = str(exc)
        if self._trouble is None:
            log.warning("history: the record cannot be written (%s); the game goes on", detail)
            self._trouble = detail
            self.submit(HistoryTrouble(detail))

    # --- answers ----------------------------------------------------------------------------

    def _answer(self, command: cmd.HistoryAsk | cmd.FrameAsk) -> None:
        try:
            answer = self._answer_of(command)
        except (OSError, sqlite3.Error, ValueError) as exc:
            log.warning("history: %s could not be answered: %s", command.action.value, exc)
            answer = HistoryAnswer(
                command.id, f"The table cannot read its record of games ({exc})."
            )
        self.submit(answer)

    def _answer_of(self, command: cmd.HistoryAsk | cmd.FrameAsk) -> HistoryAnswer:
        store = self.store
        if store is None:
            why = self._broken or self._trouble or "it could not be opened"
            return HistoryAnswer(command.id, f"The table keeps no record of games now: {why}")
        if isinstance(command, cmd.FrameAsk):
            return self._frame(store, command)
        return self._history(store, command)

    def _history(self, store: HistoryStore, command: cmd.HistoryAsk) -> HistoryAnswer:
        games = [g.listed() for g in store.games()]
        game_id = command.game_id or self._in_play or store.last_game()
        if game_id is None:
            return HistoryAnswer(command.id, None, {"games": games})
        record = store.record(game_id)
        if record is None:
            return HistoryAnswer(
                command.id,
                f"No game {game_id!r} is kept: history without a game_id lists the games kept.",
            )
        s = record.summary
        detail = {
            "game_id": s.game_id,
            "rules": s.rules,
            "seats": len(s.names),
            "events": list(record.events),
            "frames": list(record.frames),
            # added to the spec's fields: what a viewer shows beside them
            "names": list(s.names),
            "source": s.source,
            "started": s.started,
            "ended": s.ended,
            "surface": {"width_mm": self.surface_mm[0], "height_mm": self.surface_mm[1]},
            "games": games,
        }
        return HistoryAnswer(command.id, None, detail)

    def _frame(self, store: HistoryStore, command: cmd.FrameAsk) -> HistoryAnswer:
        picture = store.picture(command.game_id, command.seq)
        if picture is None:
            return HistoryAnswer(
                command.id,
                f"No frame is kept for seq {command.seq} of game {command.game_id!r}.",
            )
        image = image_of(picture, f"seq {command.seq}:")
        kind = "image/jpeg" if picture.kind == "jpeg" else "image/png"
        detail = {"game_id": command.game_id, "seq": command.seq, "type": kind, "bytes": len(image)}
        marked = mark_image(image, command.game_id, command.seq)
        return HistoryAnswer(command.id, None, detail, marked)


_SYNC = object()
_PRUNE = object()


def _urgent(item: object) -> bool:
    """Whether `item` may not wait for others: a command's answer, a stop, a waiter."""
    return isinstance(item, _Ask | _Stop | threading.Event)


def _game_of(recorded: Recorded, seqs: list[int]) -> str:
    """The game of the events `seqs` of a change (all of one game)."""
    for event in recorded.events:
        if event.seq in seqs:
            game_id = event.payload.get("game_id")
            if isinstance(game_id, str):
                return game_id
    return ""
