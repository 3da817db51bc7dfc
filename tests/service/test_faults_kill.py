"""kill -9 of the service mid-hand: after a restart the game, its seq and every event
are there, events the broker never acknowledged are published again, play goes on."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.service_process import Service
from tests.service.faults import (
    Commander,
    JournalView,
    P,
    Rig,
    all_seqs,
    check_delivery,
    desk,
    fresh_state,
    last_state,
    settled_state,
    statuses,
    wait,
)


def test_kill_9_mid_hand_then_restart_loses_nothing_and_play_goes_on(
    rig: Rig,
) -> None:
    rec, journal, proc, player, broker = rig.rec, rig.journal, rig.proc, rig.player, rig.broker
    assert player.play(4) == 4
    rec.wait_for(all_seqs(journal), timeout=10)
    wait(lambda: not journal.unacked(), 10, "every event acked")

    # The broker stops answering (SIGSTOP): the next play is journaled, never acked.
    assert broker.proc is not None
    os.kill(broker.proc.pid, signal.SIGSTOP)
    try:
        assert player.lay() is not None
        unacked = journal.unacked()
        assert unacked, "the play should wait for the broker's ack"
        seq_before = journal.last_seq()
        proc.kill()
    finally:
        os.kill(broker.proc.pid, signal.SIGCONT)
    rec.wait_for(lambda s: statuses(s)[-1:] == [b"offline"], timeout=20)  # the Will

    proc.start()
    rec.wait_for(lambda s: statuses(s)[-1:] == [b"online"], timeout=20)
    state = last_state(rec.seen)
    assert state is not None and state["seq"] == seq_before
    player.expect_state(state)
    wait(lambda: not journal.unacked(), 10, "the unacked events acked after the restart")
    assert "republished" in proc.log.read_text()

    # The game goes on: the right seats, the right scores.
    assert player.play(4) == 4
    rec.wait_for(all_seqs(journal), timeout=15)
    n = check_delivery(rec.seen, journal)
    assert n == journal.last_seq() > seq_before
    for seq in unacked:
        assert any(s.json().get("seq") == seq for s in rec.seen if "/event/" in s.topic)
    final = settled_state(rec, broker, n)
    assert final["seq"] == n
    player.expect_state(final)
    assert [s.topic for s in rec.seen].count(f"{P}/status") >= 3
    assert not proc.errors(), proc.errors()


@pytest.mark.process
def test_a_restart_replays_only_the_current_game(broker: Mosquitto, tmp_path: Path) -> None:
    rec = desk(broker)
    journal = JournalView(tmp_path / "state")
    proc = Service(broker, tmp_path / "state", "--rules", "walnut", log=tmp_path / "service.log")
    commands = Commander(broker)
    proc.start()
    try:
        rec.wait_for(lambda s: b"online" in statuses(s), timeout=20)
        for n in range(30):  # an old game's inputs
            commands.send({"id": f"old-{n}", "action": "rename", "seat": n % 4, "name": f"O{n}"})
        commands.send({"id": "ng", "action": "new_game", "rules": "outdoor", "seats": ["A", "B"]})
        commands.send({"id": "r1", "action": "rename", "seat": 1, "name": "Bea"})
        wait(lambda: journal.reply("r1"), 20, "the last command answered")
        rec.wait_for(lambda s: (last_state(s) or {}).get("seats", [{}, {}])[1].get("name") == "Bea")
        before = last_state(rec.seen)
        proc.kill()
        proc.start()
        rec.wait_for(lambda s: statuses(s)[-1:] == [b"online"], timeout=20)
        after = fresh_state(broker)
        assert before is not None
        assert {k: v for k, v in after.items() if k != "ts"} == {
            k: v for k, v in before.items() if k != "ts"
        }
        restored = [line for line in proc.log.read_text().splitlines() if "restored from" in line]
        assert restored and "restored from 2 inputs" in restored[-1], restored
        assert not proc.errors(), proc.errors()
    finally:
        proc.stop()
        rec.close()
