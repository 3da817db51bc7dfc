"""The host's side of protocol version 1 as a state machine: no port, no thread, no clock.

`BoardLink` feeds it decoded frames, rejects and the time; it answers with bytes to
write and `LinkEvent` values (`take_output()`). It owns:

- the handshake (HELLO; refuse another major protocol or too few pips),
- sequence numbers both ways (act on a seq once, drop repeats, notice jumps; a HELLO
  restarts the counters),
- acks and resends of host frames (200 ms, at most 3 resends),
- snapshot assembly (SNAP, n x TILE, END; only HB may come between),
- SYNC on any doubt: a seq jump, a bad frame inside a snapshot, a heartbeat whose
  tile count differs from the surface believed, a HELLO it did not ask for, a PLACE or
  LIFT that does not fit, a snapshot that does not come.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Callable
from enum import Enum, StrEnum
from typing import Any

from firmware_bridge.codec import Frame, Rejected, encode
from firmware_bridge.events import (
    BoardFaulted,
    BoardReset,
    ButtonChanged,
    CommandFailed,
    CommandOutcome,
    HeartbeatReceived,
    LinkEvent,
    LinkUp,
    SurfaceReceived,
    SyncStarted,
    TileLifted,
    TilePlaced,
)
from firmware_bridge.messages import (
    PROTO_MAJOR,
    SEQ_MODULO,
    Ack,
    BoardErr,
    Button,
    End,
    Heartbeat,
    Hello,
    HostHello,
    HostMessage,
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
from firmware_bridge.surface import BoardSurface

log = logging.getLogger(__name__)

STALE_WINDOW = 64  # a seq this far behind the last one is a late repeat, further a jump
SET_NAMES = {6: "double-six", 9: "double-nine", 12: "double-twelve"}


class Phase(StrEnum):
    CLOSED = "closed"
    HANDSHAKE = "handshake"
    ONLINE = "online"
    REFUSED = "refused"
    FAILED = "failed"


class SeqVerdict(Enum):
    NEXT = "next"
    REPEAT = "repeat"
    JUMP = "jump"


def judge_seq(last: int | None, seq: int) -> SeqVerdict:
    """How `seq` follows `last` (None: anything is a fresh start)."""
    if last is None:
        return SeqVerdict.NEXT
    ahead = (seq - last) % SEQ_MODULO
    if ahead == 1:
        return SeqVerdict.NEXT
    if ahead == 0 or SEQ_MODULO - ahead <= STALE_WINDOW:
        return SeqVerdict.REPEAT
    return SeqVerdict.JUMP


class Command:
    """A host frame on its way: `wait()` for the board's answer from any thread."""

    def __init__(self, seq: int, message: HostMessage, data: bytes, now: float, internal: bool):
        self.seq = seq
        self.message = message
        self.data = data
        self.sent_at = now
        self.resends = 0
        self.internal = internal
        self.outcome: CommandOutcome | None = None
        self.reason = ""
        self.nak: NakReason | None = None
        self._done = threading.Event()

    def resolve(self, outcome: CommandOutcome, reason: str, nak: NakReason | None = None) -> None:
        self.outcome, self.reason, self.nak = outcome, reason, nak
        self._done.set()

    def wait(self, timeout: float | None = None) -> CommandOutcome | None:
        """The outcome, or None if there is none yet after `timeout` seconds."""
        self._done.wait(timeout)
        return self.outcome

    def __repr__(self) -> str:
        return f"<Command {self.seq} {self.message} {self.outcome or 'pending'}>"


def refusal(hello: Hello, needed_max_pip: int) -> str | None:
    """Why a board cannot be used, in words that say what to do; None if it can."""
    if hello.major != PROTO_MAJOR:
        return (
            f"board {hello.board_id} speaks protocol version {hello.proto} but this service "
            f"speaks version {PROTO_MAJOR}: flash a firmware for protocol {PROTO_MAJOR} "
            "or update the service"
        )
    if hello.max_pip < needed_max_pip:
        wanted = SET_NAMES.get(needed_max_pip, f"{needed_max_pip}-pip")
        return (
            f"board {hello.board_id} reads tiles up to {hello.max_pip} pips but the "
            f"ruleset's {wanted} set needs {needed_max_pip}: use a board that reads that "
            "set or a ruleset with a smaller set"
        )
    return None


