"""Counts given seat by seat with their tiles reach the engine's checks (issue 15)."""

from __future__ import annotations

from pathlib import Path

from engine import Target, Tile
from engine.inputs import Count, Lead, Pass
from service.core import commands as cmd
from service.core.table import play_input
from tests.service.core.test_table_core import check_all, core_at, last_play

t = Tile.parse

# tests/engine/replays/straight-block-renege.jsonl: seat 1 knocks twice holding 5-3.
PLAYS = [
    ("6-6", None),
    ("6-0", "6-6"),
    ("6-2", "6-6"),
    ("4-2", "6-2"),
    ("0-0", "6-0"),
    ("5-4", "4-2"),
    (None, None),
    ("5-5", "5-4"),
    (None, None),
    ("5-1", "5-5"),
    ("1-1", "5-1"),
    ("2-1", "1-1"),
    (None, None),
    (None, None),
]


def test_tiles_counted_seat_by_seat_are_checked_and_catch_each_false_knock(
    tmp_path: Path,
) -> None:
    core, _ = core_at(tmp_path, rules="straight-block", seats=2)
    game = core.game
    assert game is not None
    assert core.command(cmd.GameCommand("l", Lead(seat=1))) is None
    for n, (tile, to) in enumerate(PLAYS):
        if tile is None:
            assert core.command(cmd.GameCommand(f"p{n}", Pass())) is None
            continue
        judged = game.play(t(tile), Target(t(to)) if to else None)
        assert judged.ok, judged
        core._commit(play_input(last_play(game)), judged.events)
    assert core.state()["phase"] == "counting"
    assert core.command(cmd.GameCommand("c0", Count(seat=0, tiles=(Tile.parse("6-3"),)))) is None
    short = core.command(
        cmd.GameCommand("c1", Count(seat=1, tiles=tuple(map(Tile.parse, ("5-3", "3-3")))))
    )
    assert short == "The count disagrees with the game: Player 2 should hold 3 tiles, shows 2."
    assert core.state()["phase"] == "counting"  # refused; seat 0's count still stands
    assert (
        core.command(
            cmd.GameCommand(
                "c2", Count(seat=1, tiles=tuple(map(Tile.parse, ("5-3", "3-3", "4-4"))))
            )
        )
        is None
    )
    state = core.state()
    assert state["phase"] == "hand_over"
    assert state["history"][0]["pips"] == [9, 22] and state["history"][0]["points"] == 13
    knocks = [e.payload for e in core.journal.pending() if e.kind == "alert"]
    assert [(a["code"], a["seat"], a["tile"]) for a in knocks] == [("FALSE_KNOCK", 1, "5-3")] * 2
    check_all(core)
