"""Typed messages of protocol version 1: what one frame says, without its seq and CRC.

Each message is a small frozen value that knows its `TYPE` and, in `WIRE`, how each of
its fields is read from the wire, in order; `from_fields` reads them strictly and
`fields()` writes them back (the text of each field). Which class a type word maps to depends on
the direction: `HELLO` from the board carries six fields, from the host one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum
from functools import partial
from typing import Any, ClassVar, Final, Self, TypeVar

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


Read = Callable[[str], Any]  # one wire field to its value; FrameError naming the field


def _number(what: str, maximum: int | None = None) -> Read:
    return partial(uint, what=what, maximum=maximum)


def _text(what: str) -> Read:
    return partial(word, what=what)


def _one_of(kind: type[StrEnum], what: str) -> Read:
    return partial(_choice, kind, what=what)


class Message:
    """Base of every message: `TYPE`, and `WIRE`: how each of the fields that follow it
    on the wire is read, in the order of the dataclass's own fields."""

    __slots__ = ()
    TYPE: ClassVar[FrameType]
    WIRE: ClassVar[tuple[Read, ...]] = ()
    __match_args__: ClassVar[tuple[str, ...]] = ()  # the dataclass's fields, in order

    @classmethod
    def from_fields(cls, fields: Sequence[str]) -> Self:
        _count(fields, len(cls.WIRE), cls.TYPE)
        return cls(*[read(text) for read, text in zip(cls.WIRE, fields, strict=True)])

    def fields(self) -> tuple[str, ...]:
        """The wire text of each field (an enum's is its word)."""
        return tuple([str(getattr(self, name)) for name in self.__match_args__])


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
    WIRE: ClassVar[tuple[Read, ...]] = (
        _proto,
        _text("firmware"),
        _text("board id"),
        _number("width_mm"),
        _number("height_mm"),
        _number("max_pip", MAX_PIP),
    )
    proto: str
    firmware: str
    board_id: str
    width_mm: int
    height_mm: int
    max_pip: int

    @property
    def major(self) -> int:
        return int(self.proto.split(".", 1)[0])


@dataclass(frozen=True, slots=True)
class Snap(Message):
    TYPE: ClassVar[FrameType] = FrameType.SNAP
    WIRE: ClassVar[tuple[Read, ...]] = (_number("tile count"),)
    count: int


@dataclass(frozen=True, slots=True)
class _TileMessage(Message):
    """A tile's six fields (`TileAt`)."""

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
class End(Message):
    TYPE: ClassVar[FrameType] = FrameType.END


@dataclass(frozen=True, slots=True)
class Button(Message):
    TYPE: ClassVar[FrameType] = FrameType.BTN
    WIRE: ClassVar[tuple[Read, ...]] = (
        _number("button id", MAX_BUTTON),
        _one_of(ButtonAction, "button action"),
    )
    button: int
    action: ButtonAction


@dataclass(frozen=True, slots=True)
class Heartbeat(Message):
    TYPE: ClassVar[FrameType] = FrameType.HB
    WIRE: ClassVar[tuple[Read, ...]] = tuple(
        _number(name) for name in ("uptime_ms", "crc_errors", "dropped", "tiles")
    )
    uptime_ms: int
    crc_errors: int
    dropped: int
    tiles: int


@dataclass(frozen=True, slots=True)
class Ack(Message):
    TYPE: ClassVar[FrameType] = FrameType.ACK
    WIRE: ClassVar[tuple[Read, ...]] = (_number("host seq", SEQ_MODULO - 1),)
    host_seq: int


@dataclass(frozen=True, slots=True)
class Nak(Message):
    TYPE: ClassVar[FrameType] = FrameType.NAK
    WIRE: ClassVar[tuple[Read, ...]] = (
        _number("host seq", SEQ_MODULO - 1),
        _one_of(NakReason, "NAK reason"),
    )
    host_seq: int
    reason: NakReason


@dataclass(frozen=True, slots=True)
class BoardErr(Message):
    """`ERR`: a fault on the board."""

    TYPE: ClassVar[FrameType] = FrameType.ERR
    WIRE: ClassVar[tuple[Read, ...]] = (_text("error code"), str)  # the text may be empty
    code: str
    text: str


# --- host to board -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HostHello(Message):
    TYPE: ClassVar[FrameType] = FrameType.HELLO
    WIRE: ClassVar[tuple[Read, ...]] = (_proto,)
    proto: str = PROTO


@dataclass(frozen=True, slots=True)
class Sync(Message):
    TYPE: ClassVar[FrameType] = FrameType.SYNC


@dataclass(frozen=True, slots=True)
class Led(Message):
    """Light the surface under (x_mm, y_mm)."""

    TYPE: ClassVar[FrameType] = FrameType.LED
    WIRE: ClassVar[tuple[Read, ...]] = (
        _number("x_mm"),
        _number("y_mm"),
        _one_of(Colour, "LED colour"),
    )
    x_mm: int
    y_mm: int
    colour: Colour


@dataclass(frozen=True, slots=True)
class LedsOff(Message):
    """`LED,ALL,OFF`: every light off."""

    TYPE: ClassVar[FrameType] = FrameType.LED

    def fields(self) -> tuple[str, ...]:
        return ("ALL", "OFF")


def _led(fields: Sequence[str]) -> Led | LedsOff:
    if len(fields) == 0 or fields[0] != "ALL":
        return Led.from_fields(fields)
    _count(fields, 2, FrameType.LED)
    if fields[1] != "OFF":
        raise FrameError(f"LED,ALL only takes OFF, not {fields[1]!r}")
    return LedsOff()


@dataclass(frozen=True, slots=True)
class Beep(Message):
    TYPE: ClassVar[FrameType] = FrameType.BEEP
    WIRE: ClassVar[tuple[Read, ...]] = (_number("beep ms"),)
    ms: int


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
