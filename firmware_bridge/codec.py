"""Pure framing of protocol version 1: bytes <-> `Frame`, CRC-16/CCITT-FALSE.

    $<seq>,<TYPE>[,<field>...]*<CRC>\\n

`encode` writes one frame; `parse_frame` reads one line strictly; `Decoder` is fed the
byte stream in any chunks and gives back every frame it holds, plus a `Rejected` value
for each frame it had to drop (too long, bad CRC, bad syntax, bad fields), counting
each kind. It skips bytes up to the next `$` and never stops because of one bad frame.
No I/O, no clocks, no threads.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from firmware_bridge.errors import FrameError
from firmware_bridge.messages import (
    PARSERS,
    SEQ_MODULO,
    Direction,
    FrameType,
    Message,
    Unknown,
    is_type_word,
    type_word,
    uint,
)

MAX_FRAME: Final = 256  # bytes from `$` to `\n`, both included (a `\r` counts too)
_FORBIDDEN_IN_FIELDS: Final = frozenset(",*$")


def _crc_table() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return tuple(table)


_TABLE: Final = _crc_table()


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, not reflected, xorout 0."""
    crc = 0xFFFF
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _TABLE[(crc >> 8) ^ byte]
    return crc


class RejectKind(StrEnum):
    TOO_LONG = "too_long"
    BAD_CRC = "bad_crc"
    BAD_SYNTAX = "bad_syntax"  # framing, seq or type word that does not parse
    BAD_FIELDS = "bad_fields"  # CRC passed, known type, fields do not parse


class FrameRejectedError(FrameError):
    """`parse_frame` could not accept a line; `kind` says why, `seq`/`word` if known."""

    def __init__(
        self, kind: RejectKind, reason: str, seq: int | None = None, word: str | None = None
    ) -> None:
        super().__init__(reason)
        self.kind = kind
        self.seq = seq
        self.word = word


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame: its sequence number and what it says. `str()` is the wire text."""

    seq: int
    message: Message | Unknown

    @property
    def word(self) -> str:
        return type_word(self.message)

    @property
    def type(self) -> FrameType | None:
        """The frame's type, or None for a type this side does not know."""
        return None if isinstance(self.message, Unknown) else self.message.TYPE

    def body(self) -> str:
        return ",".join((str(self.seq), self.word, *self.message.fields()))

    def __str__(self) -> str:
        body = self.body()
        return f"${body}*{crc16(body.encode('ascii')):04X}"


@dataclass(frozen=True, slots=True)
class Rejected:
    """A frame the decoder dropped, and why. `raw` is the line (cut to MAX_FRAME bytes)."""

    kind: RejectKind
    reason: str
    raw: bytes
    seq: int | None = None
    word: str | None = None


def encode(frame: Frame) -> bytes:
    """The bytes of one frame, `\\n` included. Refuses what a receiver would drop."""
    if not 0 <= frame.seq < SEQ_MODULO:
        raise FrameError(f"seq must be 0..{SEQ_MODULO - 1}, not {frame.seq}")
    if not is_type_word(frame.word):
        raise FrameError(f"type must be an upper-case word, not {frame.word!r}")
    for field in frame.message.fields():
        bad = [c for c in field if c in _FORBIDDEN_IN_FIELDS or not " " <= c <= "~"]
        if bad:
            raise FrameError(f"field {field!r} holds {bad[0]!r}, which a frame cannot carry")
    data = (str(frame) + "\n").encode("ascii")
    if len(data) > MAX_FRAME:
        raise FrameError(f"frame is {len(data)} bytes, more than the {MAX_FRAME} allowed")
    return data


