"""A restart gives the same state, byte for byte: after it, the board's snapshot of the
same surface changes nothing, and the state published is the one published before.

Each test ends a game's worth of situations on the emulated board, takes the retained
`state` as the broker holds it, restarts the service (a clean stop, or `kill -9`), lets the
restarted table see the board (its handshake snapshot, then a snapshot of a tile lifted
that was no play), and takes the retained `state` again: equal but for `ts`.
"""

from __future__ import annotations

import re

import pytest

from engine import Tile
from firmware_bridge.messages import HostHello
from firmware_bridge.script import LiftStep
from tests.fixtures.mqtt_recorder import Recorder
from tests.service.faults import P, Rig, statuses, wait

TS = re.compile(rb'"ts":"[^"]*"')


def retained_state(rig: Rig) -> bytes:
    """The retained `state` as the broker holds it, its `ts` blanked."""
    rec = Recorder(rig.broker.host, rig.broker.port, [f"{P}/state"])
    try:
        got = rec.wait_for(bool, 10)
        return TS.sub(b'"ts":""', got[-1].payload)
    finally:
        rec.close()


def hellos(rig: Rig) -> int:
    return sum(isinstance(f.message, HostHello) for f in rig.board.acted)


def restart(rig: Rig, how: str) -> None:
    """Stop (clean or `kill -9`) and start again; back once online and on the board."""
    handshakes = hellos(rig)
    rig.proc.stop() if how == "stop" else rig.proc.kill()
    n = len(statuses(rig.rec.seen))
    rig.proc.start()
    rig.rec.wait_for(lambda s: b"online" in statuses(s)[n:], timeout=20)
    wait(lambda: hellos(rig) > handshakes, 20, "the restarted service's handshake")


def then_marker(rig: Rig, name: str) -> None:
    """A command the table refuses (there is no seat 9), answered after everything the
    table was handed before it: the board's snapshots are judged by then."""
    body = {"action": "rename", "seat": 9, "name": "x", "id": f"marker-{name}"}
    reply = rig.player.command(body)
    assert reply["ok"] is False and "no seat 9" in reply["error"], reply


def lift(rig: Rig, tile: Tile) -> None:
    rig.board.play([LiftStep(tile)])
    assert rig.board.wait_until(rig.board.idle, 10)


@pytest.mark.parametrize("how", ["stop", "kill"])
def test_a_new_game_over_the_old_tiles_is_the_same_after_a_restart(rig: Rig, how: str) -> None:
    player, journal = rig.player, rig.journal
    assert player.play(5) == 5
    reply = player.command({"action": "new_game", "rules": "walnut", "seats": 2})
    assert reply["ok"], reply
    lift(rig, player.surface[0].tile)  # the players start clearing the table
    then_marker(rig, "before")
    before = retained_state(rig)
    assert b'"tiles":[]' in before  # the old game's tiles are no plays of the new one

    restart(rig, how)
    lift(rig, player.surface[1].tile)  # a snapshot of the same surface, less a tile
    then_marker(rig, "after")
    assert journal.plays() == []
    assert retained_state(rig) == before
    assert not rig.proc.errors(), rig.proc.errors()


@pytest.mark.parametrize("how", ["stop", "kill"])
def test_the_layout_open_ends_and_a_play_taken_back_are_the_same_after_a_restart(
    rig: Rig, how: str
) -> None:
    player, journal = rig.player, rig.journal
    assert player.play(6) == 6
    reply = player.command({"action": "undo"})  # taken back; its tile still lies there
    assert reply["ok"], reply
    then_marker(rig, "before")
    before = retained_state(rig)
    assert b'"x":' in before and b'"y":' in before  # where the open ends take a tile
    plays = journal.plays()
    assert len(plays) == 5

    restart(rig, how)
    lift(rig, player.surface[-1].tile)  # the tile taken back is lifted at last
    then_marker(rig, "after")
    assert journal.plays() == plays
    assert retained_state(rig) == before
    assert not rig.proc.errors(), rig.proc.errors()


def test_a_standing_alert_is_the_same_after_a_restart(rig: Rig) -> None:
    """LEAD_UNKNOWN stands (nobody said who led): the restarted table lists the same
    alert, with the same id and payload, and resolves it when told."""
    player, journal = rig.player, rig.journal
    tile = player.lay(wait_judged=False)
    assert tile is not None
    wait(lambda: journal.standing("LEAD_UNKNOWN"), 10, "LEAD_UNKNOWN")
    then_marker(rig, "before")
    before = retained_state(rig)
    assert b'"code":"LEAD_UNKNOWN"' in before

    restart(rig, "kill")
    then_marker(rig, "after")
    assert retained_state(rig) == before
    player.judged()  # names the leader: the restored alert is resolved
    assert not journal.standing("LEAD_UNKNOWN")
    rig.finish()
