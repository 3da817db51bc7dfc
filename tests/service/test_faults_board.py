"""The board's faults during a hand, against the real service and Mosquitto: unplugged
(with a tile laid while it was away), replugged, reset, and a serial line that corrupts,
drops, doubles or pads frames. The game on MQTT is always exactly the plays laid."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge.emulator import BoardEmulator, FaultRates
from firmware_bridge.messages import Sync
from firmware_bridge.script import Fault
from tests.fixtures.mosquitto import Mosquitto
from tests.service.faults import (
    SPEED,
    P,
    Rig,
    rig_for,
    wait,
)


def alerts(rig: Rig, code: str) -> list[dict[str, object]]:
    return [
        s.json() for s in rig.rec.seen if s.topic == f"{P}/event/alert" and s.json()["code"] == code
    ]


def test_unplugged_board_alerts_and_a_tile_laid_meanwhile_is_judged_on_replug(
    rig: Rig,
) -> None:
    assert rig.player.play(3) == 3
    rig.board.stop()  # unplugged: the pty is gone, the udev link too
    wait(lambda: rig.journal.standing("BOARD_OFFLINE"), 10, "BOARD_OFFLINE raised")
    got = rig.rec.wait_for(lambda s: bool(alerts(rig, "BOARD_OFFLINE")), timeout=10)
    assert got
    (offline,) = alerts(rig, "BOARD_OFFLINE")
    assert offline["severity"] == "fault" and offline["resolved"] is False

    # A player lays the next tile while the board is away; then it is plugged back in.
    tile = rig.player.next_tile()
    assert tile is not None
    plays_before = len(rig.journal.plays())
    rig.board = BoardEmulator(link=rig.link, speed=SPEED, tiles=rig.player.surface).start()
    rig.player.board = rig.board
    rig.player.judged()  # the tile found on the surface at the handshake is a play
    assert len(rig.journal.plays()) == plays_before + 1
    wait(lambda: not rig.journal.standing("BOARD_OFFLINE"), 10, "BOARD_OFFLINE resolved")
    rig.rec.wait_for(lambda s: len(alerts(rig, "BOARD_OFFLINE")) == 2, timeout=10)
    resolved = alerts(rig, "BOARD_OFFLINE")[1]
    assert resolved["resolved"] is True and resolved["id"] == offline["id"]

    assert rig.player.play(3) == 3  # and the hand goes on
    final = rig.finish()
    assert final["alerts"] == []


def test_replug_fault_is_an_offline_alert_resolved_when_back(rig: Rig) -> None:
    assert rig.player.play(2) == 2
    rig.board.inject(Fault.REPLUG, seconds=1.5)
    wait(lambda: rig.journal.standing("BOARD_OFFLINE"), 10, "BOARD_OFFLINE raised")
    wait(lambda: not rig.journal.standing("BOARD_OFFLINE"), 15, "BOARD_OFFLINE resolved")
    assert rig.player.play(3) == 3
    rig.finish()


def test_board_reset_mid_hand_resyncs_and_nothing_is_lost_or_doubled(rig: Rig) -> None:
    assert rig.player.play(3) == 3
    syncs = sum(isinstance(f.message, Sync) for f in rig.board.acted)
    rig.board.inject(Fault.RESET)
    assert rig.board.wait_until(
        lambda: sum(isinstance(f.message, Sync) for f in rig.board.acted) > syncs, 10
    ), "the host did not SYNC after the board's reset"
    assert rig.player.play(2) == 2
    # A reset while a tile is still settling: its first report is the snapshot.
    tile = rig.player.lay(wait_judged=False)
    assert tile is not None
    rig.board.inject(Fault.RESET)
    rig.player.judged()
    assert rig.player.play(2) == 2
    rig.finish()
    assert len(rig.journal.plays()) == len(rig.player.laid) == 8


@pytest.mark.process
@pytest.mark.parametrize(
    "rates",
    [
        FaultRates(bad_crc=0.2),
        FaultRates(drop=0.2),
        FaultRates(duplicate=0.3),
        FaultRates(garbage=0.3),
        FaultRates(bad_crc=0.05, drop=0.05, duplicate=0.05, garbage=0.05),
    ],
    ids=["bad_crc", "drop", "duplicate", "garbage", "mixed"],
)
def test_a_noisy_serial_line_changes_nothing_in_the_game(
    broker: Mosquitto, tmp_path: Path, rates: FaultRates
) -> None:
    for rig in rig_for(broker, tmp_path, rates, seed=5):
        assert rig.player.play(9) == 9
        rig.finish()
        counts = rig.board.counts
        hit = (
            counts["frames_corrupted"] + counts["frames_dropped"] + counts["frames_duplicated"]
            + counts["bytes_out"] * (rates.garbage > 0)
        )  # fmt: skip
        assert hit > 0, counts
        assert not rig.journal.standing("BOARD_OFFLINE")
