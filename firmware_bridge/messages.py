"""Typed messages of protocol version 1: what one frame says, without its seq and CRC.

Each message is a small frozen value that knows its `TYPE` and its wire fields, and
parses them back strictly (`from_fields`). Which class a type word maps to depends on
the direction: `HELLO` from the board carries six fields, from the host one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import ClassVar, Final, Self, TypeVar

from engine.surface import SeenTile
from engine.tiles import MAX_PIP, Tile
from firmware_bridge.errors import FrameError

PROTO_MAJOR: Final = 1
PROTO: Final = "1"
MAX_BUTTON: Final = 15
SEQ_MODULO: Final = 65536

_UINT = re.compile(r"0|[1-9][0-9]*")
_PROTO = re.compile(r"(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*))*")
_WORD = re.compile(r"[A-Z][A-Z0-9_]*")
_E = TypeVar("_E", bound=StrEnum)


class FrameType(StrEnum):
    HELLO = "HELLO"
    SNAP = "SNAP"
    TILE = "TILE"
    END = "END"
    PLACE = "PLACE"
    LIFT = "LIFT"
    BTN = "BTN"
    HB = "HB"
    ACK = "ACK"
    NAK = "NAK"
    ERR = "ERR"
    SYNC = "SYNC"
    LED = "LED"
    BEEP = "BEEP"


class Direction(Enum):
    """Who sends a frame: it decides which messages a type word can be."""

    FROM_BOARD = "board"
    FROM_HOST = "host"


class ButtonAction(StrEnum):
    DOWN = "DOWN"
    UP = "UP"
    HOLD = "HOLD"


class NakReason(StrEnum):
    UNKNOWN = "UNKNOWN"
    BADARG = "BADARG"
    BUSY = "BUSY"


class Colour(StrEnum):
    OFF = "OFF"
    RED = "RED"
    GREEN = "GREEN"
    AMBER = "AMBER"
    BLUE = "BLUE"


def uint(text: str, what: str, maximum: int | None = None) -> int:
    """A field that is a decimal whole number (no sign, no leading zero)."""
    if _UINT.fullmatch(text) is None:
        raise FrameError(f"{what} must be a whole number, not {text!r}")
    value = int(text)
    if maximum is not None and value > maximum:
        raise FrameError(f"{what} must be at most {maximum}, not {value}")
    return value


def word(text: str, what: str) -> str:
    """A field that is free text: not empty (the framing already bans , * $ and controls)."""
    if not text:
        raise FrameError(f"{what} must not be empty")
    return text


def _count(fields: Sequence[str], n: int, type_: FrameType) -> None:
    if len(fields) != n:
        raise FrameError(f"{type_} takes {n} field(s), got {len(fields)}")


def _proto(text: str) -> str:
    """A protocol version field: `1`, `1.2`, ..."""
    if _PROTO.fullmatch(text) is None:
        raise FrameError(f"protocol version must look like 1 or 1.2, not {text!r}")
    return text


def _choice(kind: type[_E], text: str, what: str) -> _E:
    """A field that is one of an enum's words."""
    if text not in kind.__members__:
        raise FrameError(f"{what} must be one of {', '.join(kind)}, not {text!r}")
    return kind(text)


class Message:
    """Base of every message: `TYPE` and the fields that follow it on the wire."""

    __slots__ = ()
    TYPE: ClassVar[FrameType]

    def fields(self) -> tuple[str, ...]:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Unknown:
    """A frame whose type this side does not know: counted and ignored."""

    word: str
    args: tuple[str, ...] = ()

    def fields(self) -> tuple[str, ...]:
        return self.args


@dataclass(frozen=True, slots=True)
class TileAt:
    """A tile as the board reports it: half `a` centred at (xa, ya), half `b` at (xb, yb)."""

    a: int
    b: int
    xa: int
    ya: int
    xb: int
    yb: int

    @classmethod
    def from_fields(cls, fields: Sequence[str]) -> TileAt:
        a = uint(fields[0], "pips a", MAX_PIP)
        b = uint(fields[1], "pips b", MAX_PIP)
        names = ("xa", "ya", "xb", "yb")
        xa, ya, xb, yb = (uint(f, n) for f, n in zip(fields[2:], names, strict=True))
        return cls(a, b, xa, ya, xb, yb)

    def fields(self) -> tuple[str, ...]:
        return tuple(str(v) for v in (self.a, self.b, self.xa, self.ya, self.xb, self.yb))

    @property
    def tile(self) -> Tile:
        return Tile(self.a, self.b)

    def same_place(self, other: TileAt) -> bool:
        """The same tile at the same spot, whichever half is named first."""
        flipped = TileAt(other.b, other.a, other.xb, other.yb, other.xa, other.ya)
        return self in (other, flipped)

    def seen(self) -> SeenTile:
        return SeenTile(self.a, self.b, self.xa, self.ya, self.xb, self.yb)

    def __str__(self) -> str:
        return f"{self.a}-{self.b}@({self.xa},{self.ya})-({self.xb},{self.yb})"


