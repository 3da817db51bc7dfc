"""`BoardLink`: owns the board's serial port (115200 8N1) and one reader thread.

The thread reads, decodes, drives the protocol `Session` (handshake, seqs, acks and
resends, SYNC on doubt), watches for silence (no frame for `heartbeat_timeout` = link
down) and reopens the port with backoff, finding the board again by its stable path or
USB id. Everything it has to say goes out one way: `on_event(event)`, called from the
reader thread (and once from `close()`'s caller, with the final `LinkDown`). Hand in a
callable that is quick and thread-safe, e.g. `queue.put` or `loop.call_soon_threadsafe`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import serial

from firmware_bridge.codec import Decoder, Frame
from firmware_bridge.errors import (
    BoardError,
    BoardNotFoundError,
    BoardRefusedError,
    BoardSettingsError,
    BoardTimeoutError,
)
from firmware_bridge.events import LinkDown, LinkEvent, LinkUp
from firmware_bridge.messages import Direction, Hello, HostMessage
from firmware_bridge.ports import find_port
from firmware_bridge.session import Command, Phase, Session

log = logging.getLogger(__name__)

BAUDRATE: Final = 115200


@dataclass(frozen=True, slots=True)
class LinkSettings:
    """Where the board is and how patient to be (the protocol's defaults)."""

    path: str | None = None  # a stable name: /dev/serial/by-id/..., a udev symlink
    usb_id: tuple[int, int] | None = None  # (vendor id, product id) when path is missing
    usb_serial: str | None = None
    needed_max_pip: int = 6  # the ruleset's set: a board reading fewer pips is refused
    resend_after: float = 0.2
    max_resends: int = 3
    heartbeat_timeout: float = 3.0
    snapshot_timeout: float = 1.0
    backoff_initial: float = 0.25
    backoff_max: float = 5.0
    poll_interval: float = 0.02

    def __post_init__(self) -> None:
        if self.path is None and self.usb_id is None:
            raise BoardSettingsError("say where the board is: a path, a USB id, or both")
        if not 0 <= self.needed_max_pip <= 18:
            raise BoardSettingsError(f"needed_max_pip must be 0..18, not {self.needed_max_pip}")
        if not 0 <= self.max_resends <= 10:
            raise BoardSettingsError(f"max_resends must be 0..10, not {self.max_resends}")
        times = ("resend_after", "heartbeat_timeout", "snapshot_timeout", "backoff_initial")
        for name in (*times, "backoff_max", "poll_interval"):
            if not 0 < getattr(self, name) <= 60:
                raise BoardSettingsError(f"{name} must be above 0 and at most 60 seconds")
        if self.backoff_max < self.backoff_initial:
            raise BoardSettingsError("backoff_max must be at least backoff_initial")


class BoardLink:
    """The serial link to one board. A context manager; `close()` is idempotent."""

    def __init__(
        self,
        settings: LinkSettings,
        on_event: Callable[[LinkEvent], None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self._on_event = on_event
        self._clock = clock
        self._session = Session(
            settings.needed_max_pip,
            settings.resend_after,
            settings.max_resends,
            settings.snapshot_timeout,
        )
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._changed = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None
        self._port: serial.Serial | None = None
        self._decoder = Decoder(Direction.FROM_BOARD)
        self._last_frame_at = 0.0
        self._backoff = settings.backoff_initial
        self._next_attempt = 0.0
        self._up = False
        self._failure: str | None = None
        self._reported_down: str | None = None
        self.counts: Counter[str] = Counter()
        self._where = settings.path or "{:04x}:{:04x}".format(*settings.usb_id or (0, 0))

    # --- life cycle --------------------------------------------------------------------

    def start(self) -> None:
        """Start the reader thread: it finds the board and keeps the link up until closed."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="board-link", daemon=True)
        self._thread.start()

    def open(self, timeout: float = 5.0) -> Hello:
        """`start()`, then wait for the handshake; raises and closes if it does not come."""
        self.start()
        deadline = self._clock() + timeout
        with self._changed:
            while True:
                phase = self._session.phase
                if self._up and phase is Phase.ONLINE and self._session.identity is not None:
                    return self._session.identity
                if phase is Phase.REFUSED:
                    break
                left = deadline - self._clock()
                if left <= 0:
                    break
                self._changed.wait(min(left, 0.1))
            refused = phase is Phase.REFUSED
            failure = self._session.failure if refused else self._failure
        self.close()
        if refused:
            raise BoardRefusedError(failure or "board refused")
        raise BoardTimeoutError(
            f"no board answered on {self._where} within {timeout:g} s"
            + (f" ({failure})" if failure else "")
            + ": check that it is plugged in and powered"
        )

    def close(self) -> None:
        thread, self._thread = self._thread, None
        self._stop.set()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)
        with self._lock:
            was_up = self._up
            self._close_port("closed by the host")
        if was_up:
            self._deliver([LinkDown("closed by the host", self._clock())])

    def __enter__(self) -> BoardLink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the host's side ----------------------------------------------------------------

    def send(self, message: HostMessage) -> Command:
        """Send a host frame (resent until acknowledged); `Command.wait()` for the answer."""
        with self._lock:
            cmd = self._session.send(message, self._clock())
            events = self._flush()
        self._deliver(events)
        return cmd

    def sync(self, reason: str = "asked by the service") -> None:
        """Ask the board for a snapshot now (e.g. to reconcile it with the game)."""
        with self._lock:
            if self._session.phase is Phase.ONLINE:
                self._session.request_sync(reason, self._clock())
            events = self._flush()
        self._deliver(events)

    @property
    def online(self) -> bool:
        with self._lock:
            return self._up

    @property
    def identity(self) -> Hello | None:
        with self._lock:
            return self._session.identity if self._up else None

    @property
    def consistent(self) -> bool:
        """Online, and the surface believed matches the board's (no snapshot awaited)."""
        with self._lock:
            return self._up and self._session.consistent

    def status(self) -> dict[str, object]:
        with self._lock:
            return {
                "where": self._where,
                "online": self._up,
                "last_failure": self._failure,
                **self._session.status(),
                **{f"link_{k}": v for k, v in sorted(self.counts.items())},
                **{f"decoder_{k}": v for k, v in sorted(self._decoder.counts.items())},
            }

    # --- the reader thread -------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                if self._port is None:
                    self._try_open()
                else:
                    self._pump()
            except Exception:
                log.exception("board %s: reader thread fault; reopening the port", self._where)
                self._down("internal fault in the reader thread")

    def _try_open(self) -> None:
        wait = self._next_attempt - self._clock()
        if wait > 0:
            self._stop.wait(min(wait, 0.1))
            return
        try:
            path = find_port(self.settings.path, self.settings.usb_id, self.settings.usb_serial)
            port = self._open_port(path)
        except (BoardNotFoundError, serial.SerialException, OSError) as exc:
            self.counts["open_failures"] += 1
            with self._lock:
                event = self._offline(str(exc), was_up=False)
                self._retry_later(str(exc))
            self._deliver([event] if event else [])
            return
        with self._lock:
            now = self._clock()
            self.counts["opens"] += 1
            self._port, self._decoder, self._last_frame_at = (
                port,
                Decoder(Direction.FROM_BOARD),
                now,
            )
            self._session.open(path, now)
            log.info("board: opened %s, saying HELLO", path)
            events = self._flush()
        self._deliver(events)

    def _open_port(self, path: str) -> serial.Serial:
        """115200 8N1, locked against a second opener, stale input dropped."""
        port = serial.Serial(
            path,
            BAUDRATE,
            bytesize=serial.EIGHTBITS,
            parity=serial.PARITY_NONE,
            stopbits=serial.STOPBITS_ONE,
            timeout=self.settings.poll_interval,
            write_timeout=1.0,
            exclusive=True,
        )
        try:
            port.reset_input_buffer()
        except (serial.SerialException, OSError):
            port.close()
            raise
        return port

    def _pump(self) -> None:
        port = self._port
        assert port is not None
        try:
            data = port.read(max(1, port.in_waiting))
        except (serial.SerialException, OSError) as exc:
            self._down(f"reading {self._session.port} failed: {exc}")
            return
        with self._lock:
            now = self._clock()
            self.counts["bytes_in"] += len(data)
            for item in self._decoder.feed(data):
                if isinstance(item, Frame):
                    self._last_frame_at = now
                self._session.receive(item, now)
            self._session.tick(now)
            events = self._flush()
            reason = (
                self._session.failure
                if self._session.phase in (Phase.REFUSED, Phase.FAILED)
                else None
            )
            silent = now - self._last_frame_at
            if (
                reason is None
                and silent > self.settings.heartbeat_timeout
                and self._port is not None
            ):
                reason = f"no frame for {self.settings.heartbeat_timeout:g} s"
        self._deliver(events)
        if reason is not None:
            self._down(reason)

    def _flush(self) -> list[LinkEvent]:
        """Write what the session has to send, notice a handshake; call under the lock."""
        writes, events = self._session.take_output()
        if self._port is not None:
            try:
                for data in writes:
                    self._port.write(data)
                    self.counts["bytes_out"] += len(data)
            except (serial.SerialException, OSError) as exc:
                self._failure = f"writing {self._session.port} failed: {exc}"
        if any(isinstance(e, LinkUp) for e in events):
            self._up, self._failure, self._reported_down = True, None, None
            self._backoff = self.settings.backoff_initial
            log.info("board: online on %s", self._session.port)
        self._changed.notify_all()
        return events

    def _down(self, reason: str) -> None:
        with self._lock:
            was_up, refused = self._up, self._session.phase is Phase.REFUSED
            self._close_port(reason)
            self.counts["downs"] += 1
            events = self._flush()
            if refused:
                self._backoff = self.settings.backoff_max
                reason = f"refused: {reason}"
            event = self._offline(reason, was_up)
            if event is not None:
                events.append(event)
            self._retry_later(reason)
        self._deliver(events)

    def _offline(self, reason: str, was_up: bool) -> LinkDown | None:
        """A `LinkDown` when the link was up, or is offline for a new reason; else None."""
        if not was_up and reason == self._reported_down:
            return None
        self._reported_down = reason
        if reason.startswith("refused: "):
            log.error("board %s %s", self._where, reason)
        elif was_up:
            log.warning("board %s: link down (%s), reopening", self._where, reason)
        else:
            log.info("board %s: offline (%s), retrying", self._where, reason)
        return LinkDown(reason, self._clock())

    def _retry_later(self, reason: str) -> None:
        self._failure = reason
        self._next_attempt = self._clock() + self._backoff
        log.debug("board %s: %s; next try in %.2f s", self._where, reason, self._backoff)
        self._backoff = min(self._backoff * 2, self.settings.backoff_max)

    def _close_port(self, reason: str) -> None:
        port, self._port = self._port, None
        self._up = False
        self._session.close(reason, self._clock())
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError) as exc:
                log.debug("board: closing the port: %s", exc)
        self._changed.notify_all()

    def _deliver(self, events: list[LinkEvent]) -> None:
        for event in events:
            try:
                self._on_event(event)
            except Exception:
                log.exception("board: the event handler failed on %s", event)


__all__ = ["BoardError", "BoardLink", "Command", "LinkSettings"]
