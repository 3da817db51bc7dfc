"""`BoardAdapter`: the board as an observation source for the service.

It runs a `BoardLink` and turns its events into what the service consumes, through one
way out, `on_event(event)`, called from the link's reader thread:

- `engine.surface.Snapshot` (tiles as `SeenTile`, `facedown=None`: the board never
  sees face-down tiles) after every complete board snapshot (handshake, resync), and
  after a PLACE or LIFT that changed the surface while it is whole; never
  mid-snapshot or while a SYNC is awaited;
- `ButtonEvent`, `LinkChanged` (online/offline with a reason), `BoardFault` (ERR),
  `BoardIdentity` (HELLO, at each handshake and board restart), `CommandFailed`.

Host commands go out with `led(x, y, colour)`, `leds_off()` and `beep(ms)`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.surface import Snapshot
from firmware_bridge.errors import BoardCommandError
from firmware_bridge.events import (
    BoardFaulted,
    BoardReset,
    ButtonChanged,
    CommandFailed,
    HeartbeatReceived,
    LinkDown,
    LinkEvent,
    LinkUp,
    SurfaceReceived,
    SyncStarted,
    TileLifted,
    TilePlaced,
)
from firmware_bridge.link import BoardLink, LinkSettings
from firmware_bridge.messages import Beep, ButtonAction, Colour, Hello, Led, LedsOff, TileAt
from firmware_bridge.session import Command
from firmware_bridge.surface import BoardSurface

log = logging.getLogger(__name__)

MAX_BEEP_MS = 60_000


@dataclass(frozen=True, slots=True)
class ButtonEvent:
    """A button on the board's edge (0..15) went DOWN, UP or was held (HOLD)."""

    button: int
    action: ButtonAction
    at: float


@dataclass(frozen=True, slots=True)
class LinkChanged:
    online: bool
    reason: str
    at: float


@dataclass(frozen=True, slots=True)
class BoardFault:
    """The board reported a fault of its own (`ERR`), e.g. a dead sensor."""

    code: str
    text: str
    at: float


@dataclass(frozen=True, slots=True)
class BoardIdentity:
    """Who the board says it is; `restarted` when it said so without being asked."""

    proto: str
    firmware: str
    board_id: str
    width_mm: int
    height_mm: int
    max_pip: int
    restarted: bool
    at: float

    @classmethod
    def of(cls, hello: Hello, restarted: bool, at: float) -> BoardIdentity:
        return cls(
            hello.proto,
            hello.firmware,
            hello.board_id,
            hello.width_mm,
            hello.height_mm,
            hello.max_pip,
            restarted,
            at,
        )


AdapterEvent = Snapshot | ButtonEvent | LinkChanged | BoardFault | BoardIdentity | CommandFailed