# --- board to host -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello(Message):
    """The board's identity."""

    TYPE: ClassVar[FrameType] = FrameType.HELLO
    proto: str
    firmware: str
    board_id: str
    width_mm: int
    height_mm: int
    max_pip: int

    @classmethod
    def from_fields(cls, fields: Sequence[str]) -> Self:
        _count(fields, 6, cls.TYPE)
        return cls(
            _proto(fields[0]),
            word(fields[1], "firmware"),
            word(fields[2], "board id"),
            uint(fields[3], "width_mm"),
            uint(fields[4], "height_mm"),
            uint(fields[5], "max_pip", MAX_PIP),
        )

    @property
    def major(self) -> int:
        return int(self.proto.split(".", 1)[0])

    def fields(self) -> tuple[str, ...]:
        return (
            self.proto,
            self.firmware,
            self.board_id,
            str(self.width_mm),
            str(self.height_mm),
            str(self.max_pip),
        )


@dataclass(frozen=True, slots=True)
class Snap(Message):
    TYPE: ClassVar[FrameType] = FrameType.SNAP
    count: int

    @classmethod
    def from_fields(cls, fields: Sequence[str]) -> Self:
        _count(fields, 1, cls.TYPE)
        return cls(uint(fields[0], "tile count"))

    def fields(self) -> tuple[str, ...]:
        return (str(self.count),)


@dataclass(frozen=True, slots=True)
class _TileMessage(Message):
    tile: TileAt

    @classmethod
    def from_fields(cls, fields: Sequence[str]) -> Self:
        _count(fields, 6, cls.TYPE)
        return cls(TileAt.from_fields(fields))

    def fields(self) -> tuple[str, ...]:
        return self.tile.fields()


@dataclass(frozen=True, slots=True)
class SnapTile(_TileMessage):
    """`TILE`: one tile inside a snapshot."""

    TYPE: ClassVar[FrameType] = FrameType.TILE


@dataclass(frozen=True, slots=True)
class Place(_TileMessage):
    TYPE: ClassVar[FrameType] = FrameType.PLACE


@dataclass(frozen=True, slots=True)
class Lift(_TileMessage):
    TYPE: ClassVar[FrameType] = FrameType.LIFT


@dataclass(frozen=True, slots=True)
class _Bare(Message):
    """A message that is its type word alone."""

    @classmethod
    def from_fields(cls, fields: Sequence[str]) -> Self:
        _count(fields, 0, cls.TYPE)
        return cls()

    def fields(self) -> tuple[str, ...]:
        return ()


@dataclass(frozen=True, slots=True)
class End(_Bare):
    TYPE: ClassVar[FrameType] = FrameType.END


@dataclass(frozen=True, slots=True)
class Button(Message):
    TYPE: ClassVar[FrameType] = FrameType.BTN
    button: int
    action: ButtonAction

    @classmethod
    def from_fields(cls, fields: Sequence[str]) -> Self:
        _count(fields, 2, cls.TYPE)
        action = _choice(ButtonAction, fields[1], "button action")
        return cls(uint(fields[0], "button id", MAX_BUTTON), action)

    def fields(self) -> tuple[str, ...]:
        return (str(self.button), self.action.value)


@dataclass(frozen=True, slots=True)
class Heartbeat(Message):
    TYPE: ClassVar[FrameType] = FrameType.HB
    uptime_ms: int
    crc_errors: int
    dropped: int
    tiles: int

    @classmethod
    def from_fields(cls, fields: Sequence[str]) -> Self:
        _count(fields, 4, cls.TYPE)
        names = ("uptime_ms", "crc_errors", "dropped", "tiles")
        a, b, c, d = (uint(f, n) for f, n in zip(fields, names, strict=True))
        return cls(a, b, c, d)

    def fields(self) -> tuple[str, ...]:
        return tuple(str(v) for v in (self.uptime_ms, self.crc_errors, self.dropped, self.tiles))


