"""The desk hears who confirmed a result at the table: a counted result published again
with more seats in `confirmed_by` becomes a `confirmed` record, kept in the ledger,
shown in the round payload and the results export. No broker: the intake, the ledger
and the views, as the runner calls them."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from tests.tournament.hall import players
from tests.tournament.schema import check
from tournament import intake
from tournament.event import parse
from tournament.exports import results_csv
from tournament.journal import Kind, Record
from tournament.ledger import Ledger
from tournament.rounds import seat_round
from tournament.views import round_body

EVENT = parse(
    {"name": "Spring Open", "format": "singles", "rules": "walnut", "rounds": 2,
     "tables": ["t1"], "seed": 3, "players": players(2)},
    "test",
)  # fmt: skip


class Desk:
    """A ledger fed as the runner feeds it: each record applied as it is made."""

    def __init__(self) -> None:
        self.ledger = Ledger(EVENT)
        self.records: list[Record] = []
        self.apply([(Kind.EVENT, {"event": EVENT.model_dump(mode="json")})])
        self.apply([(Kind.SEATING, seat_round(self.ledger, datetime(2026, 11, 22, tzinfo=UTC)))])

    def apply(self, items: list[tuple[Kind, dict[str, Any]]]) -> list[Kind]:
        for kind, data in items:
            record = Record(len(self.records) + 1, "2026-11-22T10:00:00.000Z", kind, data)
            self.records.append(record)
            self.ledger.apply(record)
        return [kind for kind, _ in items]

    def result(self, **extra: Any) -> list[Kind]:
        seated = self.ledger.rounds[0].tables["t1"]
        body = {"v": 1, "table": "t1", "ts": "2026-11-22T10:40:00.000Z", "seq": 90,
                "game_id": "g1", "event": "over", "winner": 1, "team": None,
                "scores": [40, 105], "team_scores": [], "names": [s.name for s in seated.seats],
                "rules": "walnut", "target": 100, "reason": "target", "tournament": EVENT.name,
                "round": 1, "players": seated.players, "ends_at": None, **extra}  # fmt: skip
        return self.apply(intake.on_result(self.ledger, "t1", "g1", json.dumps(body).encode()))

    def confirmed(self) -> tuple[int, ...]:
        outcome = self.ledger.rounds[0].tables["t1"].outcome
        assert outcome is not None
        return outcome.confirmed_by


def test_each_new_confirmation_is_recorded_once() -> None:
    desk = Desk()
    assert desk.result() == [Kind.RESULT] and desk.confirmed() == ()
    assert desk.result() == []  # the same result again: nothing
    assert desk.result(confirmed_by=[1]) == [Kind.CONFIRMED] and desk.confirmed() == (1,)
    assert desk.result(confirmed_by=[1]) == []
    assert desk.result(confirmed_by=[1, 0]) == [Kind.CONFIRMED] and desk.confirmed() == (1, 0)
    again = Ledger(EVENT)  # the journal's records alone give the same
    for record in desk.records:
        again.apply(record)
    outcome = again.rounds[0].tables["t1"].outcome
    assert outcome is not None and outcome.confirmed_by == (1, 0)


def test_a_result_first_seen_confirmed_counts_with_its_confirmations() -> None:
    desk = Desk()
    assert desk.result(confirmed_by=[0, 1]) == [Kind.RESULT]
    assert desk.confirmed() == (0, 1)


def test_seats_that_do_not_exist_are_not_taken() -> None:
    desk = Desk()
    desk.result()
    assert desk.result(confirmed_by=[7, "0", True, None]) == []
    assert desk.result(confirmed_by="everyone") == []
    assert desk.confirmed() == ()


def test_the_round_payload_and_the_export_say_who_confirmed() -> None:
    desk = Desk()
    desk.result(confirmed_by=[1])
    body = round_body(desk.ledger, desk.ledger.rounds[0])
    check("round", {"v": 1, "ts": "2026-11-22T10:41:00.000Z", "seq": 5, **body})
    assert [t["confirmed_by"] for t in body["tables"]] == [[1]]
    rows = [line.split(",") for line in results_csv(desk.ledger).splitlines()]
    at = rows[0].index("confirmed")
    assert [(r[4], r[at]) for r in rows[1:]] == [("0", "0"), ("1", "1")]
