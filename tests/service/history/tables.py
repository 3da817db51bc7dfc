"""The history tests' tables (no tests of its own): a table core on a real journal, its
record kept by a `HistoryRecorder` as the service wires it, tiles laid where a player
would lay them on a board, commands told."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from engine import Tile, rulesets
from engine.geometry import Placer
from engine.inputs import Input
from engine.layout import OpenEnd
from engine.surface import SeenTile, Snapshot
from service.core import commands as cmd
from service.core.table import TableConfig, TableCore
from service.history import HistoryAnswer, HistoryRecorder, HistoryTrouble
from service.store.journal import Journal


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class BoardTable:
    """A table with a board (no camera, no MQTT): what the recorder is handed, and what
    it hands back (`answers`, `troubles`)."""

    def __init__(
        self,
        state_dir: Path,
        rules: str = "straight-block",
        seats: int = 2,
        max_mb: int = 500,
        target: int | None = None,
        enabled: bool = True,
    ) -> None:
        self.state_dir = state_dir
        self.clock = Clock()
        self.journal = Journal(state_dir, "t1")
        self.core = TableCore(
            TableConfig(table="t1", rules=rules, seats=seats, target=target),
            self.journal,
            rulesets.load,
            clock=self.clock,
        )
        self.lock = threading.Lock()
        self.answers: list[HistoryAnswer] = []
        self.troubles: list[HistoryTrouble] = []
        self.recorder = HistoryRecorder(
            state_dir, self.journal, self.submit, max_mb=max_mb, enabled=enabled
        )
        self.recorder.subscribe(self.core.bus)
        self.recorder.start()
        self.core.start()
        self.placer = Placer(900, 600)
        self.coords: list[SeenTile] = []
        self.surface: list[SeenTile] = []

    def submit(self, item: object) -> None:
        with self.lock:
            if isinstance(item, HistoryAnswer):
                self.answers.append(item)
            elif isinstance(item, HistoryTrouble):
                self.troubles.append(item)

    def lay(self, tile: str, end: OpenEnd | None = None) -> None:
        game = self.core.game
        assert game is not None
        t = Tile.parse(tile)
        if end is None and game.layout.nodes:
            end = next(e for e in game.layout.ends if e.pip in (t.high, t.low))
        seen = self.placer.place(game.layout, self.coords, t, end)
        self.surface.append(seen)
        self.look()

    def look(self) -> None:
        self.clock.now += 0.2
        snapshot = Snapshot(tuple(self.surface), at=self.clock.now)
        self.recorder.seen(snapshot)  # as the service does before the core judges it
        self.core.observe(snapshot)
        assert self.core.reconciler is not None
        self.coords = [p for p in self.core.reconciler.placed() if p is not None]

    def later(self, seconds: float = 2.0) -> None:
        """Time passes (a tile lying where it may not is an alert after the grace time)."""
        self.clock.now += seconds
        self.core.tick()

    def clear(self) -> None:
        self.surface = []
        self.coords = []
        self.look()

    def tell(self, told: Input) -> None:
        error = self.core.command(cmd.GameCommand(f"c{time.monotonic_ns()}", told))
        assert error is None, error

    def ask(self, command: cmd.HistoryAsk | cmd.FrameAsk, timeout: float = 10.0) -> HistoryAnswer:
        self.recorder.ask(command)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                found = [a for a in self.answers if a.command_id == command.id]
            if found:
                return found[-1]
            time.sleep(0.01)
        raise AssertionError(f"no answer to {command}")

    def idle(self) -> None:
        assert self.recorder.wait_idle()

    def game_id(self) -> str:
        return self.core.game_id

    def close(self) -> None:
        self.recorder.stop()
        self.journal.close()


def events_of(detail: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in detail["events"] if e["type"] == kind]