@dataclass(frozen=True, slots=True)
class Ack(Message):
    TYPE: ClassVar[FrameType] = FrameType.ACK
    host_seq: int

    @classmethod
    def from_fields(cls, fields: Sequence[str]) -> Self:
        _count(fields, 1, cls.TYPE)
        return cls(uint(fields[0], "host seq", SEQ_MODULO - 1))

    def fields(self) -> tuple[str, ...]:
        return (str(self.host_seq),)


@dataclass(frozen=True, slots=True)
class Nak(Message):
    TYPE: ClassVar[FrameType] = FrameType.NAK
    host_seq: int
    reason: NakReason

    @classmethod
    def from_fields(cls, fields: Sequence[str]) -> Self:
        _count(fields, 2, cls.TYPE)
        reason = _choice(NakReason, fields[1], "NAK reason")
        return cls(uint(fields[0], "host seq", SEQ_MODULO - 1), reason)

    def fields(self) -> tuple[str, ...]:
        return (str(self.host_seq), self.reason.value)


@dataclass(frozen=True, slots=True)
class BoardErr(Message):
    """`ERR`: a fault on the board."""

    TYPE: ClassVar[FrameType] = FrameType.ERR
    code: str
    text: str

    @classmethod
    def from_fields(cls, fields: Sequence[str]) -> Self:
        _count(fields, 2, cls.TYPE)
        return cls(word(fields[0], "error code"), fields[1])

    def fields(self) -> tuple[str, ...]:
        return (self.code, self.text)


# --- host to board -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HostHello(Message):
    TYPE: ClassVar[FrameType] = FrameType.HELLO
    proto: str = PROTO

    @classmethod
    def from_fields(cls, fields: Sequence[str]) -> Self:
        _count(fields, 1, cls.TYPE)
        return cls(_proto(fields[0]))

    def fields(self) -> tuple[str, ...]:
        return (self.proto,)


@dataclass(frozen=True, slots=True)
class Sync(_Bare):
    TYPE: ClassVar[FrameType] = FrameType.SYNC


@dataclass(frozen=True, slots=True)
class Led(Message):
    """Light the surface under (x_mm, y_mm)."""

    TYPE: ClassVar[FrameType] = FrameType.LED
    x_mm: int
    y_mm: int
    colour: Colour

    def fields(self) -> tuple[str, ...]:
        return (str(self.x_mm), str(self.y_mm), self.colour.value)


@dataclass(frozen=True, slots=True)
class LedsOff(Message):
    """`LED,ALL,OFF`: every light off."""

    TYPE: ClassVar[FrameType] = FrameType.LED

    def fields(self) -> tuple[str, ...]:
        return ("ALL", "OFF")


def _led(fields: Sequence[str]) -> Led | LedsOff:
    every = len(fields) > 0 and fields[0] == "ALL"
    _count(fields, 2 if every else 3, FrameType.LED)
    if every:
        if fields[1] != "OFF":
            raise FrameError(f"LED,ALL only takes OFF, not {fields[1]!r}")
        return LedsOff()
    colour = _choice(Colour, fields[2], "LED colour")
    return Led(uint(fields[0], "x_mm"), uint(fields[1], "y_mm"), colour)


@dataclass(frozen=True, slots=True)
class Beep(Message):
    TYPE: ClassVar[FrameType] = FrameType.BEEP
    ms: int

    @classmethod
    def from_fields(cls, fields: Sequence[str]) -> Self:
        _count(fields, 1, cls.TYPE)
        return cls(uint(fields[0], "beep ms"))

    def fields(self) -> tuple[str, ...]:
        return (str(self.ms),)


BoardMessage = (
    Hello | Snap | SnapTile | End | Place | Lift | Button | Heartbeat | Ack | Nak | BoardErr
)
HostMessage = HostHello | Sync | Led | LedsOff | Beep

Parser = Callable[[Sequence[str]], Message]

PARSERS: Final[dict[Direction, dict[str, Parser]]] = {
    Direction.FROM_BOARD: {
        m.TYPE.value: m.from_fields
        for m in (Hello, Snap, SnapTile, End, Place, Lift, Button, Heartbeat, Ack, Nak, BoardErr)
    },
    Direction.FROM_HOST: {
        FrameType.HELLO.value: HostHello.from_fields,
        FrameType.SYNC.value: Sync.from_fields,
        FrameType.LED.value: _led,
        FrameType.BEEP.value: Beep.from_fields,
    },
}


def is_type_word(text: str) -> bool:
    """An upper-case word that can name a frame type."""
    return _WORD.fullmatch(text) is not None


def type_word(message: Message | Unknown) -> str:
    """The word a message is sent under (an `Unknown` keeps the word it came with)."""
    return message.word if isinstance(message, Unknown) else message.TYPE.value