class BoardAdapter:
    """The instrumented board as a source. A context manager; `close()` is idempotent."""

    def __init__(
        self,
        settings: LinkSettings,
        on_event: Callable[[AdapterEvent], None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._on_event = on_event
        self._surface = BoardSurface()
        self._whole = False
        self._last: frozenset[TileAt] | None = None
        self._snapshot: Snapshot | None = None
        self._handlers: dict[type[Any], Callable[[Any], None]] = {
            LinkUp: self._on_up,
            LinkDown: self._on_down,
            BoardReset: self._on_reset,
            SyncStarted: self._on_sync,
            SurfaceReceived: self._on_surface,
            TilePlaced: self._on_placed,
            TileLifted: self._on_lifted,
            ButtonChanged: self._on_button,
            HeartbeatReceived: lambda _: None,
            BoardFaulted: lambda e: self._on_event(BoardFault(e.code, e.text, e.at)),
            CommandFailed: self._on_event,
        }
        self._clock = clock
        self.link = BoardLink(settings, self._handle, clock)

    def start(self) -> None:
        """Start the link in the background; events tell when the board is online."""
        self.link.start()

    def open(self, timeout: float = 5.0) -> BoardIdentity:
        """Start and wait for the handshake; raises `BoardRefusedError`/`BoardTimeoutError`."""
        hello = self.link.open(timeout)
        return BoardIdentity.of(hello, False, self._clock())

    def close(self) -> None:
        self.link.close()

    def __enter__(self) -> BoardAdapter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- commands --------------------------------------------------------------------

    def led(self, x: float, y: float, colour: Colour | str) -> Command:
        """Light the surface under (x, y) mm (rounded to whole mm); `OFF` puts it out."""
        x_mm, y_mm = round(x), round(y)
        try:
            light = Colour(colour.upper() if isinstance(colour, str) else colour)
        except ValueError as exc:
            names = ", ".join(Colour)
            raise BoardCommandError(f"LED colour must be one of {names}, not {colour!r}") from exc
        identity = self.link.identity
        size = (identity.width_mm, identity.height_mm) if identity else None
        if min(x_mm, y_mm) < 0 or (size is not None and (x_mm > size[0] or y_mm > size[1])):
            where = f"{size[0]} x {size[1]} mm" if size else "board's"
            raise BoardCommandError(f"LED at ({x_mm}, {y_mm}) is off the {where} surface")
        return self.link.send(Led(x_mm, y_mm, light))

    def leds_off(self) -> Command:
        return self.link.send(LedsOff())

    def beep(self, ms: int) -> Command:
        if not 1 <= ms <= MAX_BEEP_MS:
            raise BoardCommandError(f"a beep lasts 1 to {MAX_BEEP_MS} ms, not {ms}")
        return self.link.send(Beep(ms))

    def sync(self) -> None:
        """Ask the board for a snapshot now (a Snapshot follows once it is complete)."""
        self.link.sync("asked by the service")

    # --- state -----------------------------------------------------------------------

    @property
    def online(self) -> bool:
        return self.link.online

    @property
    def snapshot(self) -> Snapshot | None:
        """The last Snapshot emitted (None before the first whole surface)."""
        return self._snapshot

    def status(self) -> dict[str, object]:
        return {"surface_whole": self._whole, **self.link.status()}

    # --- from the link (reader thread) -----------------------------------------------

    def _handle(self, event: LinkEvent) -> None:
        self._handlers[type(event)](event)

    def _on_up(self, event: LinkUp) -> None:
        self._whole = False  # the board's snapshot follows its HELLO
        self._on_event(BoardIdentity.of(event.identity, False, event.at))
        self._on_event(LinkChanged(True, f"online on {event.port}", event.at))

    def _on_down(self, event: LinkDown) -> None:
        self._whole = False
        self._on_event(LinkChanged(False, event.reason, event.at))

    def _on_reset(self, event: BoardReset) -> None:
        self._whole = False
        self._on_event(BoardIdentity.of(event.identity, True, event.at))

    def _on_sync(self, _event: SyncStarted) -> None:
        self._whole = False

    def _on_surface(self, event: SurfaceReceived) -> None:
        self._surface.replace(event.tiles)
        self._whole = True
        self._emit(event.at, always=True)  # the service reconciles every snapshot

    def _on_placed(self, event: TilePlaced) -> None:
        self._surface.place(event.tile)
        self._emit(event.at)

    def _on_lifted(self, event: TileLifted) -> None:
        self._surface.lift(event.tile)
        self._emit(event.at)

    def _on_button(self, event: ButtonChanged) -> None:
        self._on_event(ButtonEvent(event.button.button, event.button.action, event.at))

    def _emit(self, at: float, always: bool = False) -> None:
        if not self._whole:
            return
        tiles = self._surface.tiles()
        if frozenset(tiles) == self._last and not always:
            return
        self._last = frozenset(tiles)
        self._snapshot = Snapshot(tuple(t.seen() for t in tiles), facedown=None, at=at)
        log.debug("board: surface %s", ", ".join(map(str, tiles)) or "empty")
        self._on_event(self._snapshot)