class Session:
    """One connection's protocol state. Not thread-safe: the link holds a lock around it."""

    def __init__(
        self,
        needed_max_pip: int,
        resend_after: float = 0.2,
        max_resends: int = 3,
        snapshot_timeout: float = 1.0,
    ) -> None:
        self.needed_max_pip = needed_max_pip
        self.resend_after = resend_after
        self.max_resends = max_resends
        self.snapshot_timeout = snapshot_timeout
        self.counts: Counter[str] = Counter()
        self.phase = Phase.CLOSED
        self.port = ""
        self.identity: Hello | None = None
        self.failure: str | None = None
        self.surface = BoardSurface()
        self._writes: list[bytes] = []
        self._events: list[LinkEvent] = []
        self._pending: dict[int, Command] = {}
        self._reset_state()
        self._handlers: dict[type[Any], Callable[[Any, float], None]] = {
            Snap: self._on_snap,
            SnapTile: self._on_tile,
            End: self._on_end,
            Place: self._on_place,
            Lift: self._on_lift,
            Button: self._on_button,
            Heartbeat: self._on_heartbeat,
            Ack: self._on_ack,
            Nak: self._on_nak,
            BoardErr: self._on_err,
            Unknown: self._on_unknown,
        }

    def _reset_state(self) -> None:
        self._next_seq = 0
        self._last_rx: int | None = None
        self._last_was_hello = False
        self._hellos_out = 0  # host HELLOs sent (or resent) and not answered yet
        self._hellos_until = 0.0  # after this, an answer to them is not expected any more
        self._snap: list[TileAt] | None = None
        self._snap_expected = 0
        self._snap_broken: str | None = None
        self._sync_wanted = False
        self._sync_deadline = 0.0
        self._consistent = False

    # --- driven by the link ----------------------------------------------------------

    def open(self, port: str, now: float) -> None:
        """A port was opened: say HELLO."""
        self._drop_pending("link reopened", now)
        self._reset_state()
        self.port, self.phase, self.failure, self.identity = port, Phase.HANDSHAKE, None, None
        self.send(HostHello(), now, internal=True)

    def close(self, reason: str, now: float) -> None:
        self._drop_pending(f"link down: {reason}", now)
        if self.phase in (Phase.HANDSHAKE, Phase.ONLINE):
            self.phase = Phase.CLOSED
        self._consistent = False

    def send(self, message: HostMessage, now: float, internal: bool = False) -> Command:
        """Queue a host frame; a command that cannot be sent now comes back LOST."""
        seq = self._next_seq
        cmd = Command(seq, message, encode(Frame(seq, message)), now, internal)
        if self.phase is not Phase.ONLINE and not internal:
            cmd.resolve(CommandOutcome.LOST, f"board link is {self.phase}: try again once online")
            return cmd
        self._next_seq = (seq + 1) % SEQ_MODULO
        self._pending[seq] = cmd
        self._writes.append(cmd.data)
        self.counts["sent"] += 1
        if isinstance(message, HostHello):
            self._hello_sent(now)
        return cmd

    def _hello_sent(self, now: float) -> None:
        # The board answers every HELLO it hears: a resend can earn a second answer.
        self._hellos_out += 1
        self._hellos_until = now + self.resend_after * (self.max_resends + 1)
        self._hellos_until += self.snapshot_timeout

    def receive(self, item: Frame | Rejected, now: float) -> None:
        if isinstance(item, Rejected):
            self._on_reject(item, now)
            return
        message = item.message
        if isinstance(message, Hello):
            self._on_hello(item.seq, message, now)
            return
        if self.phase is not Phase.ONLINE:
            if isinstance(message, Ack | Nak):
                self._handlers[type(message)](message, now)
            else:
                self.counts["ignored_before_hello"] += 1
            return
        if not self._accept_seq(item.seq, now):
            return
        self._handlers[type(message)](message, now)

    def tick(self, now: float) -> None:
        """Resend what is unacknowledged, chase a snapshot that does not come."""
        for cmd in list(self._pending.values()):
            if now - cmd.sent_at < self.resend_after:
                continue
            if cmd.resends < self.max_resends:
                cmd.resends += 1
                cmd.sent_at = now
                self.counts["resends"] += 1
                self._writes.append(cmd.data)
                if isinstance(cmd.message, HostHello):
                    self._hello_sent(now)
                continue
            del self._pending[cmd.seq]
            self.counts["commands_lost"] += 1
            self._fail(cmd, CommandOutcome.LOST, f"no answer after {cmd.resends} resends", now)
            if isinstance(cmd.message, HostHello) and self.phase is Phase.HANDSHAKE:
                self.phase = Phase.FAILED
                self.failure = f"no answer to HELLO on {self.port} after {cmd.resends} resends"
        if self.phase is Phase.ONLINE and self._sync_wanted and now >= self._sync_deadline:
            self.counts["snapshot_timeouts"] += 1
            if self._snap is not None:
                self._snap = None
            self.request_sync(f"no complete snapshot within {self.snapshot_timeout:g} s", now)

    def take_output(self) -> tuple[list[bytes], list[LinkEvent]]:
        writes, events = self._writes, self._events
        self._writes, self._events = [], []
        return writes, events

    @property
    def consistent(self) -> bool:
        """The surface believed is whole: handshake done, no snapshot awaited."""
        return self.phase is Phase.ONLINE and self._consistent and not self._sync_wanted

    def status(self) -> dict[str, object]:
        return {
            "phase": self.phase.value,
            "port": self.port,
            "board": None if self.identity is None else self.identity.board_id,
            "firmware": None if self.identity is None else self.identity.firmware,
            "proto": None if self.identity is None else self.identity.proto,
            "tiles": len(self.surface),
            "consistent": self.consistent,
            "pending_commands": len(self._pending),
            "failure": self.failure,
            **{f"count_{k}": v for k, v in sorted(self.counts.items())},
        }

    # --- receiving -------------------------------------------------------------------

    def _accept_seq(self, seq: int, now: float) -> bool:
        verdict = judge_seq(self._last_rx, seq)
        if verdict is SeqVerdict.REPEAT:
            self.counts["repeats"] += 1
            log.debug("board: dropped repeated seq %d", seq)
            return False
        last, self._last_rx, self._last_was_hello = self._last_rx, seq, False
        if verdict is SeqVerdict.JUMP and last is not None:
            self.counts["seq_jumps"] += 1
            self.counts["frames_lost"] += (seq - last - 1) % SEQ_MODULO
            self._doubt(f"seq jumped from {last} to {seq}", now)
        return True

    def _on_hello(self, seq: int, hello: Hello, now: float) -> None:
        if self._last_was_hello and seq == self._last_rx and hello == self.identity:
            self.counts["repeats"] += 1
            return
        self._last_rx, self._last_was_hello = seq, True
        why = refusal(hello, self.needed_max_pip)
        if why is not None:
            self.phase, self.failure, self.identity = Phase.REFUSED, why, hello
            self.counts["refusals"] += 1
            return
        asked = self._hellos_out > 0 and now <= self._hellos_until
        self._hellos_out -= 1 if asked else 0
        self.identity = hello
        self._snap, self._consistent = None, False
        if asked and self.phase is Phase.ONLINE:
            # The answer to a resent HELLO: a snapshot follows it again.
            self.counts["extra_hello_answers"] += 1
            self._sync_wanted, self._sync_deadline = True, now + self.snapshot_timeout
            return
        if asked:
            for cmd in [c for c in self._pending.values() if isinstance(c.message, HostHello)]:
                del self._pending[cmd.seq]
                cmd.resolve(CommandOutcome.ACKED, "answered by HELLO")
            self.phase = Phase.ONLINE
            self._events.append(LinkUp(hello, self.port, now))
            # The board follows its HELLO with a snapshot: wait for it.
            self._sync_wanted, self._sync_deadline = True, now + self.snapshot_timeout
            return
        self.counts["board_resets"] += 1
        self._drop_pending("the board restarted", now)
        self._next_seq = 0
        self._events.append(BoardReset(hello, now))
        self._sync_wanted = False
        self._doubt("the board restarted (HELLO it was not asked for)", now)

    def _on_reject(self, rejected: Rejected, now: float) -> None:
        self.counts[f"rejected_{rejected.kind.value}"] += 1
        log.debug("board: dropped frame (%s): %r", rejected.reason, rejected.raw[:80])
        if self.phase is Phase.ONLINE and self._snap is not None:
            self._doubt(f"bad frame inside a snapshot ({rejected.reason})", now)

    def _on_snap(self, snap: Snap, now: float) -> None:
        if self._snap is not None and self._snap_broken is None:
            self._doubt("SNAP before the previous snapshot's END", now)
        self._snap, self._snap_expected, self._snap_broken = [], snap.count, None
        self._sync_deadline = now + self.snapshot_timeout

    def _on_tile(self, tile: SnapTile, now: float) -> None:
        if self._snap is None:
            self._doubt("TILE outside a snapshot", now)
            return
        self._snap.append(tile.tile)
        self._sync_deadline = now + self.snapshot_timeout

    def _on_end(self, _end: End, now: float) -> None:
        snap, broken, self._snap = self._snap, self._snap_broken, None
        if snap is None:
            self._doubt("END outside a snapshot", now)
            return
        if broken is not None:
            self.counts["snapshots_spoilt"] += 1
            return  # a SYNC was sent when it broke
        if len(snap) != self._snap_expected:
            self.request_sync(
                f"snapshot announced {self._snap_expected} tiles, held {len(snap)}", now
            )
            return
        doubt = self.surface.replace(snap)
        if doubt is not None:
            self.request_sync(doubt, now)
            return
        self.counts["snapshots"] += 1
        self._consistent, self._sync_wanted = True, False
        self._events.append(SurfaceReceived(self.surface.tiles(), now))

    def _inside_snapshot(self, what: str, now: float) -> bool:
        if self._snap is None:
            return False
        self._doubt(f"{what} inside a snapshot", now)
        return True

    def _on_place(self, place: Place, now: float) -> None:
        if self._inside_snapshot("PLACE", now):
            return
        doubt = self.surface.place(place.tile)
        if doubt is not None:
            self._doubt(doubt, now)  # SyncStarted goes out before the change
        self._events.append(TilePlaced(place.tile, now))

    def _on_lift(self, lift: Lift, now: float) -> None:
        if self._inside_snapshot("LIFT", now):
            return
        doubt = self.surface.lift(lift.tile)
        if doubt is not None:
            self._doubt(doubt, now)
        self._events.append(TileLifted(lift.tile, now))

    def _on_button(self, button: Button, now: float) -> None:
        self._inside_snapshot("BTN", now)
        self._events.append(ButtonChanged(button, now))

    def _on_heartbeat(self, hb: Heartbeat, now: float) -> None:
        self._events.append(HeartbeatReceived(hb, now))
        if self.consistent and self._snap is None and hb.tiles != len(self.surface):
            self._doubt(
                f"heartbeat counts {hb.tiles} tiles, host believes {len(self.surface)}", now
            )

    def _on_ack(self, ack: Ack, now: float) -> None:
        self._inside_snapshot("ACK", now)
        cmd = self._pending.pop(ack.host_seq, None)
        if cmd is None:
            self.counts["stray_answers"] += 1
            return
        cmd.resolve(CommandOutcome.ACKED, "acknowledged")

    def _on_nak(self, nak: Nak, now: float) -> None:
        self._inside_snapshot("NAK", now)
        cmd = self._pending.pop(nak.host_seq, None)
        if cmd is None:
            self.counts["stray_answers"] += 1
            return
        self.counts["naks"] += 1
        self._fail(cmd, CommandOutcome.REFUSED, f"board answered NAK {nak.reason}", now, nak.reason)

    def _on_err(self, err: BoardErr, now: float) -> None:
        self._inside_snapshot("ERR", now)
        log.warning("board %s reports fault %s: %s", self.port, err.code, err.text)
        self._events.append(BoardFaulted(err.code, err.text, now))

    def _on_unknown(self, unknown: Unknown, now: float) -> None:
        self.counts["unknown_types"] += 1
        log.debug("board: ignored frame of unknown type %s", unknown.word)

    # --- staying in step -------------------------------------------------------------

    def _doubt(self, reason: str, now: float) -> None:
        """Something does not fit: ask for a snapshot unless one is already coming."""
        self.counts["doubts"] += 1
        self._consistent = False
        if self._snap is not None:
            if self._snap_broken is not None:
                return
            self._snap_broken = reason
        elif self._sync_wanted:
            log.debug("board: %s (a snapshot is already on its way)", reason)
            return
        self.request_sync(reason, now)

    def request_sync(self, reason: str, now: float) -> None:
        log.info("board %s: %s; asking for a snapshot", self.port, reason)
        self.counts["syncs"] += 1
        self._consistent = False
        self._sync_wanted, self._sync_deadline = True, now + self.snapshot_timeout
        self._events.append(SyncStarted(reason, now))
        self.send(Sync(), now, internal=True)

    def _fail(
        self,
        cmd: Command,
        outcome: CommandOutcome,
        reason: str,
        now: float,
        nak: NakReason | None = None,
    ) -> None:
        cmd.resolve(outcome, reason, nak)
        if not cmd.internal:
            log.warning(
                "board %s: %s (seq %d) %s: %s", self.port, cmd.message, cmd.seq, outcome, reason
            )
            self._events.append(CommandFailed(cmd.seq, cmd.message, outcome, reason, now, nak))

    def _drop_pending(self, reason: str, now: float) -> None:
        pending, self._pending = list(self._pending.values()), {}
        for cmd in pending:
            self._fail(cmd, CommandOutcome.LOST, reason, now)
