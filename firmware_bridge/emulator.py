"""A board on a pseudo-terminal: speaks protocol version 1 from the board's side.

`BoardEmulator` opens a pty (raw mode) whose slave path a host opens like the real
board's serial device, optionally behind a symlink (a udev stable name). It says HELLO
at power-up and when asked, sends a snapshot on HELLO and SYNC, a heartbeat every
`hb_interval`, acks or refuses every host frame that passes its CRC (acting on a seq
once), records LED and BEEP, and reports tiles only after they lay still for `debounce`.
It plays steps (`firmware_bridge.script`) from any iterable, at a pace (`speed` divides
every wait and the debounce), and injects faults on request (`inject`, `Fault`).

One thread runs the board; the public methods are thread-safe.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import random
import select
import threading
import time
import tty
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.tiles import Tile
from firmware_bridge.codec import Decoder, Frame, Rejected, RejectKind, crc16, encode
from firmware_bridge.errors import BoardNotFoundError
from firmware_bridge.messages import (
    SEQ_MODULO,
    BoardErr,
    BoardMessage,
    Button,
    ButtonAction,
    Colour,
    Direction,
    End,
    Heartbeat,
    Hello,
    HostHello,
    Led,
    LedsOff,
    Lift,
    Nak,
    NakReason,
    Place,
    Snap,
    SnapTile,
    Sync,
    TileAt,
    Unknown,
)
from firmware_bridge.messages import Ack as AckMessage
from firmware_bridge.messages import Beep as BeepMessage
from firmware_bridge.script import (
    ButtonStep,
    ErrorStep,
    Fault,
    FaultStep,
    LiftStep,
    PlaceStep,
    Step,
    WaitStep,
)

log = logging.getLogger(__name__)

DEFAULT_IDENTITY = Hello("1", "emulator-1.0", "EMU1", 900, 600, 6)


@dataclass(frozen=True, slots=True)
class FaultRates:
    """Chance per outgoing frame of each random fault (0 = never)."""

    bad_crc: float = 0.0
    drop: float = 0.0
    duplicate: float = 0.0
    garbage: float = 0.0


class _Pty:
    """The emulator's end of one pseudo-terminal 'plug-in'."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)

    def link(self, link: Path | None) -> None:
        """Point `link` at this pty, atomically (as udev re-points a stable name)."""
        if link is not None:
            tmp = link.with_name(link.name + ".new")
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            tmp.symlink_to(self.path)
            tmp.replace(link)

    def close(self) -> None:
        for fd in (self.master, self.slave):
            with contextlib.suppress(OSError):
                os.close(fd)