def parse_frame(line: bytes, direction: Direction) -> Frame:
    """One frame from `$...*CRC` with or without its `\\r\\n`; raises `FrameRejectedError`."""
    if len(line) + (0 if line.endswith(b"\n") else 1) > MAX_FRAME:
        raise FrameRejectedError(RejectKind.TOO_LONG, f"frame longer than {MAX_FRAME} bytes")
    if line.endswith(b"\n"):
        line = line[:-1]
        if line.endswith(b"\r"):
            line = line[:-1]
    star = line.rfind(b"*")
    if not line.startswith(b"$") or star < 0 or len(line) - star != 5:
        raise FrameRejectedError(RejectKind.BAD_SYNTAX, "not framed as $...*XXXX")
    body, crc_text = line[1:star], line[star + 1 :]
    if any(c not in b"0123456789ABCDEF" for c in crc_text):
        raise FrameRejectedError(RejectKind.BAD_SYNTAX, "CRC is not 4 upper-case hex digits")
    if int(crc_text, 16) != crc16(body):
        raise FrameRejectedError(RejectKind.BAD_CRC, f"CRC {crc_text.decode()} does not match")
    if any(not 0x20 <= c <= 0x7E or c in b"*$" for c in body):
        raise FrameRejectedError(RejectKind.BAD_SYNTAX, "control, non-ASCII, * or $ inside a frame")
    seq_text, _, rest = body.decode("ascii").partition(",")
    try:
        seq = uint(seq_text, "seq", SEQ_MODULO - 1)
    except FrameError as exc:
        raise FrameRejectedError(RejectKind.BAD_SYNTAX, str(exc)) from exc
    word, *fields = rest.split(",")
    if not is_type_word(word):
        reason = f"type {word!r} is not an upper-case word"
        raise FrameRejectedError(RejectKind.BAD_SYNTAX, reason, seq)
    parser = PARSERS[direction].get(word)
    if parser is None:
        return Frame(seq, Unknown(word, tuple(fields)))
    try:
        return Frame(seq, parser(fields))
    except FrameError as exc:
        raise FrameRejectedError(RejectKind.BAD_FIELDS, f"{word}: {exc}", seq, word) from exc


class Decoder:
    """Incremental: `feed(chunk)` returns the frames and rejects completed by that chunk.

    `counts` holds `frames`, `unknown` (frames of an unknown type, also in `frames`),
    `skipped_bytes` (outside any frame) and one entry per `RejectKind`.
    """

    def __init__(self, direction: Direction) -> None:
        self.direction = direction
        self.counts: Counter[str] = Counter()
        self._line: bytearray | None = None  # None: hunting for `$`

    def feed(self, data: bytes) -> list[Frame | Rejected]:
        out: list[Frame | Rejected] = []
        pos, size = 0, len(data)
        while pos < size:
            if self._line is None:
                start = data.find(b"$", pos)
                if start < 0:
                    self.counts["skipped_bytes"] += size - pos
                    return out
                self.counts["skipped_bytes"] += start - pos
                self._line, pos = bytearray(b"$"), start + 1
                continue
            pos = self._extend(data, pos, out)
        return out

    def _extend(self, data: bytes, pos: int, out: list[Frame | Rejected]) -> int:
        """Add bytes to the current line up to its end, a new `$` or the chunk's end."""
        assert self._line is not None
        nl, dollar = data.find(b"\n", pos), data.find(b"$", pos)
        room = MAX_FRAME - len(self._line)  # bytes the line may still take, `\n` included
        if dollar >= 0 and (nl < 0 or dollar < nl) and dollar - pos < room:
            self._line += data[pos:dollar]
            out.append(self._reject(RejectKind.BAD_SYNTAX, "frame cut short by a new $"))
            return dollar  # the new `$` starts the next line
        if nl >= 0 and nl - pos < room:
            self._line += data[pos : nl + 1]
            out.append(self._finish())
            return nl + 1
        if len(data) - pos < room:
            self._line += data[pos:]
            return len(data)
        self._line += data[pos : pos + room]
        out.append(self._reject(RejectKind.TOO_LONG, f"no end of line within {MAX_FRAME} bytes"))
        return pos + room  # hunt for the next `$` from here

    def _finish(self) -> Frame | Rejected:
        assert self._line is not None
        line, self._line = bytes(self._line), None
        try:
            frame = parse_frame(line, self.direction)
        except FrameRejectedError as exc:
            self.counts[exc.kind.value] += 1
            return Rejected(exc.kind, str(exc), line, exc.seq, exc.word)
        self.counts["frames"] += 1
        if isinstance(frame.message, Unknown):
            self.counts["unknown"] += 1
        return frame

    def _reject(self, kind: RejectKind, reason: str) -> Rejected:
        assert self._line is not None
        line, self._line = bytes(self._line), None
        self.counts[kind.value] += 1
        return Rejected(kind, reason, line)

    def frames(self, data: bytes) -> list[Frame]:
        """`feed`, keeping only the frames."""
        return [item for item in self.feed(data) if isinstance(item, Frame)]
