"""A real emulated board on a pseudo-terminal, and a host adapter on pyserial."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.adapter import AdapterEvent, BoardAdapter
from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.link import LinkSettings
from firmware_bridge.messages import TileAt

# The protocol's timings scaled down so the tests are quick.
FAST: dict[str, Any] = {
    "resend_after": 0.1,
    "heartbeat_timeout": 1.5,  # 15 heartbeats: no false alarm on a loaded machine
    "snapshot_timeout": 1.0,
    "backoff_initial": 0.05,
    "backoff_max": 0.2,
    "poll_interval": 0.01,
}
DOUBLE_SIX = TileAt(6, 6, 450, 288, 450, 312)
SIX_FOUR = TileAt(6, 4, 474, 300, 498, 300)


class Recorder:
    """Collects events from any thread; tests wait for the one they expect."""

    def __init__(self) -> None:
        self.events: list[Any] = []
        self._cond = threading.Condition()

    def __call__(self, event: Any) -> None:
        with self._cond:
            self.events.append(event)
            self._cond.notify_all()

    def mark(self) -> int:
        with self._cond:
            return len(self.events)

    def wait_for(self, match: Callable[[Any], bool], since: int = 0, timeout: float = 5.0) -> Any:
        with self._cond:
            found = self._cond.wait_for(
                lambda: next((e for e in self.events[since:] if match(e)), None), timeout
            )
        assert found is not None, f"no matching event in {timeout} s: {self.events[since:]}"
        return found

    def of(self, kind: type[Any], since: int = 0) -> list[Any]:
        with self._cond:
            return [e for e in self.events[since:] if isinstance(e, kind)]


def emulator(tmp_path: Path, **kwargs: Any) -> BoardEmulator:
    options: dict[str, Any] = {
        "link": tmp_path / "board",
        "hb_interval": 0.1,
        "debounce": 0.02,
        "tiles": [DOUBLE_SIX],
    }
    options.update(kwargs)
    return BoardEmulator(**options)


@pytest.fixture
def board(tmp_path: Path) -> Iterator[BoardEmulator]:
    with emulator(tmp_path) as emu:
        yield emu


@pytest.fixture
def events() -> Recorder:
    return Recorder()


@pytest.fixture
def host(board: BoardEmulator, events: Recorder) -> Iterator[BoardAdapter]:
    assert board.link is not None
    with BoardAdapter(LinkSettings(path=str(board.link), **FAST), events) as adapter:
        adapter.open(timeout=3)
        yield adapter


def tiles_of(event: AdapterEvent) -> set[TileAt]:
    """The board tiles a Snapshot shows, back as TileAt values."""
    return {
        TileAt(t.a, t.b, int(t.xa), int(t.ya), int(t.xb), int(t.yb))
        for t in getattr(event, "tiles", ())
    }
