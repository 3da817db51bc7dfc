"""What `BoardLink` reports through its one way out, `on_event(event)`.

Every value is frozen; `at` is `time.monotonic()` when the link saw it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from firmware_bridge.messages import (
    Button,
    Heartbeat,
    Hello,
    HostMessage,
    NakReason,
    TileAt,
)


@dataclass(frozen=True, slots=True)
class LinkUp:
    """The handshake succeeded on `port`: the board is `identity`."""

    identity: Hello
    port: str
    at: float


@dataclass(frozen=True, slots=True)
class LinkDown:
    """The link is down (port lost, silence, refusal); it keeps trying unless closed."""

    reason: str
    at: float


@dataclass(frozen=True, slots=True)
class BoardReset:
    """The board sent a HELLO the host did not ask for: it restarted."""

    identity: Hello
    at: float


@dataclass(frozen=True, slots=True)
class SyncStarted:
    """The host doubts its picture of the surface and asked for a snapshot."""

    reason: str
    at: float


@dataclass(frozen=True, slots=True)
class SurfaceReceived:
    """A complete, well-formed snapshot: these tiles and no others lie on the surface."""

    tiles: tuple[TileAt, ...]
    at: float


@dataclass(frozen=True, slots=True)
class TilePlaced:
    tile: TileAt
    at: float


@dataclass(frozen=True, slots=True)
class TileLifted:
    tile: TileAt
    at: float


@dataclass(frozen=True, slots=True)
class ButtonChanged:
    button: Button
    at: float


@dataclass(frozen=True, slots=True)
class HeartbeatReceived:
    heartbeat: Heartbeat
    at: float


@dataclass(frozen=True, slots=True)
class BoardFaulted:
    """The board reported `ERR,<code>,<text>`."""

    code: str
    text: str
    at: float


class CommandOutcome(StrEnum):
    ACKED = "acked"
    REFUSED = "refused"  # the board answered NAK
    LOST = "lost"  # no answer after every resend, link down, or board reset


@dataclass(frozen=True, slots=True)
class CommandFailed:
    """A host command the board refused (`nak` set) or never acknowledged."""

    seq: int
    message: HostMessage
    outcome: CommandOutcome
    reason: str
    at: float
    nak: NakReason | None = None


LinkEvent = (
    LinkUp
    | LinkDown
    | BoardReset
    | SyncStarted
    | SurfaceReceived
    | TilePlaced
    | TileLifted
    | ButtonChanged
    | HeartbeatReceived
    | BoardFaulted
    | CommandFailed
)
