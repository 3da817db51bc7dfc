"""Every change of state comes with its event, and `state.seq` names the last event:
a `redeal` publishes the abandoned hand (`result` `redealt`), and after a power cut
(a restart on a new boot id) the next seq jumps forward while `state.seq` stays the
last event's (spec/mqtt.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Tile, rulesets
from engine.inputs import Lead, Redeal
from service.core import commands as cmd
from service.core.table import TableConfig, TableCore, play_input
from service.store import journal as journal_module
from service.store.journal import Journal
from service.store.seq_mark import RESERVE
from tests.fixtures.spec import validate

STAMP = {"v": 1, "table": "t1", "ts": "2026-11-22T04:00:00.000Z"}


def core_at(state_dir: Path, **config: object) -> TableCore:
    journal = Journal(state_dir, "t1")
    core = TableCore(TableConfig(table="t1", **config), journal, rulesets.load)  # type: ignore[arg-type]
    core.start()
    return core


def cut(core: TableCore) -> None:
    """The power goes: the process dies with the journal open (nothing closed cleanly)."""
    db = core.journal._db
    assert db is not None
    db.close()
    core.journal._db = None


def lay(core: TableCore, text: str) -> None:
    game = core.game
    assert game is not None
    judged = game.play(Tile.parse(text))
    assert judged.ok, judged
    core._commit(play_input(game.hand_inputs()[-1]), judged.events)  # type: ignore[arg-type]


def test_a_redeal_publishes_the_abandoned_hand_with_its_points_taken_back(tmp_path: Path) -> None:
    core = core_at(tmp_path, rules="walnut", seats=2)
    game = core.game
    assert game is not None
    hand = core.state()["hand"]
    lay(core, "5-5")  # 10: all fives
    assert core.command(cmd.GameCommand("l1", Lead(seat=0))) is None
    lay(core, "5-0")  # 10 more
    assert list(game.scores()) == [10, 10]
    last = core.journal.last_seq()
    assert core.command(cmd.GameCommand("r1", Redeal())) is None
    stored = [e for e in core.journal.pending() if e.seq > last]
    hand_events = [e for e in stored if e.kind == "hand"]
    assert len(hand_events) == 1, [e.kind for e in stored]
    event = hand_events[0].payload
    validate("hand", event)
    assert event["result"] == "redealt" and event["hand"] == hand
    assert event["winner"] is None and event["team"] is None
    assert event["points"] == 0 and event["pips"] == []
    assert event["scores"] == [0, 0] and event["team_scores"] == []  # the hand's 20 taken back
    state = core.state()
    assert state["seq"] == hand_events[0].seq == core.journal.last_seq()
    assert state["hand"] == hand and state["phase"] == "lead" and not state["layout"]["tiles"]
    assert [s["score"] for s in state["seats"]] == [0, 0]
    validate("state", {**STAMP, **state})


def test_a_redeal_in_partnership_gives_the_team_scores_as_they_stand(tmp_path: Path) -> None:
    core = core_at(tmp_path, rules="outdoor", seats=4)
    state = core.state()
    assert state["teams"], "outdoor for four plays in partnerships"
    assert core.command(cmd.GameCommand("r1", Redeal())) is None
    event = next(e.payload for e in core.journal.pending() if e.kind == "hand")
    validate("hand", event)
    assert event["result"] == "redealt"
    assert event["team_scores"] == [t["score"] for t in state["teams"]]
    assert event["scores"] == [s["score"] for s in state["seats"]]


@pytest.mark.parametrize("boot", ["same", "new"])
def test_state_seq_is_the_last_events_after_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, boot: str
) -> None:
    monkeypatch.setattr(journal_module, "boot_id", lambda: "the-first-boot")
    core = core_at(tmp_path, rules="straight-block", seats=2)
    lay(core, "6-6")  # the highest double leads: nobody knows whose it is yet
    last = core.journal.last_event()
    assert last is not None and core.state()["seq"] == last.seq
    cut(core)
    if boot == "new":  # a power cut: the machine came back with another boot id
        monkeypatch.setattr(journal_module, "boot_id", lambda: "the-next-boot")
    again = core_at(tmp_path, rules="straight-block", seats=2)
    state = again.state()
    assert state["seq"] == last.seq  # names an event, not the seqs skipped after the cut
    validate("state", {**STAMP, **state})
    assert again.command(cmd.GameCommand("l1", Lead(seat=0))) is None
    after = again.journal.last_event()
    assert after is not None and again.state()["seq"] == after.seq
    first = min(e.seq for e in again.journal.pending() if e.seq > last.seq)
    assert first == (last.seq + 1 if boot == "same" else RESERVE + 1)  # a jump after the cut
