"""Tie-breaks in the event's order, head to head within the tied group, then the draw."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tournament.hall import players
from tournament.errors import JournalError
from tournament.event import TieBreak, parse
from tournament.journal import Journal, Kind
from tournament.ranking import Credit, draw_order, rank, records
from tournament.runner import open_ledger

T = TieBreak


def beat(winner: str, loser: str, points: tuple[int, int] = (50, 30)) -> list[Credit]:
    margin = points[0] - points[1]
    return [Credit(winner, True, points[0], margin, frozenset({loser})),
            Credit(loser, False, points[1], -margin, frozenset({winner}))]  # fmt: skip


ROSTER = [("a", "Ana"), ("b", "Bo"), ("c", "Cy"), ("d", "Di")]


def ranked(credits: list[Credit], ties: list[TieBreak], seed: int = 1) -> list[str]:
    return [e.record.player for e in rank(records(ROSTER, credits).values(), ties, seed)]


def test_wins_then_margin_then_points() -> None:
    credits = beat("a", "b", (60, 10)) + beat("c", "d", (40, 30)) + beat("b", "d", (45, 44))
    assert ranked(credits, [T.WINS, T.MARGIN, T.POINTS]) == ["a", "c", "b", "d"]
    # by points first: b has 10 + 45
    assert ranked(credits, [T.POINTS])[0] == "d"  # 30 + 44 = 74 is the most


def test_head_to_head_counts_only_games_within_the_tied_group() -> None:
    # a, b, c all 1 win; a beat b, b beat c, c beat d: within {a, b, c} a and b won 1, c 0
    credits = beat("a", "b") + beat("b", "c") + beat("c", "d") + beat("d", "a")
    order = rank(records(ROSTER, credits).values(), [T.WINS, T.HEAD_TO_HEAD], 1)
    assert [e.values["wins"] for e in order] == [1, 1, 1, 1]
    h2h = {e.record.player: e.values["head_to_head"] for e in order}
    assert h2h == {"a": 1, "b": 1, "c": 1, "d": 1}  # all four tied: each beat one of the rest
    credits = beat("a", "b") + beat("a", "c") + beat("b", "c") + beat("d", "c")
    names = ranked(credits, [T.WINS, T.HEAD_TO_HEAD])
    assert names[0] == "a" and names[-1] == "c"
    assert set(names[1:3]) == {"b", "d"}  # 1 win each, and they never met: the draw decides


def test_win_pct_and_averages() -> None:
    credits = beat("a", "b", (30, 20)) + beat("c", "d", (90, 0)) + beat("b", "c", (40, 20))
    out = rank(records(ROSTER, credits).values(), [T.WIN_PCT, T.AVG_POINTS], 1)
    values = {e.record.player: e.values for e in out}
    assert values["a"]["win_pct"] == 1.0 and values["c"]["win_pct"] == 0.5
    assert values["c"]["avg_points"] == 55.0 and values["d"]["avg_points"] == 0.0


def test_the_seeded_draw_breaks_what_is_left_every_rank_distinct() -> None:
    first = rank(records(ROSTER, []).values(), [T.WINS], seed=7)
    assert [e.rank for e in first] == [1, 2, 3, 4]
    assert [e.record.player for e in first] == draw_order(7, ["a", "b", "c", "d"])
    assert [e.values["draw"] for e in first] == [1, 2, 3, 4]
    orders = {tuple(draw_order(seed, ["a", "b", "c", "d"])) for seed in range(20)}
    assert len(orders) > 5  # the seed matters


def test_the_journal_is_append_only_and_belongs_to_one_event(tmp_path: Path) -> None:
    body = {"name": "E", "format": "singles", "rules": "walnut", "rounds": 2, "tables": ["t1"],
            "seed": 1, "players": players(2)}  # fmt: skip
    journal = Journal(tmp_path / "journal.sqlite")
    ledger = open_ledger(journal, parse(body, "e.toml"), "2026-01-01T00:00:00.000Z")
    assert ledger.last == 1
    journal.append("2026-01-01T00:00:01.000Z", Kind.CHECK_IN, {"player": "p1", "present": True})
    for sql in ("UPDATE journal SET kind = 'x'", "DELETE FROM journal"):
        with pytest.raises(Exception, match="the journal is append-only"):
            journal.db.execute(sql)
    again = open_ledger(journal, parse(body, "e.toml"), "2026-01-01T00:00:02.000Z")
    assert again.players["p1"].checked_in and again.last == 2
    with pytest.raises(JournalError, match=r"began with another event file \(changed: rounds\)"):
        open_ledger(journal, parse({**body, "rounds": 3}, "e.toml"), "ts")
    journal.close()
