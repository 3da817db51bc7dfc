"""The real desk on bridged brokers: resending until acknowledged, a restart mid-round,
the director's corrections, results it must not count, the clock, a pairs event."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.tournament.hall import ROUND, STANDINGS, Hall, players
from tests.tournament.tables import publish_once, result_payload
from tournament.journal import Kind

pytestmark = [pytest.mark.broker, pytest.mark.process]

TWO_TABLES = ["t1", "t2"]


def singles(count: int, **more: Any) -> dict[str, Any]:
    return {"name": "Club Night", "format": "singles", "rules": "walnut", "target": 30,
            "rounds": 3, "tables": TWO_TABLES, "seed": 11, "players": players(count),
            **more}  # fmt: skip


def statuses(p: dict[str, Any]) -> dict[str, str]:
    return {t["table"]: t["status"] for t in p["tables"]}


def by_table(p: dict[str, Any]) -> dict[str, list[str]]:
    return {t["table"]: [s["player"] for s in t["seats"]] for t in p["tables"]}


def round_done(number: int) -> Callable[[dict[str, Any]], bool]:
    def test(p: dict[str, Any]) -> bool:
        return p["round"] == number and set(statuses(p).values()) == {"reported"}

    return test


def new_game_ids(hall: Hall, table: str) -> list[str]:
    return [c["id"] for c in hall.tables[table].commands if c.get("action") == "new_game"]


def test_new_game_is_resent_until_acknowledged_and_a_refusal_gets_a_new_id(
    tmp_path: Path,
) -> None:
    hall = Hall(tmp_path, singles(4), hold=True)
    try:
        hall.open({"t1": {"ignore": 2}, "t2": {"refuse": 1}})
        assert hall.command({"id": "s1", "action": "start_round"})["ok"]
        playing = hall.latest(ROUND, lambda p: p["state"] == "playing", timeout=30)
        assert set(statuses(playing).values()) <= {"ready", "playing"}
        t1, t2 = new_game_ids(hall, "t1"), new_game_ids(hall, "t2")
        assert len(t1) >= 3 and len(set(t1[:3])) == 1 and t1[0].endswith("-r1-t1-1")
        assert t2[0].endswith("-r1-t2-1") and t2[-1].endswith("-r1-t2-2")
        rounds = hall.every(ROUND)
        assert rounds[0]["state"] == "seated" and statuses(rounds[0])["t1"] == "sent"
        # t2: sent, then refused, then taken; its refusal can come before the desk's first
        # publication (a burst within publish_interval_s goes out as one)
        t2_seen = [statuses(p)["t2"] for p in rounds]
        assert "refused" in t2_seen, "the refusal is shown until the table takes the next attempt"
        assert set(t2_seen[: t2_seen.index("refused")]) <= {"sent"}, t2_seen
    finally:
        hall.close()


def test_a_desk_killed_mid_round_comes_back_with_the_same_seating(tmp_path: Path) -> None:
    hall = Hall(tmp_path, singles(5), hold=True)
    try:
        hall.open()
        assert hall.command({"id": "s1", "action": "start_round"})["ok"]
        before = hall.latest(ROUND, lambda p: set(statuses(p).values()) == {"playing"})
        hall.desk.kill()
        hall.desk.start()
        after = hall.latest(ROUND, lambda p: p["seq"] > before["seq"])
        assert by_table(after) == by_table(before) and after["byes"] == before["byes"]
        assert after["round"] == 1 and after["state"] == "playing"
        for table in hall.tables.values():
            table.release()
        done = hall.latest(ROUND, lambda p: set(statuses(p).values()) == {"reported"})
        assert by_table(done) == by_table(before)
        # the same command id again, to the restarted desk: the same reply, not applied twice
        again = hall.command({"id": "s1", "action": "start_round"})
        assert again["ok"] and again["detail"]["round"] == 1
        seatings = [r for r in hall.journal_records() if r.kind is Kind.SEATING]
        assert len(seatings) == 1
    finally:
        hall.close()


def test_malformed_and_out_of_place_commands_are_refused_and_change_nothing(
    tmp_path: Path,
) -> None:
    hall = Hall(tmp_path, singles(5), hold=True)
    try:
        hall.open()
        assert hall.command({"id": "s1", "action": "start_round"})["ok"]
        hall.latest(ROUND, lambda p: p["state"] == "playing")
        bye = hall.latest(ROUND)["byes"][0]
        before = hall.journal_ledger()
        refusals = {
            "m1": ({"action": "nope"}, "unknown action 'nope'"),
            "m2": ({"action": "void", "table": "t1"}, "void: game_id: Field required"),
            "m3": ({"action": "start_round"}, "round 1 is still open: close it first"),
            "m4": ({"action": "forfeit", "round": 1, "player": bye, "reason": "late"},
                   f"{bye} has no seat in round 1 (a bye?)"),
            "m5": ({"action": "result", "table": "t9", "round": 1, "scores": [1, 2]},
                   "table t9 has no seating in round 1"),
            "m6": ({"action": "result", "table": "t1", "round": 1, "scores": [1]},
                   "result: 2 seats, 1 scores given"),
            "m7": ({"action": "void", "table": "t1", "game_id": "g0", "reason": "x"},
                   "no counted game 'g0' at table t1"),
            "m8": ({"action": "withdraw", "player": "p99"}, "no player 'p99' in the roster"),
        }  # fmt: skip
        for cid, (body, why) in refusals.items():
            reply = hall.command({"id": cid, **body})
            assert reply["ok"] is False and why in reply["error"], (cid, reply)
        assert hall.command({"id": "p9", "action": "add_player", "name": "Zed"})["ok"]
        twice = hall.command({"id": "a2", "action": "add_player", "player": "p9", "name": "Al"})
        assert twice["error"] == "'p9' is already in the roster"
        publish_once(hall.central.host, hall.central.port, "domino/tournament/cmd", b"{oops",
                     retain=False)  # fmt: skip
        assert hall.command({"id": "", "action": "close_round"})["ok"] is False
        after = hall.journal_ledger()
        added = [r for r in hall.journal_records() if r.kind not in (Kind.COMMAND, Kind.ACK,
                 Kind.STARTED, Kind.ADD_PLAYER) and r.n > before.last]  # fmt: skip
        assert added == []
        assert [r.number for r in after.rounds] == [1] and len(after.players) == 6
    finally:
        hall.close()


def test_void_enter_forfeit_and_results_that_do_not_count(tmp_path: Path) -> None:
    hall = Hall(tmp_path, singles(5), hold=True)
    try:
        hall.open()
        assert hall.command({"id": "s1", "action": "start_round"})["ok"]
        seated = hall.latest(ROUND, lambda p: set(statuses(p).values()) == {"playing"})
        t1, t2 = by_table(seated)["t1"], by_table(seated)["t2"]
        hall.tables["t1"].release()
        reported = hall.latest(ROUND, lambda p: statuses(p)["t1"] == "reported")
        game = next(t["game_id"] for t in reported["tables"] if t["table"] == "t1")
        # void the table's game; enter the result by hand instead
        void = {"id": "v1", "action": "void", "table": "t1", "game_id": game,
                "reason": "a misread tile"}  # fmt: skip
        assert hall.command(void)["ok"]
        hall.latest(ROUND, lambda p: statuses(p)["t1"] == "void")
        entered = {"id": "e1", "action": "result", "table": "t1", "round": 1, "scores": [12, 31]}
        first = hall.command(entered)
        assert first["ok"] and first["detail"] == {"game_id": "entered-r1-1"}
        second = hall.command(entered)
        assert second == {**first, "ts": second["ts"]}
        # t2's first seat forfeits; its game, reported later, does not count
        forfeit = {"id": "f1", "action": "forfeit", "round": 1, "player": t2[0],
                   "reason": "left the hall"}  # fmt: skip
        assert hall.command(forfeit)["ok"]
        hall.tables["t2"].release()
        # a practice game and a replay of the voided game count nowhere either
        practice = result_payload("t1", "practice-1", ["Ana", "Bo"], [100, 3], winner=0)
        t1_broker = hall.brokers["t1"]
        publish_once(t1_broker.host, t1_broker.port, "domino/t1/result/practice-1", practice)
        publish_once(t1_broker.host, t1_broker.port, f"domino/t1/result/{game}",
                     hall.tables["t1"].results[0][1])  # fmt: skip
        final = hall.latest(STANDINGS, lambda p: len(p["uncounted"]) == 2)
        why = {u["game_id"]: u["why"] for u in final["uncounted"]}
        assert why["practice-1"] == "not a game of Club Night (practice)"
        t2_game = hall.tables["t2"].results[0][0]
        assert (
            why[t2_game]
            == "t2 already has round 1's result (forfeit-r1): void it to count this one"
        )
        entries = {e["player"]: e for e in final["entries"]}
        assert (entries[t1[1]]["wins"], entries[t1[1]]["points"], entries[t1[1]]["margin"]) == (
            1,
            31,
            19,
        )
        assert (entries[t1[0]]["wins"], entries[t1[0]]["margin"]) == (0, -19)
        assert (entries[t2[1]]["wins"], entries[t2[0]]["wins"]) == (1, 0)
        assert entries[t2[0]]["games"] == 1 and entries[t2[0]]["points"] == 0
        assert statuses(hall.latest(ROUND))["t2"] == "forfeit"
        entered_records = [r for r in hall.journal_records() if r.kind is Kind.ENTERED]
        assert len(entered_records) == 1
    finally:
        hall.close()


def test_roster_changes_take_effect_in_the_next_round(tmp_path: Path) -> None:
    hall = Hall(tmp_path, singles(4))
    try:
        hall.open()
        assert hall.command({"id": "s1", "action": "start_round"})["ok"]
        hall.latest(ROUND, lambda p: set(statuses(p).values()) == {"reported"}, timeout=60)
        assert hall.command({"id": "p5", "action": "add_player", "name": "Eve"})["ok"]
        assert hall.command({"id": "w1", "action": "withdraw", "player": "p1"})["ok"]
        closed = hall.command({"id": "c1", "action": "close_round"})
        assert closed["ok"] and closed["detail"]["not_played"] == []
        assert hall.command({"id": "s2", "action": "start_round"})["ok"]
        second = hall.latest(ROUND, lambda p: p["round"] == 2)
        seated = {p for ids in by_table(second).values() for p in ids}
        assert "p1" not in seated and "p1" not in second["byes"]
        assert seated == {"p2", "p3", "p4", "p5"}
        standings = hall.latest(STANDINGS, lambda p: p["round"] == 1)
        assert {e["player"] for e in standings["entries"]} == {"p1", "p2", "p3", "p4", "p5"}
    finally:
        hall.close()


@pytest.mark.slow
def test_the_round_clock_ends_games_on_time(tmp_path: Path) -> None:
    hall = Hall(tmp_path, singles(4, target=500, time_limit_min=0.02), pause_s=0.02)
    try:
        hall.open()
        assert hall.command({"id": "s1", "action": "start_round"})["ok"]
        seated = hall.latest(ROUND)
        assert seated["ends_at"] is not None
        done = hall.latest(ROUND, lambda p: set(statuses(p).values()) == {"reported"}, timeout=90)
        for table in hall.tables.values():
            sent = [c for c in table.commands if c.get("action") == "new_game"]
            assert sent[0]["ends_at"] == seated["ends_at"]
            assert table.results[0][1]["reason"] == "time"
        standings = hall.latest(STANDINGS, lambda p: sum(e["games"] for e in p["entries"]) == 4)
        assert sum(e["wins"] for e in standings["entries"]) == 2
        assert done["ends_at"] == seated["ends_at"]
    finally:
        hall.close()


@pytest.mark.slow
def test_a_pairs_event_swiss_without_rematches(tmp_path: Path) -> None:
    pairs = [{"id": f"A{n}", "players": [f"p{2 * n - 1}", f"p{2 * n}"]} for n in range(1, 6)]
    body = {"name": "Pairs Cup", "format": "pairs", "rules": "puerto-rico", "target": 40,
            "rounds": 3, "tables": TWO_TABLES, "seed": 5, "players": players(10),
            "pairs": pairs}  # fmt: skip
    hall = Hall(tmp_path, body)
    try:
        hall.open()
        met: set[frozenset[frozenset[str]]] = set()
        bye_pairs = []
        for n in (1, 2, 3):
            assert hall.command({"id": f"s{n}", "action": "start_round"})["ok"]
            rnd = hall.latest(ROUND, round_done(n), timeout=60)
            for ids in by_table(rnd).values():
                a, b = frozenset(ids[0::2]), frozenset(ids[1::2])
                assert {a, b} <= {frozenset(p["players"]) for p in pairs}
                assert frozenset((a, b)) not in met
                met.add(frozenset((a, b)))
            bye_pairs.append(frozenset(rnd["byes"]))
            assert hall.command({"id": f"c{n}", "action": "close_round"})["ok"]
        assert len(set(bye_pairs)) == 3
        final = hall.latest(STANDINGS, lambda p: p["round"] == 3)
        for pair in pairs:
            a, b = ({e["player"]: e for e in final["entries"]}[p] for p in pair["players"])
            assert (a["games"], a["wins"], a["points"]) == (b["games"], b["wins"], b["points"])
    finally:
        hall.close()
