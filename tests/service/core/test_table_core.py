"""The table core: commands change the game through the journal, and a restart rebuilds it."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Game, rulesets
from engine.game import PlayInput
from engine.inputs import Count, Draw, Lead, Pass, Undo
from service.core import commands as cmd
from service.core.table import TableConfig, TableCore, play_input
from service.core.table_events import Recorded
from service.store.journal import Journal
from tests.fixtures.spec import validate


def last_play(game: Game) -> PlayInput:
    action = game.hand_inputs()[-1]
    assert isinstance(action, PlayInput)
    return action


def core_at(state_dir: Path, **config: object) -> tuple[TableCore, list[Recorded]]:
    journal = Journal(state_dir, "t1")
    core = TableCore(TableConfig(table="t1", **config), journal, rulesets.load)  # type: ignore[arg-type]
    heard: list[Recorded] = []
    core.bus.subscribe(Recorded, heard.append)
    core.start()
    return core, heard


def check_all(core: TableCore) -> None:
    for event in core.journal.pending():
        validate(event.kind, event.payload)
    validate("state", {"v": 1, "table": "t1", "ts": "2026-11-22T04:00:00.000Z", **core.state()})


def test_a_new_table_starts_the_configured_game(tmp_path: Path) -> None:
    core, heard = core_at(tmp_path, rules="outdoor", seats=2)
    assert core.game is not None and core.game.rules.name == "outdoor"
    assert [core.journal.event(s).kind for s in heard[0].seqs] == ["game"]  # type: ignore[union-attr]
    state = core.state()
    assert state["phase"] == "lead" and state["seq"] == 1
    assert [s["side"] for s in state["seats"]] == ["bottom", "top"]
    check_all(core)


def test_commands_and_plays_are_journaled_and_replayed_after_a_restart(tmp_path: Path) -> None:
    core, _ = core_at(tmp_path, rules="straight-block", seats=2)
    game = core.game
    assert game is not None
    # a lead lands: the table does not know who laid it (highest double rule)
    from engine import Tile

    judged = game.play(Tile.parse("6-6"))
    assert judged.ok
    core._commit(play_input(last_play(game)), judged.events)
    assert any(a["code"] == "LEAD_UNKNOWN" for a in core.state()["alerts"])
    assert core.command(cmd.GameCommand("c1", Lead(seat=1))) is None
    assert not core.state()["alerts"]
    assert core.command(cmd.GameCommand("c2", Pass(seat=1))) is not None  # seat 0's turn: refused
    assert core.command(cmd.GameCommand("c3", Pass())) is None
    before = core.state()
    check_all(core)
    core.journal.close()

    again, _ = core_at(tmp_path, rules="walnut", seats=4)  # settings changed: journal wins
    after = again.state()
    assert after["rules"] == "straight-block"
    for key in ("seq", "game_id", "phase", "turn", "seats", "layout", "hand"):
        assert after[key] == before[key], key
    assert again.command(cmd.GameCommand("c4", Pass())) is None
    assert again.state()["seq"] == before["seq"] + 1


def test_a_refused_command_changes_nothing(tmp_path: Path) -> None:
    core, heard = core_at(tmp_path, rules="walnut", seats=4)
    seq = core.journal.last_seq()
    error = core.command(cmd.GameCommand("u1", Undo()))
    assert error == "Nothing to take back."
    assert core.journal.last_seq() == seq and len(heard) == 1


@pytest.mark.parametrize("rules", ["puerto-rico", "walnut"])
def test_counts_score_the_hand_once_every_seat_is_counted(tmp_path: Path, rules: str) -> None:
    core, _ = core_at(tmp_path, rules=rules, seats=4)
    game = core.game
    assert game is not None
    from engine import Tile

    lead = "6-6" if rules == "puerto-rico" else "5-5"
    judged = game.play(Tile.parse(lead), seat=0)
    core._commit(play_input(last_play(game)), judged.events)
    for n in range(4):
        assert core.command(cmd.GameCommand(f"p{n}", Pass())) is None
    assert core.state()["phase"] == "counting"
    for seat, pips in enumerate([3, 5, 11, 13]):
        assert core.command(cmd.GameCommand(f"c{seat}", Count(seat=seat, pips=pips))) is None
    state = core.state()
    assert state["phase"] == "hand_over"
    assert state["history"][0]["pips"] == [3, 5, 11, 13]
    check_all(core)


def test_a_source_offline_alert_says_its_detail_in_the_tables_language(tmp_path: Path) -> None:
    core, _ = core_at(tmp_path, rules="walnut", seats=4, language="es")
    core.source_status("board", False, "sin respuesta desde hace 3 s")
    (alert,) = core.state()["alerts"]
    assert (alert["code"], alert["severity"]) == ("BOARD_OFFLINE", "fault")
    assert alert["message"] == "El tablero no responde. sin respuesta desde hace 3 s"
    core.source_status("board", True)
    assert not core.state()["alerts"]
    check_all(core)


def test_an_undo_says_how_many_drawn_tiles_go_back_to_the_boneyard(tmp_path: Path) -> None:
    """spec/mqtt.md's `undo` `draws` (issue 24 point 2): the play taken back takes the
    draws told after it along, and the event says how many tiles the players return."""
    from engine import Tile

    core, _ = core_at(tmp_path, rules="straight", seats=2)  # draw one
    game = core.game
    assert game is not None
    judged = game.play(Tile.parse("6-6"), seat=0)
    assert judged.ok
    core._commit(play_input(last_play(game)), judged.events)
    boneyard = core.state()["boneyard"]
    assert core.command(cmd.GameCommand("d1", Draw(seat=1))) is None
    assert core.state()["boneyard"] == boneyard - 1
    assert core.command(cmd.GameCommand("u1", Undo())) is None
    (undo,) = [e for e in core.journal.pending() if e.kind == "undo"]
    assert undo.payload["draws"] == 1 and undo.payload["points"] == 0  # straight: no points
    assert core.state()["boneyard"] == boneyard  # the drawn tile is back
    assert core.state()["last"] == undo.payload
    check_all(core)  # every payload against the schema
    judged = game.play(Tile.parse("6-6"), seat=0)
    core._commit(play_input(last_play(game)), judged.events)
    assert core.command(cmd.GameCommand("u2", Undo())) is None
    undos = [e.payload for e in core.journal.pending() if e.kind == "undo"]
    assert [u["draws"] for u in undos] == [1, 0]  # nothing drawn after the second
    check_all(core)


def test_a_corrected_reading_is_still_that_tile_after_a_restart(tmp_path: Path) -> None:
    """A tile corrected with `correct` stays corrected across a restart: the surface seen
    after it (still showing the misreading) neither takes it back nor plays the
    misreading again."""
    from engine import Tile
    from engine.geometry import Placer
    from engine.inputs import Correct
    from engine.surface import Snapshot

    core, _ = core_at(tmp_path, rules="walnut", seats=2)
    game = core.game
    assert game is not None and core.reconciler is not None
    lead = Placer(900, 600).place(game.layout, [], Tile.parse("5-5"), None)
    core.observe(Snapshot((lead,)))
    assert core.command(cmd.GameCommand("l1", Lead(seat=0))) is None
    end = next(e for e in game.layout.ends if e.pip == 5)
    misread = Placer(900, 600).place(game.layout, [lead], Tile.parse("5-3"), end)
    surface = Snapshot((lead, misread))
    core.observe(surface)
    fix = Correct(Tile.parse("5-3"), Tile.parse("5-4"))
    assert core.command(cmd.GameCommand("c1", fix)) is None
    core.observe(surface)
    before = core.state()
    core.journal.close()

    again, heard = core_at(tmp_path, rules="walnut", seats=2)
    again.observe(surface)
    game = again.game
    assert game is not None and [n.tile.text for n in game.layout.nodes] == ["5-5", "5-4"]
    assert again.state() == before and heard == []  # nothing changed, nothing told
    again.journal.close()
