"""The emulated board from the host's chair: raw bytes over pyserial, the spec's vectors."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import serial

from firmware_bridge.codec import Frame, crc16, encode
from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.messages import Colour, Hello, Led
from firmware_bridge.script import Fault
from tests.firmware_bridge.conftest import DOUBLE_SIX

GOLDEN = Path(__file__).parent / "golden"
BOARD = (GOLDEN / "board_to_host.bin").read_bytes().splitlines(keepends=True)
HOST = (GOLDEN / "host_to_board.bin").read_bytes().splitlines(keepends=True)
SPEC_BOARD = Hello("1", "fw-1.0.0", "B7", 900, 600, 6)


def line(body: str) -> bytes:
    return f"${body}*{crc16(body.encode()):04X}\n".encode()


@pytest.fixture
def wire(tmp_path: Path) -> Iterator[tuple[BoardEmulator, serial.Serial]]:
    board = BoardEmulator(identity=SPEC_BOARD, tiles=[DOUBLE_SIX], hb_interval=600)
    with board, serial.Serial(board.path, 115200, timeout=1) as port:
        port.reset_input_buffer()  # its power-up HELLO
        yield board, port


def answer(port: serial.Serial, n: int) -> list[bytes]:
    return [port.readline() for _ in range(n)]


def test_the_board_replays_the_spec_vectors(wire: tuple[BoardEmulator, serial.Serial]) -> None:
    board, port = wire
    port.write(HOST[0])  # HELLO -> HELLO and a snapshot: the spec's $0..$3
    assert answer(port, 4) == BOARD[:4]
    port.write(HOST[1])  # SYNC -> ACK, then the snapshot again
    assert answer(port, 4) == [
        line("4,ACK,1"),
        line("5,SNAP,1"),
        line("6,TILE,6,6,450,288,450,312"),
        line("7,END"),
    ]
    port.write(HOST[2])  # LED -> the spec's $8,ACK,2
    assert answer(port, 1) == BOARD[8:9]
    assert board.leds == {(486, 300): Colour.RED}
    board.inject(Fault.BUSY)
    port.write(HOST[3])  # BEEP refused: the spec's $9,NAK,3,BUSY
    assert answer(port, 1) == BOARD[9:10]
    assert board.beeps == []


def test_repeats_are_acked_but_done_once(wire: tuple[BoardEmulator, serial.Serial]) -> None:
    board, port = wire
    port.write(HOST[0])
    answer(port, 4)
    beep = line("1,BEEP,70")
    port.write(beep + beep)
    assert answer(port, 2) == [line("4,ACK,1"), line("5,ACK,1")]
    assert board.beeps == [70]


def test_what_the_board_refuses_and_what_it_ignores(
    wire: tuple[BoardEmulator, serial.Serial],
) -> None:
    board, port = wire
    port.write(HOST[0])
    answer(port, 4)
    port.write(line("1,FLASH,9"))
    assert answer(port, 1) == [line("4,NAK,1,UNKNOWN")]
    port.write(line("2,LED,ALL,RED"))
    assert answer(port, 1) == [line("5,NAK,2,BADARG")]
    port.write(line("3,BEEP,70").replace(b"BEEP", b"BEEQ"))  # bad CRC: no answer
    port.timeout = 0.3
    assert port.readline() == b""
    port.write(encode(Frame(4, Led(1, 2, Colour.BLUE))))
    assert answer(port, 1) == [line("6,ACK,4")]
    assert board.leds == {(1, 2): Colour.BLUE}
