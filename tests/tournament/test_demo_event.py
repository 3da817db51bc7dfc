"""`domino-table demo --tournament 2`: an event of 3 rounds end to end, every part real.

Two table services (as `domino-table run`) on emulated boards, each on its own
Mosquitto bridged to a central one with the shipped bridge section, simulated players
laying tiles and confirming each result, the desk (`tournament --event`) seating them by
Swiss pairing, and its pages. Singles, walnut to 15, a 3-second round clock: short, and
some games may end on the clock. Checked: what the demo prints, every payload seen on
the central broker and every event the tables journaled against the schema, the tables'
journals (each game seated by the desk, its fields echoed, ended with a reason and
confirmed by both players), and the desk's journal (3 rounds, 6 results counted, no
rematch, the standings printed equal to a recomputation from the journal alone).
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import threading
import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.inputs import Confirm, NewGame
from service.store.journal import Journal
from tests.fixtures.mqtt_recorder import Recorder
from tests.fixtures.spec import validate
from tests.tournament.schema import check
from tournament import journal
from tournament.event import parse
from tournament.ledger import Ledger, TableStatus

pytestmark = pytest.mark.process

BIN = Path(sys.executable).parent / "domino-table"
ARGS = ["demo", "--tournament", "2", "--format", "singles", "--rules", "walnut",
        "--target", "15", "--time-limit", "0.05", "--pace", "0.02", "--seed", "4",
        "--http-port", "0"]  # fmt: skip


class Demo:
    """The demo as a child process; its lines as they come."""

    def __init__(self, state_dir: Path) -> None:
        self.proc = subprocess.Popen(
            [str(BIN), *ARGS, "--state-dir", str(state_dir)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        self.lines: list[str] = []
        self.seen = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with self.seen:
                self.lines.append(line.rstrip("\n"))
                self.seen.notify_all()

    def line(self, pattern: str, timeout: float = 60) -> re.Match[str]:
        with self.seen:
            ok = self.seen.wait_for(lambda: self._find(pattern) is not None, timeout)
            assert ok, "\n".join(self.lines)
            found = self._find(pattern)
        assert found is not None
        return found

    def _find(self, pattern: str) -> re.Match[str] | None:
        return next((m for line in self.lines if (m := re.search(pattern, line))), None)


@pytest.mark.slow
def test_demo_runs_an_event_of_three_rounds_to_the_end(tmp_path: Path) -> None:
    demo = Demo(tmp_path)
    rec: Recorder | None = None
    try:
        broker = demo.line(r"^MQTT: mosquitto_sub -h (\S+) -p (\d+) ")
        topics = ["domino/tournament/round", "domino/tournament/standings", "domino/+/result/+",
                  "domino/+/event/#", "domino/+/state"]  # fmt: skip
        rec = Recorder(broker[1], int(broker[2]), topics)  # validates every table payload
        assert demo.proc.wait(300) == 0, "\n".join(demo.lines)
    finally:
        if demo.proc.poll() is None:
            demo.proc.kill()
            demo.proc.wait(10)
        if rec is not None:
            rec.close()
    out = demo.lines
    assert out[-1] == "Demo Open is over: 3 rounds played.", "\n".join(out)
    assert [n for line in out if (n := _round_seated(line))] == [1, 2, 3]
    results = [line for line in out if re.match(r"^t[12], round [123]: ", line)]
    assert len(results) == 6 and all(re.search(r"\((target|time)\)$", r) for r in results)
    assert sum(": confirmed by " in line for line in out) == 6

    assert rec is not None
    for s in rec.seen:  # the desk's own payloads, as the central broker carried them
        if s.topic in ("domino/tournament/round", "domino/tournament/standings") and s.payload:
            check(s.topic.rsplit("/", 1)[1], s.json())
    assert any(s.topic.startswith("domino/t2/event/") for s in rec.seen)  # through the bridge

    event = parse(tomllib.loads((tmp_path / "event.toml").read_text()), "event.toml")
    ledger = Ledger(event)
    for record in journal.read(tmp_path / "desk" / "journal.sqlite"):
        ledger.apply(record)
    assert len(ledger.rounds) == 3 and all(r.closed for r in ledger.rounds)
    outcomes = {(r.number, t.table): t for r in ledger.rounds for t in r.tables.values()}
    assert all(t.status is TableStatus.REPORTED for t in outcomes.values())
    met = [frozenset(t.players) for t in outcomes.values()]
    assert len(set(met)) == 6  # Swiss: no rematch in 3 rounds of 4 players
    printed = _last_standings(out)
    assert printed == [(e.record.player, e.record.wins, e.record.points)
                       for e in ledger.standings()]  # fmt: skip

    for table in ("t1", "t2"):
        games = _table_games(tmp_path / table / "state", event.name)
        seated = {n: t for (n, name), t in outcomes.items() if name == table}
        assert sorted(games) == [1, 2, 3]
        for number, (started, over, confirmed) in games.items():
            assert started["players"] == over["players"] == seated[number].players
            assert started["ends_at"] is not None and over["reason"] in ("target", "time")
            outcome = seated[number].outcome
            assert outcome is not None and outcome.game_id == over["game_id"]
            assert sorted(outcome.confirmed_by) == [0, 1]  # the desk heard who confirmed
            assert sorted(confirmed) == [0, 1]


def _round_seated(line: str) -> int | None:
    found = re.match(r"^Round (\d) seated: t1 \w+ v \w+; t2 \w+ v \w+$", line)
    return int(found[1]) if found else None


def _last_standings(out: list[str]) -> list[tuple[str, int, int]]:
    """(player id, wins, points) from the last standings printed (names are p1.. by order)."""
    start = max(i for i, line in enumerate(out) if line == "Standings after round 3:")
    rows = []
    names = {"Ana": "p1", "Bo": "p2", "Cy": "p3", "Di": "p4"}
    for line in out[start + 1 : start + 5]:
        found = re.match(r"^ +\d\. (\w+) +(\d) of 3 won, (\d+) points, margin [+-]\d+$", line)
        assert found, line
        rows.append((names[found[1]], int(found[2]), int(found[3])))
    return rows


def _table_games(state_dir: Path, name: str) -> dict[int, tuple[Any, Any, list[int]]]:
    """Per round: the game's `started` and `over` events and the seats that confirmed it,
    from the table's own journal (every stored event checked against the schema)."""
    with Journal(state_dir, "check") as table:
        events = [table.event(seq) for seq in range(1, table.last_seq() + 1)]
        inputs = table.inputs()
    games: dict[str, dict[str, Any]] = {}
    for event in events:
        assert event is not None
        validate(event.kind, event.payload)
        if event.kind == "game" and event.payload.get("tournament") == name:
            games.setdefault(event.payload["game_id"], {})[event.payload["event"]] = event.payload
    confirmed: dict[int, list[int]] = {}
    game_round = 0
    for item in inputs:
        told = item.told
        if isinstance(told, NewGame):
            game_round = told.round or 0
        elif isinstance(told, Confirm) and told.seat is not None:
            confirmed.setdefault(game_round, []).append(told.seat)
    out = {}
    for game in games.values():
        number = game["started"]["round"]
        out[number] = (game["started"], game["over"], confirmed.get(number, []))
    return out


def test_a_desk_that_cannot_listen_ends_the_demo_with_the_reason(tmp_path: Path) -> None:
    """A busy --http-port: the demo says so and ends at once (it used to print the desk's
    address, wait 30 s for a reply from a desk that had never started, and blame that)."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        args = [*ARGS[: ARGS.index("--http-port")], "--http-port", str(port)]
        done = subprocess.run(
            [str(BIN), *args, "--state-dir", str(tmp_path)],
            check=False, capture_output=True, text=True,
            timeout=120,  # a hang guard, set for a loaded runner
        )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    said = f"the desk did not start: the pages cannot listen on 127.0.0.1:{port} (Address"
    assert said in done.stderr, done.stdout + done.stderr
