"""BoardLink and BoardAdapter over a real pseudo-terminal, an emulated board at the far end."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.surface import SeenTile, Snapshot
from firmware_bridge.adapter import (
    BoardAdapter,
    BoardFault,
    BoardIdentity,
    ButtonEvent,
    LinkChanged,
)
from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.errors import BoardCommandError, BoardRefusedError, BoardTimeoutError
from firmware_bridge.events import CommandFailed, CommandOutcome
from firmware_bridge.link import LinkSettings
from firmware_bridge.messages import (
    ButtonAction,
    Colour,
    Hello,
    Led,
    NakReason,
    Place,
    Sync,
    TileAt,
)
from firmware_bridge.script import ErrorStep, Fault, LiftStep, PlaceStep, WaitStep
from tests.firmware_bridge.conftest import DOUBLE_SIX, FAST, SIX_FOUR, Recorder, emulator, tiles_of

THREE_FOUR = TileAt(4, 3, 522, 300, 546, 300)


def is_snapshot_of(*tiles: TileAt) -> Callable[[object], bool]:
    return lambda e: isinstance(e, Snapshot) and tiles_of(e) == set(tiles)


def test_handshake_gives_identity_online_and_the_first_snapshot(
    host: BoardAdapter, events: Recorder
) -> None:
    identity = events.wait_for(lambda e: isinstance(e, BoardIdentity))
    assert (identity.board_id, identity.max_pip, identity.restarted) == ("EMU1", 6, False)
    assert events.wait_for(lambda e: isinstance(e, LinkChanged)).online
    snapshot = events.wait_for(lambda e: isinstance(e, Snapshot))
    assert snapshot.tiles == (SeenTile(6, 6, 450, 288, 450, 312),)
    assert snapshot.facedown is None
    status = host.status()
    assert status["online"] is True and status["surface_whole"] is True


def test_place_and_lift_become_snapshots(
    board: BoardEmulator, host: BoardAdapter, events: Recorder
) -> None:
    events.wait_for(is_snapshot_of(DOUBLE_SIX))
    board.place(SIX_FOUR)
    events.wait_for(is_snapshot_of(DOUBLE_SIX, SIX_FOUR))
    mark = events.mark()
    board.lift(SIX_FOUR)
    events.wait_for(is_snapshot_of(DOUBLE_SIX), since=mark)
    assert host.snapshot is not None and tiles_of(host.snapshot) == {DOUBLE_SIX}
    assert "count_syncs" not in host.status()  # nothing was in doubt


def test_a_tile_lifted_before_it_settles_is_never_reported(
    board: BoardEmulator, host: BoardAdapter, events: Recorder
) -> None:
    board.play([PlaceStep(SIX_FOUR), WaitStep(0.005), LiftStep(SIX_FOUR.tile), WaitStep(0.2)])
    board.place(THREE_FOUR)
    events.wait_for(is_snapshot_of(DOUBLE_SIX, THREE_FOUR))
    assert not [f for f in board.sent if f.message == Place(SIX_FOUR)]


def test_buttons_and_board_faults_come_through(
    board: BoardEmulator, host: BoardAdapter, events: Recorder
) -> None:
    board.press(3, ButtonAction.HOLD)
    board.play([ErrorStep("E3", "sensor 3 dead")])
    button = events.wait_for(lambda e: isinstance(e, ButtonEvent))
    assert (button.button, button.action) == (3, ButtonAction.HOLD)
    fault = events.wait_for(lambda e: isinstance(e, BoardFault))
    assert (fault.code, fault.text) == ("E3", "sensor 3 dead")


def test_led_and_beep_are_acked_and_done(board: BoardEmulator, host: BoardAdapter) -> None:
    assert host.led(486, 300, "red").wait(2) is CommandOutcome.ACKED
    assert host.beep(200).wait(2) is CommandOutcome.ACKED
    assert board.leds == {(486, 300): Colour.RED} and board.beeps == [200]
    assert host.leds_off().wait(2) is CommandOutcome.ACKED
    assert board.leds == {}
    assert host.led(474.4, 299.6, Colour.AMBER).wait(2) is CommandOutcome.ACKED  # a SeenTile's mm
    assert board.leds == {(474, 300): Colour.AMBER}


def test_commands_are_checked_before_they_go_out(host: BoardAdapter) -> None:
    with pytest.raises(BoardCommandError, match="900 x 600"):
        host.led(901, 10, Colour.RED)
    with pytest.raises(BoardCommandError, match="'pink'"):
        host.led(1, 1, "pink")
    with pytest.raises(BoardCommandError, match="beep"):
        host.beep(0)


def test_a_lost_ack_makes_the_host_resend_the_same_seq_and_the_board_act_once(
    board: BoardEmulator, host: BoardAdapter
) -> None:
    board.inject(Fault.DROP_ACK)
    cmd = host.led(10, 20, Colour.BLUE)
    assert cmd.wait(2) is CommandOutcome.ACKED
    heard = [f for f in board.heard if f.seq == cmd.seq and isinstance(f.message, Led)]
    acted = [f for f in board.acted if f.seq == cmd.seq and isinstance(f.message, Led)]
    assert len(heard) >= 2 and len(acted) == 1
    assert cmd.resends >= 1
    assert host.status()["count_resends"] >= 1  # type: ignore[operator]


def test_a_refused_command_is_reported(
    board: BoardEmulator, host: BoardAdapter, events: Recorder
) -> None:
    board.inject(Fault.BUSY)
    cmd = host.beep(100)
    assert cmd.wait(2) is CommandOutcome.REFUSED and cmd.nak is NakReason.BUSY
    failed = events.wait_for(lambda e: isinstance(e, CommandFailed))
    assert (failed.seq, failed.nak) == (cmd.seq, NakReason.BUSY)
    assert board.beeps == []


def test_a_command_never_answered_is_lost_after_three_resends(
    board: BoardEmulator, host: BoardAdapter, events: Recorder
) -> None:
    board.inject(Fault.DEAF, count=4)
    cmd = host.beep(100)
    assert cmd.wait(3) is CommandOutcome.LOST
    assert cmd.resends == 3
    assert events.wait_for(lambda e: isinstance(e, CommandFailed)).outcome is CommandOutcome.LOST


@pytest.mark.parametrize("fault", [Fault.BAD_CRC, Fault.DROP])
def test_a_lost_place_is_caught_by_the_seq_jump_and_synced(
    fault: Fault, board: BoardEmulator, host: BoardAdapter, events: Recorder
) -> None:
    events.wait_for(is_snapshot_of(DOUBLE_SIX))
    mark = events.mark()
    board.inject(fault)  # the next frame: the PLACE or a heartbeat, both lost
    board.place(SIX_FOUR)
    events.wait_for(is_snapshot_of(DOUBLE_SIX, SIX_FOUR), since=mark)
    status = host.status()
    assert status["count_seq_jumps"] == 1 and status["count_syncs"] == 1
    board.place(THREE_FOUR)  # and it goes on
    events.wait_for(is_snapshot_of(DOUBLE_SIX, SIX_FOUR, THREE_FOUR), since=mark)


def test_a_duplicated_frame_is_acted_on_once(
    board: BoardEmulator, host: BoardAdapter, events: Recorder
) -> None:
    events.wait_for(is_snapshot_of(DOUBLE_SIX))
    board.wait_until(board.idle)
    mark = events.mark()
    board.inject(Fault.DUPLICATE, count=3)
    board.place(SIX_FOUR)
    events.wait_for(is_snapshot_of(DOUBLE_SIX, SIX_FOUR), since=mark)
    assert board.wait_until(lambda: host.status().get("count_repeats") == 3, timeout=2)
    assert len(events.of(Snapshot, since=mark)) == 1
    assert "count_syncs" not in host.status()


def test_garbage_between_frames_costs_nothing(
    board: BoardEmulator, host: BoardAdapter, events: Recorder
) -> None:
    events.wait_for(is_snapshot_of(DOUBLE_SIX))
    board.inject(Fault.GARBAGE, count=8)
    board.place(SIX_FOUR)
    events.wait_for(is_snapshot_of(DOUBLE_SIX, SIX_FOUR))
    status = host.status()
    assert status["decoder_skipped_bytes"] >= 128  # type: ignore[operator]
    assert "count_syncs" not in status


def test_a_bad_frame_inside_a_snapshot_spoils_it_and_the_host_asks_again(
    board: BoardEmulator, host: BoardAdapter, events: Recorder
) -> None:
    board.place(SIX_FOUR)
    events.wait_for(is_snapshot_of(DOUBLE_SIX, SIX_FOUR))
    board.wait_until(board.idle)
    board.inject(Fault.BAD_CRC, after=2)  # ACK, SNAP, then the first TILE
    mark = events.mark()
    host.sync()
    assert board.wait_until(lambda: host.status().get("count_snapshots") == 2, timeout=3)
    events.wait_for(is_snapshot_of(DOUBLE_SIX, SIX_FOUR), since=mark)  # every snapshot
    status = host.status()
    assert status["count_snapshots_spoilt"] == 1 and status["count_rejected_bad_crc"] == 1
    assert status["consistent"] is True and status["tiles"] == 2


def test_a_board_reset_is_noticed_and_resynced(
    board: BoardEmulator, host: BoardAdapter, events: Recorder
) -> None:
    events.wait_for(is_snapshot_of(DOUBLE_SIX))
    board.place(SIX_FOUR)
    events.wait_for(is_snapshot_of(DOUBLE_SIX, SIX_FOUR))
    host.led(10, 10, Colour.GREEN).wait(2)
    mark = events.mark()
    board.inject(Fault.RESET)
    restarted = events.wait_for(lambda e: isinstance(e, BoardIdentity), since=mark)
    assert restarted.restarted
    # The host's counter restarted too: its SYNC goes out as seq 0.
    assert board.wait_until(lambda: any(isinstance(f.message, Sync) for f in board.acted))
    assert [f.seq for f in board.acted if isinstance(f.message, Sync)] == [0]
    board.wait_until(lambda: host.status().get("count_snapshots") == 2, timeout=3)
    assert host.link.consistent and board.leds == {}
    board.place(THREE_FOUR)
    events.wait_for(is_snapshot_of(DOUBLE_SIX, SIX_FOUR, THREE_FOUR), since=mark)


def test_unplug_and_replug_under_a_new_name_is_found_again_by_the_symlink(
    board: BoardEmulator, host: BoardAdapter, events: Recorder
) -> None:
    assert board.link is not None
    events.wait_for(is_snapshot_of(DOUBLE_SIX))
    old = board.path
    mark = events.mark()
    board.inject(Fault.REPLUG, seconds=0.3)
    board.place(SIX_FOUR)  # while it is away
    down = events.wait_for(lambda e: isinstance(e, LinkChanged) and not e.online, since=mark)
    assert down.reason
    assert events.wait_for(lambda e: isinstance(e, LinkChanged) and e.online, since=mark)
    events.wait_for(is_snapshot_of(DOUBLE_SIX, SIX_FOUR), since=mark)
    assert board.path != old and os.path.realpath(board.link) == board.path
    assert host.led(1, 1, Colour.AMBER).wait(2) is CommandOutcome.ACKED


def test_silence_takes_the_link_down_and_it_comes_back(
    board: BoardEmulator, host: BoardAdapter, events: Recorder
) -> None:
    events.wait_for(is_snapshot_of(DOUBLE_SIX))
    assert host.led(7, 7, Colour.GREEN).wait(2) is CommandOutcome.ACKED
    mark = events.mark()
    board.inject(Fault.SILENCE, seconds=2.0)
    down = events.wait_for(lambda e: isinstance(e, LinkChanged) and not e.online, since=mark)
    assert down.reason.startswith("no frame for 1.")
    up = events.wait_for(lambda e: isinstance(e, LinkChanged) and e.online, since=mark, timeout=5)
    assert up.at - down.at >= 0.3  # back only once the board speaks again
    events.wait_for(lambda e: isinstance(e, Snapshot), since=mark)  # resynced
    assert board.leds == {(7, 7): Colour.GREEN}  # a HELLO is no reboot


@pytest.mark.logs_errors
def test_a_board_of_another_major_version_is_refused_naming_both(tmp_path: Path) -> None:
    identity = Hello("2.1", "fw-2", "B9", 900, 600, 6)
    with emulator(tmp_path, identity=identity) as board:
        adapter = BoardAdapter(LinkSettings(path=str(board.link), **FAST), Recorder())
        with pytest.raises(BoardRefusedError, match=r"version 2\.1 .* version 1"):
            adapter.open(timeout=3)
        assert not adapter.link.online


@pytest.mark.logs_errors
def test_a_board_reading_too_few_pips_is_refused_naming_both(tmp_path: Path) -> None:
    with emulator(tmp_path) as board:
        settings = LinkSettings(path=str(board.link), needed_max_pip=9, **FAST)
        with pytest.raises(BoardRefusedError, match=r"up to 6 pips .*double-nine set needs 9"):
            BoardAdapter(settings, Recorder()).open(timeout=3)


def test_no_board_times_out_naming_where_it_looked(tmp_path: Path) -> None:
    settings = LinkSettings(path=str(tmp_path / "nothing"), **FAST)
    with pytest.raises(BoardTimeoutError, match="nothing does not exist"):
        BoardAdapter(settings, Recorder()).open(timeout=0.3)


def test_a_second_host_cannot_take_the_port(board: BoardEmulator, host: BoardAdapter) -> None:
    second = BoardAdapter(LinkSettings(path=str(board.link), **FAST), Recorder())
    with pytest.raises(BoardTimeoutError, match="exclusively lock"):
        second.open(timeout=0.3)
    assert host.led(5, 5, Colour.GREEN).wait(2) is CommandOutcome.ACKED
