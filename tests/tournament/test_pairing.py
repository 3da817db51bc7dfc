"""Seating by format, on the ledger alone (no broker): partners never twice, no rematch
while one can be avoided, byes rotating, the same seed and results the same seating."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from typing import Any

import pytest

from tests.tournament.hall import players
from tournament.commands import decide, parse
from tournament.event import EventConfig
from tournament.event import parse as parse_event
from tournament.journal import Kind, Record
from tournament.ledger import Ledger

NOW = datetime(2026, 5, 1, 10, 0, tzinfo=UTC)


def event(fmt: str, count: int, rules: str, tables: int, **more: Any) -> EventConfig:
    body: dict[str, Any] = {"name": "E", "format": fmt, "rules": rules, "rounds": 9,
                            "tables": [f"t{n}" for n in range(1, tables + 1)], "seed": 3,
                            "players": players(count), **more}  # fmt: skip
    if fmt == "pairs":
        body["pairs"] = [{"id": f"A{n}", "players": [f"p{2 * n - 1}", f"p{2 * n}"]}
                         for n in range(1, count // 2 + 1)]  # fmt: skip
    return parse_event(body, "test")


class Run:
    """A ledger fed records as the desk would, with made-up results."""

    def __init__(self, ev: EventConfig) -> None:
        self.ledger = Ledger(ev)
        self.n = 0

    def apply(self, kind: Kind, data: dict[str, Any]) -> None:
        self.n += 1
        self.ledger.apply(Record(self.n, "ts", kind, data))

    def round(self, winner_seat: int = 0) -> list[list[str]]:
        """Seat a round, let seat `winner_seat`'s side win everywhere, close it."""
        _, items = decide(self.ledger, parse({"id": f"s{self.n}", "action": "start_round"}), NOW)
        for kind, data in items:
            self.apply(kind, data)
        rnd = self.ledger.current
        assert rnd is not None
        for t in rnd.tables.values():
            win = t.side(t.seats[winner_seat])
            scores = {str(t.side(s)): (50 if t.side(s) == win else 10 * s.seat)
                      for s in t.seats}  # fmt: skip
            self.apply(Kind.RESULT, {"round": rnd.number, "table": t.table, "game_id": f"g{self.n}",
                                     "scores": scores, "winners": [win]})  # fmt: skip
        self.apply(Kind.CLOSE, {"round": rnd.number, "not_played": []})
        return [t.players for t in rnd.tables.values()]


def test_individual_partners_never_twice_and_opponents_spread() -> None:
    run = Run(event("individual", 16, "puerto-rico", 4))
    seatings = [run.round() for _ in range(5)]
    history = run.ledger.history()
    assert max(history.partners.values()) == 1
    assert max(history.opponents.values()) <= 2
    # 16 players, 5 rounds, 2 opponents a round each: 160 pairings over 120 pairs
    assert sum(1 for c in history.opponents.values() if c > 1) <= 40
    assert all(len({p for t in s for p in t}) == 16 for s in seatings)


def test_individual_without_partnerships_four_each_for_themself() -> None:
    run = Run(event("individual", 9, "walnut", 2))
    seatings = [run.round() for _ in range(3)]
    assert all(len(t) == 4 for s in seatings for t in s)
    byes = [b for r in run.ledger.rounds for b in r.byes]
    assert len(byes) == 3 and len(set(byes)) == 3
    assert all(t.seats[0].team is None for r in run.ledger.rounds for t in r.tables.values())


@pytest.mark.parametrize(("fmt", "count", "rules"), [("singles", 9, "walnut"),
                                                     ("pairs", 10, "puerto-rico")])  # fmt: skip
def test_swiss_no_rematch_while_avoidable_and_byes_rotate(fmt: str, count: int, rules: str) -> None:
    run = Run(event(fmt, count, rules, 5))
    for _ in range(4):
        run.round()
    history = run.ledger.history()
    assert max(history.opponents.values()) == 1
    per_round = [tuple(r.byes) for r in run.ledger.rounds]
    assert len(set(per_round)) == 4 and all(per_round)


def test_swiss_pairs_leaders_together() -> None:
    """After round 1 the winners meet the winners: seat 0 always won round 1."""
    run = Run(event("singles", 8, "walnut", 4))
    first = run.round()
    winners = {t[0] for t in first}
    second = run.round()
    for table in second:
        assert (table[0] in winners) == (table[1] in winners)


def test_the_same_seed_and_results_give_the_same_seating_another_seed_another() -> None:
    def seatings(seed: int) -> list[list[list[str]]]:
        run = Run(event("individual", 12, "puerto-rico", 3, seed=seed))
        return [run.round(winner_seat=n % 2) for n in range(3)]

    assert seatings(3) == seatings(3)
    assert seatings(3) != seatings(4)


def test_too_few_players_cannot_be_seated() -> None:
    run = Run(event("individual", 3, "puerto-rico", 2))
    with pytest.raises(Exception, match="only 3 players can be seated; a table needs 4"):
        run.round()


def test_check_in_seats_only_those_present() -> None:
    run = Run(event("singles", 6, "walnut", 3, check_in=True))
    for pid in ("p1", "p2", "p4", "p5"):
        run.apply(Kind.CHECK_IN, {"player": pid, "present": True})
    seated = {p for t in run.round() for p in t}
    assert seated == {"p1", "p2", "p4", "p5"} and run.ledger.rounds[0].byes == []


def test_more_players_than_tables_sit_out_in_turn() -> None:
    run = Run(event("singles", 8, "walnut", 2))
    for _ in range(3):
        run.round()
    byes = Counter(b for r in run.ledger.rounds for b in r.byes)
    assert sum(byes.values()) == 12 and max(byes.values()) - min(byes.values(), default=0) <= 1
    assert len(byes) == 8