class BoardEmulator:
    """An emulated board. Use as a context manager, or `start()` and `stop()`."""

    def __init__(
        self,
        steps: Iterable[Step] = (),
        *,
        identity: Hello = DEFAULT_IDENTITY,
        link: str | Path | None = None,
        hb_interval: float = 1.0,
        debounce: float = 0.15,
        speed: float = 1.0,
        rates: FaultRates = FaultRates(),
        seed: int | None = None,
        tiles: Iterable[TileAt] = (),
    ) -> None:
        self.identity = identity
        self.link = None if link is None else Path(link)
        self.hb_interval = hb_interval
        self.debounce = debounce
        self.speed = speed
        self.rates = rates
        self._random = random.Random(seed)
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pty: _Pty | None = None
        self._spare: _Pty | None = None
        self._plug_at: float | None = None
        self._silent_until = 0.0
        self._scripts: deque[Iterator[Step]] = deque([iter(steps)])
        self._step_at = 0.0
        self._physical: dict[Tile, TileAt] = {t.tile: t for t in tiles}
        self._reported: dict[Tile, TileAt] = dict(self._physical)
        self._moved_at: dict[Tile, float] = {}
        self._faults: Counter[Fault] = Counter()
        self._delayed: list[tuple[int, FaultStep]] = []
        self.counts: Counter[str] = Counter()
        self.leds: dict[tuple[int, int], Colour] = {}
        self.beeps: list[int] = []
        # The latest frames, for tests: host frames acted on (a resent seq appears once),
        # every host frame that passed its CRC, every frame sent (before any fault).
        self.acted: deque[Frame] = deque(maxlen=10_000)
        self.heard: deque[Frame] = deque(maxlen=10_000)
        self.sent: deque[Frame] = deque(maxlen=10_000)
        self._tx = 0
        self._rx_last: int | None = None
        self._decoder = Decoder(Direction.FROM_HOST)
        self._booted = self._hb_at = 0.0
        self._power_up(time.monotonic())

    # --- life cycle ----------------------------------------------------------------------

    def start(self) -> BoardEmulator:
        if self._thread is None:
            with self._lock:
                self._plug_in(time.monotonic())
            self._thread = threading.Thread(target=self._run, name="board-emulator", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the board and close its pty (idempotent). The `link` symlink is removed."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=5)
        with self._lock:
            self._unplug()
            if self._spare is not None:
                self._spare.close()
                self._spare = None

    def __enter__(self) -> BoardEmulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def path(self) -> str:
        """The pty's slave device now (changes at each replug); `link` points at it."""
        with self._lock:
            if self._pty is None:
                raise BoardNotFoundError("the emulated board is unplugged: start() it, or wait")
            return self._pty.path

    # --- the Python API ------------------------------------------------------------------

    def play(self, steps: Iterable[Step]) -> None:
        """Play these steps after those already queued (a generator is read lazily)."""
        with self._lock:
            self._scripts.append(iter(steps))

    def place(self, tile: TileAt) -> None:
        self.play([PlaceStep(tile)])

    def lift(self, tile: TileAt | Tile) -> None:
        step = LiftStep(tile) if isinstance(tile, Tile) else LiftStep(tile.tile, tile)
        self.play([step])

    def press(self, button: int, action: ButtonAction = ButtonAction.DOWN) -> None:
        self.play([ButtonStep(button, action)])

    def inject(self, fault: Fault, count: int = 1, seconds: float = 0.5, after: int = 0) -> None:
        """Inject a fault (`Fault` says what count and seconds mean) now, or once `after`
        more frames have been sent (to hit, say, the first TILE of the next snapshot)."""
        with self._lock:
            if after > 0:
                self._delayed.append((after, FaultStep(fault, count, seconds)))
            else:
                self._fault(FaultStep(fault, count, seconds), time.monotonic())

    def idle(self) -> bool:
        """Every step played, every tile settled and reported."""
        with self._lock:
            return not self._scripts and not self._moved_at

    def surface(self) -> tuple[TileAt, ...]:
        """The tiles the board has reported as lying on it."""
        with self._lock:
            return tuple(self._reported.values())

    def wait_until(self, predicate: Callable[[], bool], timeout: float = 5.0) -> bool:
        """Wait (from a test) until `predicate()` holds; False on timeout."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not predicate():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(min(left, 0.05))
        return True

    # --- the board's thread -------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                pty = self._pty
            if pty is None:
                self._stop.wait(0.01)
                with self._lock:
                    if self._plug_at is not None and time.monotonic() >= self._plug_at:
                        self._plug_in(time.monotonic())
                continue
            try:
                readable, _, _ = select.select([pty.master], [], [], 0.01)
            except (OSError, ValueError):
                continue  # unplugged meanwhile
            with self._lock:
                if self._pty is not pty:
                    continue
                data = self._read(pty) if readable else b""
                try:
                    self._tick(data, time.monotonic())
                except Exception:
                    log.exception("emulator: fault in the board's loop; carrying on")
                self._changed.notify_all()

    def _read(self, pty: _Pty) -> bytes:
        try:
            return os.read(pty.master, 4096)
        except BlockingIOError:
            return b""
        except OSError as exc:
            if exc.errno != errno.EIO:
                log.warning("emulator: reading the pty: %s", exc)
            return b""

    def _tick(self, data: bytes, now: float) -> None:
        if now < self._silent_until:
            self.counts["bytes_ignored"] += len(data)
            return
        for item in self._decoder.feed(data):
            self._hear(item, now)
        self._play_due(now)
        self._settle(now)
        if now >= self._hb_at:
            self._hb_at = now + self.hb_interval
            uptime = int((now - self._booted) * 1000)
            dropped = self._decoder.counts["too_long"] + self._decoder.counts["bad_syntax"]
            self._send(
                Heartbeat(uptime, self._decoder.counts["bad_crc"], dropped, len(self._reported))
            )

    # --- power, plugs and faults ----------------------------------------------------------

    def _power_up(self, now: float) -> None:
        self._tx = 0
        self._rx_last = None
        self._decoder = Decoder(Direction.FROM_HOST)
        self._booted = now
        self._hb_at = now + self.hb_interval
        self.leds.clear()
        self._reported = dict(self._physical)
        self._moved_at.clear()

    def _plug_in(self, now: float) -> None:
        spare, self._spare = self._spare, None
        self._pty = _Pty() if spare is None else spare
        self._pty.link(self.link)
        self._plug_at = None
        self._power_up(now)
        log.info("emulator: board %s on %s", self.identity.board_id, self._pty.path)
        self._send(self.identity)

    def _unplug(self) -> None:
        pty, self._pty = self._pty, None
        if pty is not None:
            pty.close()
        if self.link is not None:
            with contextlib.suppress(FileNotFoundError):
                self.link.unlink()

    def _fault(self, step: FaultStep, now: float) -> None:
        self.counts[f"fault_{step.fault.value}"] += 1
        log.info("emulator: fault %s x%d", step.fault, step.count)
        if step.fault is Fault.RESET:
            self._power_up(now)
            self._send(self.identity)
        elif step.fault is Fault.REPLUG:
            # The device comes back under a new name: take it before the old one is freed.
            self._spare = self._spare or _Pty()
            self._unplug()
            self._plug_at = now + step.seconds
        elif step.fault is Fault.SILENCE:
            self._silent_until = now + step.seconds
        elif step.fault is Fault.GARBAGE:
            self._write(self._garbage(step.count))
        else:
            self._faults[step.fault] += step.count

    def _garbage(self, count: int) -> bytes:
        # Random bytes without `$`, ending a line, so they only cost what they hit.
        junk = bytes(self._random.choice(b"\x00\xff*,\r#ABCxyz0123") for _ in range(16 * count))
        return junk + b"\n"

    def _take(self, fault: Fault, rate: float = 0.0) -> bool:
        if self._faults[fault] > 0:
            self._faults[fault] -= 1
            return True
        return rate > 0 and self._random.random() < rate

    # --- sending ----------------------------------------------------------------------

    def _send(self, message: BoardMessage) -> None:
        delayed, self._delayed = self._delayed, []
        for after, step in delayed:
            if after > 0:
                self._delayed.append((after - 1, step))
            else:
                self._fault(step, time.monotonic())
        seq, self._tx = self._tx, (self._tx + 1) % SEQ_MODULO
        frame = Frame(seq, message)
        data = encode(frame)
        self.sent.append(frame)
        if self._take(Fault.DROP, self.rates.drop):
            self.counts["frames_dropped"] += 1
            return
        if self._take(Fault.BAD_CRC, self.rates.bad_crc):
            self.counts["frames_corrupted"] += 1
            body = frame.body().encode("ascii")
            data = b"$" + body + f"*{crc16(body) ^ 0x0001:04X}\n".encode()
        if self._take(Fault.GARBAGE, self.rates.garbage):
            data = self._garbage(1) + data
        if self._take(Fault.DUPLICATE, self.rates.duplicate):
            self.counts["frames_duplicated"] += 1
            data += data
        self._write(data)

    def _write(self, data: bytes) -> None:
        if self._pty is None:
            return
        view = memoryview(data)
        while view:
            try:
                n = os.write(self._pty.master, view)
            except OSError as exc:  # nobody reading: a USB board's bytes go nowhere too
                self.counts["bytes_lost"] += len(view)
                log.debug("emulator: write: %s", exc)
                return
            view = view[n:]
        self.counts["bytes_out"] += len(data)

    def _snapshot(self) -> None:
        tiles = list(self._reported.values())
        self._send(Snap(len(tiles)))
        for tile in tiles:
            self._send(SnapTile(tile))
        self._send(End())

    # --- hearing the host ----------------------------------------------------------------

    def _hear(self, item: Frame | Rejected, now: float) -> None:
        if self._take(Fault.DEAF):
            self.counts["host_frames_unheard"] += 1
            return
        if isinstance(item, Rejected):
            if item.kind is RejectKind.BAD_FIELDS and item.seq is not None:
                self._answer(item.seq, NakReason.BADARG)
            return
        self.heard.append(item)
        message = item.message
        if isinstance(message, HostHello):
            self.acted.append(item)
            self._tx, self._rx_last = 0, item.seq  # HELLO restarts both counters
            self._send(self.identity)
            self._snapshot()
            return
        repeat = item.seq == self._rx_last
        self._rx_last = item.seq
        if isinstance(message, Unknown):
            self._answer(item.seq, NakReason.UNKNOWN)
            return
        if not repeat and self._take(Fault.BUSY):
            self._answer(item.seq, NakReason.BUSY)
            return
        if repeat:
            self.counts["host_repeats"] += 1
            self._answer(item.seq, None)
            return
        self.acted.append(item)
        if isinstance(message, Sync):
            self._answer(item.seq, None)  # the ACK cannot come inside the snapshot
            self._act(message)
        else:
            self._act(message)  # done before it is acked, as a firmware would
            self._answer(item.seq, None)

    def _answer(self, seq: int, nak: NakReason | None) -> None:
        if nak is not None:
            self._send(Nak(seq, nak))
        elif self._take(Fault.DROP_ACK):
            self.counts["acks_dropped"] += 1
        else:
            self._send(AckMessage(seq))

    def _act(self, message: Any) -> None:
        actions: dict[type[Any], Callable[[Any], None]] = {
            Sync: lambda _: self._snapshot(),
            Led: self._light,
            LedsOff: lambda _: self.leds.clear(),
            BeepMessage: lambda beep: self.beeps.append(beep.ms),
        }
        actions[type(message)](message)

    def _light(self, led: Led) -> None:
        if led.colour is Colour.OFF:
            self.leds.pop((led.x_mm, led.y_mm), None)
        else:
            self.leds[(led.x_mm, led.y_mm)] = led.colour

    # --- playing steps --------------------------------------------------------------------

    def _play_due(self, now: float) -> None:
        while self._scripts and now >= self._step_at:
            try:
                step = next(self._scripts[0], None)
            except Exception:
                log.exception("emulator: the step source failed; dropping it")
                step = None
            if step is None:
                self._scripts.popleft()
                continue
            self._do(step, now)

    def _do(self, step: Step, now: float) -> None:
        players: dict[type[Any], Callable[[Any, float], None]] = {
            WaitStep: self._wait,
            PlaceStep: self._put,
            LiftStep: self._take_away,
            ButtonStep: lambda b, _: self._send(Button(b.button, b.action)),
            ErrorStep: lambda e, _: self._send(BoardErr(e.code, e.text)),
            FaultStep: self._fault,
        }
        players[type(step)](step, now)

    def _wait(self, step: WaitStep, now: float) -> None:
        self._step_at = now + step.seconds / self.speed

    def _put(self, step: PlaceStep, now: float) -> None:
        if max(step.tile.a, step.tile.b) > self.identity.max_pip:
            log.warning("emulator: cannot read %s (max pip %d)", step.tile, self.identity.max_pip)
            return
        self._physical[step.tile.tile] = step.tile
        self._moved_at[step.tile.tile] = now

    def _take_away(self, step: LiftStep, now: float) -> None:
        lying = self._physical.get(step.tile)
        if lying is None or (step.at is not None and not lying.same_place(step.at)):
            log.warning("emulator: cannot lift %s: it does not lie there", step.at or step.tile)
            return
        del self._physical[step.tile]
        self._moved_at[step.tile] = now

    def _settle(self, now: float) -> None:
        """Report tiles that have lain still (or stayed away) for the debounce time."""
        for tile, moved in list(self._moved_at.items()):
            if now - moved < self.debounce / self.speed:
                continue
            del self._moved_at[tile]
            lying, reported = self._physical.get(tile), self._reported.get(tile)
            if lying == reported:
                continue  # back where it was: nothing happened
            if reported is not None:
                del self._reported[tile]
                self._send(Lift(reported))
            if lying is not None:
                self._reported[tile] = lying
                self._send(Place(lying))
