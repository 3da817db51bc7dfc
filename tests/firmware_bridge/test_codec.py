"""The codec against the spec's test vectors (captured bytes in golden/) and fuzzing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.codec import (
    MAX_FRAME,
    Decoder,
    Frame,
    FrameRejectedError,
    Rejected,
    RejectKind,
    crc16,
    encode,
    parse_frame,
)
from firmware_bridge.errors import FrameError
from firmware_bridge.messages import (
    Ack,
    Beep,
    BoardErr,
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

GOLDEN = Path(__file__).parent / "golden"
BOARD_BYTES = (GOLDEN / "board_to_host.bin").read_bytes()
HOST_BYTES = (GOLDEN / "host_to_board.bin").read_bytes()

DOUBLE_SIX = TileAt(6, 6, 450, 288, 450, 312)
SIX_FOUR = TileAt(6, 4, 474, 300, 498, 300)

BOARD_FRAMES = [
    Frame(0, Hello("1", "fw-1.0.0", "B7", 900, 600, 6)),
    Frame(1, Snap(1)),
    Frame(2, SnapTile(DOUBLE_SIX)),
    Frame(3, End()),
    Frame(4, Place(SIX_FOUR)),
    Frame(5, Heartbeat(5000, 0, 0, 2)),
    Frame(6, Button(0, ButtonAction.DOWN)),
    Frame(7, Lift(SIX_FOUR)),
    Frame(8, Ack(2)),
    Frame(9, Nak(3, NakReason.BUSY)),
]
HOST_FRAMES = [
    Frame(0, HostHello("1")),
    Frame(1, Sync()),
    Frame(2, Led(486, 300, Colour.RED)),
    Frame(3, Beep(200)),
]


def test_crc_check_value() -> None:
    assert crc16(b"123456789") == 0x29B1


def test_golden_bytes_are_the_spec_vectors(shared_dir: Path) -> None:
    spec = (shared_dir / "spec" / "board-protocol.md").read_text()
    vectors = spec.split("## Test vectors", 1)[1]
    host_line = next(line for line in vectors.splitlines() if "host:" in line)
    board = re.findall(r"^\s+(\$\S+)$", vectors, re.MULTILINE)
    host = host_line.split("host:", 1)[1].split()
    assert BOARD_BYTES.decode().splitlines() == board
    assert HOST_BYTES.decode().splitlines() == host


def test_board_vectors_encode_byte_exact() -> None:
    assert b"".join(encode(f) for f in BOARD_FRAMES) == BOARD_BYTES


def test_host_vectors_encode_byte_exact() -> None:
    assert b"".join(encode(f) for f in HOST_FRAMES) == HOST_BYTES


def test_board_vectors_decode_in_any_chunking() -> None:
    for size in (1, 2, 7, 64, len(BOARD_BYTES)):
        decoder = Decoder(Direction.FROM_BOARD)
        got: list[Frame | Rejected] = []
        for i in range(0, len(BOARD_BYTES), size):
            got += decoder.feed(BOARD_BYTES[i : i + size])
        assert got == BOARD_FRAMES
        assert decoder.counts["frames"] == 10


def test_host_vectors_decode() -> None:
    assert Decoder(Direction.FROM_HOST).feed(HOST_BYTES) == HOST_FRAMES


def test_str_is_the_wire_text_without_newline() -> None:
    assert str(BOARD_FRAMES[4]) == "$4,PLACE,6,4,474,300,498,300*0887"
    assert str(Frame(7, LedsOff())) == "$7,LED,ALL,OFF*" + f"{crc16(b'7,LED,ALL,OFF'):04X}"


def line(body: str, crc: int | None = None) -> bytes:
    value = crc16(body.encode()) if crc is None else crc
    return f"${body}*{value:04X}\n".encode()


def test_carriage_return_before_newline_is_tolerated() -> None:
    data = line("3,END").replace(b"\n", b"\r\n")
    assert Decoder(Direction.FROM_BOARD).frames(data) == [Frame(3, End())]


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        (line("3,END", crc=0x1234), RejectKind.BAD_CRC),
        (line("3,END").replace(b"*5B92", b"*5b92"), RejectKind.BAD_SYNTAX),
        (line("03,END"), RejectKind.BAD_SYNTAX),
        (line("65536,END"), RejectKind.BAD_SYNTAX),
        (line("3,end"), RejectKind.BAD_SYNTAX),
        (line("3,E\tND"), RejectKind.BAD_SYNTAX),
        (line("3,END,1"), RejectKind.BAD_FIELDS),
        (line("3,BTN,16,DOWN"), RejectKind.BAD_FIELDS),
        (line("3,BTN,1,PRESSED"), RejectKind.BAD_FIELDS),
        (line("3,TILE,19,6,1,1,1,1"), RejectKind.BAD_FIELDS),
        (line("3,TILE,6,6,1,-1,1,1"), RejectKind.BAD_FIELDS),
        (line("3,NAK,1,LATER"), RejectKind.BAD_FIELDS),
        (line("3,HELLO,v1,fw,B,1,1,6"), RejectKind.BAD_FIELDS),
        (b"$3,END*5B92\r\r\n", RejectKind.BAD_SYNTAX),
        (b"$3,END5B92\n", RejectKind.BAD_SYNTAX),
    ],
)
def test_bad_frames_are_rejected_and_counted(data: bytes, kind: RejectKind) -> None:
    decoder = Decoder(Direction.FROM_BOARD)
    assert [(r.kind if isinstance(r, Rejected) else r) for r in decoder.feed(data)] == [kind]
    assert decoder.counts[kind.value] == 1
    assert decoder.frames(BOARD_BYTES) == BOARD_FRAMES  # and it keeps reading


def test_unknown_type_is_a_frame_with_its_seq() -> None:
    decoder = Decoder(Direction.FROM_BOARD)
    assert decoder.feed(line("4,TEMP,21")) == [Frame(4, Unknown("TEMP", ("21",)))]
    assert decoder.counts["unknown"] == 1
    # SYNC is a host frame: from the board it is unknown.
    assert decoder.frames(line("5,SYNC")) == [Frame(5, Unknown("SYNC"))]


def test_bad_fields_keep_seq_and_type_for_a_nak() -> None:
    [rejected] = Decoder(Direction.FROM_HOST).feed(line("9,LED,ALL,RED"))
    assert isinstance(rejected, Rejected)
    assert (rejected.kind, rejected.seq, rejected.word) == (RejectKind.BAD_FIELDS, 9, "LED")


def test_host_led_all_off_and_hello() -> None:
    decoder = Decoder(Direction.FROM_HOST)
    assert decoder.frames(line("4,LED,ALL,OFF") + line("0,HELLO,1.3")) == [
        Frame(4, LedsOff()),
        Frame(0, HostHello("1.3")),
    ]


def test_length_limit_is_256_bytes_from_dollar_to_newline() -> None:
    def of_length(n: int) -> bytes:
        # ERR text padded so that `$...*XXXX\n` is exactly n bytes.
        head = "1,ERR,E1,"
        text = "x" * (n - len(head) - 7)
        return line(head + text)

    assert len(of_length(MAX_FRAME)) == MAX_FRAME
    assert len(Decoder(Direction.FROM_BOARD).frames(of_length(MAX_FRAME))) == 1
    decoder = Decoder(Direction.FROM_BOARD)
    [rejected] = decoder.feed(of_length(MAX_FRAME + 1))
    assert isinstance(rejected, Rejected) and rejected.kind is RejectKind.TOO_LONG
    # A `\r` is a byte between `$` and `\n` too.
    [rejected] = decoder.feed(of_length(MAX_FRAME).replace(b"\n", b"\r\n"))
    assert isinstance(rejected, Rejected) and rejected.kind is RejectKind.TOO_LONG
    with pytest.raises(FrameError, match="256"):
        encode(Frame(1, BoardErr("E1", "x" * 250)))


def test_a_new_dollar_cuts_a_frame_short() -> None:
    decoder = Decoder(Direction.FROM_BOARD)
    got = decoder.feed(b"$4,PLACE,6,4" + BOARD_BYTES)
    assert isinstance(got[0], Rejected) and got[0].kind is RejectKind.BAD_SYNTAX
    assert got[1:] == BOARD_FRAMES


def test_parse_frame_raises_with_kind() -> None:
    with pytest.raises(FrameRejectedError) as info:
        parse_frame(line("3,END", crc=0), Direction.FROM_BOARD)
    assert info.value.kind is RejectKind.BAD_CRC


@pytest.mark.parametrize(
    "frame",
    [
        Frame(1, BoardErr("E1", "a,b")),
        Frame(1, BoardErr("E1", "a*b")),
        Frame(1, BoardErr("E1", "a\nb")),
        Frame(65536, Sync()),
        Frame(1, Unknown("lower")),
    ],
)
def test_encode_refuses_what_cannot_be_framed(frame: Frame) -> None:
    with pytest.raises(FrameError):
        encode(frame)


# --- fuzzing ------------------------------------------------------------------------

tile_at = st.builds(
    TileAt,
    *(st.integers(0, 18) for _ in range(2)),
    *(st.integers(0, 5000) for _ in range(4)),
)
board_messages = st.one_of(
    st.builds(Snap, st.integers(0, 200)),
    st.builds(SnapTile, tile_at),
    st.builds(Place, tile_at),
    st.builds(Lift, tile_at),
    st.just(End()),
    st.builds(Button, st.integers(0, 15), st.sampled_from(ButtonAction)),
    st.builds(Heartbeat, *(st.integers(0, 2**40) for _ in range(4))),
    st.builds(Ack, st.integers(0, 65535)),
    st.builds(Nak, st.integers(0, 65535), st.sampled_from(NakReason)),
    st.builds(BoardErr, st.text("ABC123", min_size=1, max_size=8), st.text("ab c", max_size=30)),
)
frames = st.builds(Frame, st.integers(0, 65535), board_messages)
garbage = st.binary(max_size=80)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600))
def test_random_bytes_never_raise_and_yield_only_crc_checked_frames(data: bytes) -> None:
    decoder = Decoder(Direction.FROM_BOARD)
    for item in decoder.feed(data):
        if isinstance(item, Frame):
            # Every frame handed out is the exact text of a line with a good CRC.
            assert encode(item).rstrip(b"\n") in data


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(garbage, frames), max_size=12), garbage, st.integers(1, 50))
def test_frames_between_garbage_are_all_recovered(
    pieces: list[tuple[bytes, Frame]], tail: bytes, chunk: int
) -> None:
    stream = b""
    for junk, frame in pieces:
        # Garbage may hold `$` and `\n`; a line break before the frame ends it.
        stream += junk + b"\n" + encode(frame)
    stream += tail
    decoder = Decoder(Direction.FROM_BOARD)
    got: list[Frame] = []
    for i in range(0, len(stream), chunk):
        got += decoder.frames(stream[i : i + chunk])
    recovered = [f for f in got if f in {frame for _, frame in pieces}]
    assert recovered == [frame for _, frame in pieces]


@settings(max_examples=200, deadline=None)
@given(frames, st.data())
def test_truncated_or_corrupted_frames_are_never_accepted(
    frame: Frame, data: st.DataObject
) -> None:
    raw = encode(frame)
    cut = data.draw(st.integers(1, len(raw) - 2))
    flip = data.draw(st.integers(1, len(raw) - 2))
    bit = data.draw(st.integers(0, 6))
    corrupted = bytearray(raw)
    corrupted[flip] ^= 1 << bit
    decoder = Decoder(Direction.FROM_BOARD)
    assert decoder.frames(raw[:cut] + b"\n") == []
    # CRC-16 catches every single-bit error.
    assert decoder.frames(bytes(corrupted)) == []
    assert decoder.frames(raw) == [frame]
