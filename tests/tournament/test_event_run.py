"""A whole event through the real desk on bridged brokers: seatings sent to the tables,
results back, rounds closed, standings published; a restart mid-round."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.mqtt_recorder import Recorder
from tests.tournament.hall import ROUND, STANDINGS, Hall, players
from tests.tournament.schema import check
from tournament.views import standings_body

pytestmark = [pytest.mark.broker, pytest.mark.process]


def individual(count: int, rounds: int, **more: Any) -> dict[str, Any]:
    return {"name": "Spring Open", "format": "individual", "rules": "puerto-rico",
            "target": 40, "rounds": rounds, "tables": ["t1", "t2", "t3"], "seed": 2026,
            "tie_breaks": ["wins", "margin", "points"], "players": players(count),
            **more}  # fmt: skip


def all_reported(number: int) -> Any:
    def test(p: dict[str, Any]) -> bool:
        return p["round"] == number and all(t["status"] == "reported" for t in p["tables"])

    return test


def play_round(hall: Hall, number: int) -> dict[str, Any]:
    cmd = {"id": f"start-{number}", "action": "start_round"}
    check("desk_command", cmd)
    reply = hall.command(cmd)
    assert reply["ok"], reply
    assert reply["detail"]["round"] == number
    done = hall.latest(ROUND, all_reported(number), timeout=60)
    close = hall.command({"id": f"close-{number}", "action": "close_round"})
    assert close["ok"] and close["detail"] == {"round": number, "not_played": []}
    return done


@pytest.mark.slow
def test_an_individual_event_of_three_rounds_on_bridged_tables(tmp_path: Path) -> None:
    hall = Hall(tmp_path, individual(13, 3))
    try:
        hall.open()
        rounds = [play_round(hall, n) for n in (1, 2, 3)]
        final = hall.latest(STANDINGS, lambda p: p["round"] == 3)
        # every table got its new_game with the tournament fields, answered it, played it
        for table in hall.tables.values():
            games = [c for c in table.commands if c.get("action") == "new_game"]
            assert [g["round"] for g in games][:1] == [1] and {g["round"] for g in games} == {
                1, 2, 3}  # fmt: skip
            for g in games:
                assert g["tournament"] == "Spring Open" and g["teams"] == [0, 1, 0, 1]
                assert g["target"] == 40 and g["rules"] == "puerto-rico" and g["ends_at"] is None
            assert not table.errors, table.errors
        # partners never twice; one bye a round, to three different players
        partners: Counter[frozenset[str]] = Counter()
        for rnd in rounds:
            for t in rnd["tables"]:
                ids = [s["player"] for s in t["seats"]]
                assert [s["team"] for s in t["seats"]] == [0, 1, 0, 1]
                partners[frozenset(ids[0::2])] += 1
                partners[frozenset(ids[1::2])] += 1
        assert max(partners.values()) == 1
        byes = [p for rnd in rounds for p in rnd["byes"]]
        assert len(byes) == 3 and len(set(byes)) == 3
        # standings: every roster player, ranked 1..13, equal to the journal's recomputation
        entries = final["entries"]
        assert [e["rank"] for e in entries] == list(range(1, 14))
        assert {e["player"] for e in entries} == {f"p{n}" for n in range(1, 14)}
        played = {e["player"]: e["games"] for e in entries}
        assert all(played[p] == (2 if p in byes else 3) for p in played)
        assert all(set(e["tie_breaks"]) == {"wins", "margin", "points", "draw"} for e in entries)
        again = standings_body(hall.journal_ledger(), final["tables"])
        assert again["entries"] == entries and final["uncounted"] == []
        for payload in hall.every(ROUND) + hall.every(STANDINGS):
            assert payload["tournament"] == "Spring Open"
        late = Recorder(hall.central.host, hall.central.port, [ROUND, STANDINGS])
        try:  # retained, QoS 1: a newcomer gets the round and the standings at once
            got = late.wait_for(lambda seen: {s.topic for s in seen} == {ROUND, STANDINGS})
            assert all(s.retain for s in got)
            assert {s.topic: s.json()["round"] for s in got} == {ROUND: 3, STANDINGS: 3}
        finally:
            late.close()
        over = hall.command({"id": "start-4", "action": "start_round"})
        assert over["ok"] is False and over["error"] == "all 3 rounds have been played"
    finally:
        hall.close()
