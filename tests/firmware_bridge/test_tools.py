"""Finding the port, the emulator's script format, and the `board-emulator` command."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from serial.tools.list_ports_common import ListPortInfo

from engine.surface import Snapshot
from engine.tiles import Tile
from firmware_bridge.adapter import BoardAdapter, BoardIdentity, ButtonEvent
from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.errors import BoardNotFoundError, ScriptError
from firmware_bridge.link import LinkSettings
from firmware_bridge.messages import ButtonAction, TileAt
from firmware_bridge.ports import find_port, usb_matches
from firmware_bridge.script import (
    ButtonStep,
    Fault,
    FaultStep,
    LiftStep,
    PlaceStep,
    Step,
    WaitStep,
    load_script,
    steps_from_lines,
)
from tests.firmware_bridge.conftest import DOUBLE_SIX, FAST, SIX_FOUR, Recorder, tiles_of

SCRIPTS = Path(__file__).parent / "scripts"
FOUR_THREE = TileAt(4, 3, 522, 300, 546, 300)


def port(device: str, vid: int, pid: int, serial: str) -> ListPortInfo:
    info = ListPortInfo(device)
    info.vid, info.pid, info.serial_number = vid, pid, serial
    return info


def test_usb_ids_pick_the_board_whatever_its_tty_name() -> None:
    ports = [
        port("/dev/ttyACM1", 0x2E8A, 0x000A, "E66"),
        port("/dev/ttyUSB0", 0x0403, 0x6001, "FT1"),
        port("/dev/ttyACM0", 0x2E8A, 0x000A, "E67"),
    ]
    assert usb_matches(ports, 0x2E8A, 0x000A) == ["/dev/ttyACM0", "/dev/ttyACM1"]
    assert usb_matches(ports, 0x2E8A, 0x000A, "E66") == ["/dev/ttyACM1"]
    assert usb_matches(ports, 0x1234, 0x5678) == []


def test_a_dangling_stable_path_is_not_found_and_says_what_was_tried(tmp_path: Path) -> None:
    link = tmp_path / "domino-board"
    link.symlink_to(tmp_path / "ttyACM9")
    with pytest.raises(BoardNotFoundError, match=r"domino-board does not exist.*1209:0001"):
        find_port(str(link), (0x1209, 0x0001), "no-such-serial")
    (tmp_path / "ttyACM9").touch()
    assert find_port(str(link)) == str(link)  # opened through the link, never resolved


def test_the_example_script_loads() -> None:
    steps = load_script(SCRIPTS / "opening.jsonl")
    assert steps[:2] == [PlaceStep(DOUBLE_SIX), WaitStep(0.4)]
    assert ButtonStep(0, ButtonAction.UP) in steps


def test_every_step_kind_parses() -> None:
    lines = [
        '{"lift": [6, 4]}',
        '{"lift": [6, 4, 474, 300, 498, 300]}',
        '{"fault": "replug", "seconds": 1.5}',
        '{"fault": "bad_crc", "count": 3}',
        '{"error": ["E3", "sensor 3 dead"]}',
    ]
    steps = list(steps_from_lines(lines))
    assert steps[0] == LiftStep(Tile(6, 4))
    assert steps[1] == LiftStep(Tile(6, 4), SIX_FOUR)
    assert steps[2] == FaultStep(Fault.REPLUG, 1, 1.5)
    assert steps[3] == FaultStep(Fault.BAD_CRC, 3, 0.5)


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ('{"place": [6, 6, 1, 2]}', "list of 6 numbers"),
        ('{"place": [19, 6, 1, 2, 3, 4]}', "not a tile"),
        ('{"button": [16, "DOWN"]}', "0..15"),
        ('{"button": [1, "PUSH"]}', "DOWN, UP or HOLD"),
        ('{"wait": -1}', "seconds"),
        ('{"fault": "fire"}', "bad_crc"),
        ('{"error": ["E1", "a,b"]}', "cannot carry"),
        ('{"jump": 1}', "unknown step"),
        ('{"place": [6, 6, 1, 2, 3, 4], "wait": 1}', "one of"),
        ("[1, 2]", "JSON object"),
        ("{nope", "Expecting property name"),
    ],
)
def test_script_errors_name_the_line_and_the_fix(line: str, words: str) -> None:
    with pytest.raises(ScriptError, match=r"script line 3: .*" + words):
        list(steps_from_lines(["# comment", "", line]))


def test_the_emulator_plays_steps_from_a_generator(tmp_path: Path) -> None:
    def rounds() -> Iterator[Step]:
        for tile in (SIX_FOUR, FOUR_THREE):
            yield PlaceStep(tile)
            yield WaitStep(0.05)

    events = Recorder()
    with (
        BoardEmulator(rounds(), link=tmp_path / "b", hb_interval=0.1, debounce=0.02) as board,
        BoardAdapter(LinkSettings(path=str(board.link), **FAST), events) as host,
    ):
        host.open(3)
        events.wait_for(lambda e: isinstance(e, Snapshot) and tiles_of(e) == {SIX_FOUR, FOUR_THREE})


@pytest.mark.process
def test_the_board_emulator_command(tmp_path: Path) -> None:
    link = tmp_path / "board"
    script = SCRIPTS / "opening.jsonl"
    command = [
        sys.executable,
        "-c",
        "from cli.main import main; main()",
        "board-emulator",
        str(script),
        "--link",
        str(link),
        "--speed",
        "4",
        "--hb-interval",
        "0.1",
        "--board-id",
        "CLI7",
    ]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        printed = proc.stdout.readline()
        assert printed.startswith("/dev/pts/") and str(link) in printed
        events = Recorder()
        with BoardAdapter(LinkSettings(path=str(link), **FAST), events) as host:
            assert host.open(3).board_id == "CLI7"
            events.wait_for(
                lambda e: (
                    isinstance(e, Snapshot) and tiles_of(e) == {DOUBLE_SIX, SIX_FOUR, FOUR_THREE}
                )
            )
            assert events.wait_for(lambda e: isinstance(e, ButtonEvent)).button == 0
            mark = events.mark()
            proc.send_signal(signal.SIGUSR1)
            reset = events.wait_for(lambda e: isinstance(e, BoardIdentity), since=mark)
            assert reset.restarted
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(5) == 0
        assert not link.exists()
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.process
def test_the_board_emulator_command_explains_a_bad_link(tmp_path: Path) -> None:
    command = [sys.executable, "-c", "from cli.main import main; main()", "board-emulator"]
    done = subprocess.run(
        [*command, "--link", str(tmp_path / "no" / "dir" / "board")],
        capture_output=True,
        text=True,
        timeout=20,
        check=False,
    )
    assert done.returncode == 1
    assert "cannot set up the pseudo-terminal or --link" in done.stderr
