"""A whole event, unattended: 50 tables, each on its own Mosquitto bridged to a central
one, 5 rounds seated, played and closed by the desk itself, through a cut of every link
and a desk killed and restarted.

    .venv/bin/python -m benchmarks.tournament [--tables 50] [--rounds 5] [--pause 0.05]

The desk is the real `domino-table tournament --event` process (publish interval 0.25 s,
`auto_advance = true`: it closes a round once every table reported and seats the next).
Each table is a `SeatedTable` (tests/tournament/tables.py): it answers the desk's
`new_game` through its bridge and plays a real engine game (puerto-rico to 60, four
seats in partnerships, random legal moves, `--pause` seconds between events), then
publishes its result. The event is `individual`: players x 4 players, partners rotated.

Mid-event the central broker is stopped for `--outage` seconds (every bridge and the
desk lose it; the tables play on and their brokers queue), and later the desk is
SIGKILLed mid-round and started again from its journal. The script prints:

- seating time per round: the desk's own measure of its seating (the `start_round`
  reply's `seating_ms`), and from the previous round's last result (published at its
  table) to the round's seating seen on the central broker;
- result-to-standings lag, p50 and p99, over all results and over those published
  outside the outage and the desk's restart (from 1 s before each until the first
  standings after it, and for the outage until the table's own link is back: its
  bridge retries with a backoff of up to 10 s): per result, from its publication at its
  table (on its own broker) to the first standings on the central broker that count it
  (each of its players credited with that round's game), split into the bridge's
  share, seen by a bare paho subscriber on the central broker (the named alternative: what any
  subscriber gets there with no desk), and the desk's (that subscriber's arrival of
  the result to the standings counting it); both seen by a probe in a process of its
  own, so the 50 tables' threads here do not delay it. The first measure, the k-th
  result published to the first standings counting k games as seen in this process, is
  printed after it (matched in order, a result counted late delays those after it);
- the three slowest results outside those windows, with when they were published;
- the desk's CPU (user + system, both of its processes, before the kill and after the
  restart) per result counted, and per message it took in;
- the desk's memory (RSS now and peak) at the end;
- whether the last retained standings equal a recomputation from the desk's journal.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import networkx as nx
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from tests.tournament.hall import ROUND, STANDINGS, Hall, players
from tournament import journal, pairing
from tournament.event import parse
from tournament.ledger import Ledger
from tournament.views import standings_body

RESULTS = "domino/+/result/+"
STATES = "domino/+/state"


class Watch:
    """Round and standings payloads on the central broker, with when they arrived."""

    def __init__(self, port: int) -> None:
        self.rounds: list[tuple[float, dict[str, Any]]] = []
        self.standings: dict[str, Any] | None = None
        self.counts: list[tuple[float, int]] = []  # (arrival, games the standings count)
        self.lock = threading.Condition()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2)
        self.client.on_connect = lambda c, *a: c.subscribe([(ROUND, 1), (STANDINGS, 1)])
        self.client.on_message = self._on_message
        self.client.reconnect_delay_set(1, 2)
        self.client.connect_async("127.0.0.1", port)
        self.client.loop_start()

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        if not msg.payload:
            return
        now, body = time.time(), json.loads(msg.payload)
        with self.lock:
            if msg.topic == STANDINGS:
                self.standings = body
                self.counts.append((now, sum(e["games"] for e in body["entries"]) // 4))
            else:
                self._round(now, body)
            self.lock.notify_all()

    def _round(self, now: float, body: dict[str, Any]) -> None:
        self.rounds.append((now, body))

    def latest(self) -> dict[str, Any] | None:
        with self.lock:
            return self.rounds[-1][1] if self.rounds else None

    def wait(self, test: Any, timeout: float, what: str) -> None:
        with self.lock:
            if not self.lock.wait_for(lambda: test(self.latest()), timeout):
                raise SystemExit(f"timed out after {timeout:.0f} s waiting for {what}")

    def standings_after(self, moment: float, timeout: float) -> float:
        """When the first standings after `moment` arrived (waiting for them)."""

        def first() -> float | None:
            return next((t for t, _ in self.counts if t > moment), None)

        with self.lock:
            if not self.lock.wait_for(lambda: first() is not None, timeout):
                raise SystemExit(f"no standings within {timeout:.0f} s")
            found = first()
            assert found is not None
            return found

    def counted(self, games: int) -> float | None:
        """When the standings first counted `games` games."""
        with self.lock:
            return next((t for t, n in self.counts if n >= games), None)

    def first_seen(self, number: int) -> float | None:
        with self.lock:
            return next((t for t, b in self.rounds if b["round"] == number), None)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def probe(port: int, out: Path) -> None:
    """The bare subscriber on the central broker (`--probe PORT FILE`, a process of its
    own): one JSON line per result, and per standings whose games counted changed, each
    with when it arrived. Runs until killed."""
    lines = out.open("w", encoding="utf-8", buffering=1)
    last: dict[str, int] | None = None
    heard: dict[str, float] = {}  # table -> when its last state arrived

    def on_message(client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        nonlocal last
        now = time.time()
        if not msg.payload:
            return
        if msg.topic.endswith("/state"):  # a playing table's link is back after a silence
            table = msg.topic.split("/")[1]
            if now - heard.get(table, now) > 1.0:
                lines.write(json.dumps({"t": now, "back": table}) + "\n")
            heard[table] = now
        elif msg.topic == STANDINGS:
            games = {e["player"]: e["games"] for e in json.loads(msg.payload)["entries"]}
            if games != last:
                last = games
                lines.write(json.dumps({"t": now, "games": games}) + "\n")
        else:
            lines.write(json.dumps({"t": now, "topic": msg.topic, "retain": msg.retain}) + "\n")

    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.on_connect = lambda c, *a: c.subscribe([(RESULTS, 1), (STANDINGS, 1), (STATES, 0)])
    client.on_message = on_message
    client.reconnect_delay_set(1, 2)
    client.connect_async("127.0.0.1", port)
    client.loop_forever(retry_first_connection=True)


class Probe:
    """`probe` in a child process, and what it saw."""

    def __init__(self, port: int, tmp: Path) -> None:
        self.file = tmp / "probe.jsonl"
        args = [sys.executable, "-m", "benchmarks.tournament", "--probe", str(port), str(self.file)]
        self.proc = subprocess.Popen(args)

    def read(self) -> None:
        """Stop it and read what it saw: when each result topic first arrived
        (`arrived`), the standings' games (`games`) and each table's link back after a
        silence (`back`: table -> times)."""
        self.proc.terminate()
        self.proc.wait(10)
        self.arrived: dict[str, float] = {}
        self.games: list[tuple[float, dict[str, int]]] = []
        self.back: dict[str, list[float]] = {}
        for line in self.file.read_text(encoding="utf-8").splitlines():
            seen = json.loads(line)
            if "games" in seen:
                self.games.append((seen["t"], seen["games"]))
            elif "back" in seen:
                self.back.setdefault(seen["back"], []).append(seen["t"])
            else:
                self.arrived.setdefault(seen["topic"], seen["t"])

    def link_back(self, table: str, after: float) -> float:
        """When the table's link was back after `after` (the central broker's stop)."""
        return next((t for t in self.back.get(table, []) if t > after), after)


class DeskCpu:
    """The desk's CPU seconds (user + system) and messages taken in, over its processes."""

    def __init__(self) -> None:
        self.cpu_s = 0.0
        self.messages = 0

    def add(self, hall: Hall) -> None:
        """Before the desk is killed, and at the end: what this process used."""
        assert hall.desk.proc is not None
        self.messages += int(hall.desk.get_json("/api/stats")["messages"])
        self.cpu_s += hall.desk.cpu_s()


def networkx_match(count: int, cost: pairing.Costs) -> list[tuple[int, int]]:
    """The seating's matching as the desk made it before rustworkx: networkx's
    pure-Python `max_weight_matching` on the same complete graph and weights."""
    if count < 2:
        return []
    top = max(cost.values(), default=0) + 1
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(count))
    for i in range(count):
        for j in range(i + 1, count):
            graph.add_edge(i, j, weight=top - cost.get((i, j), 0))
    found = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((min(i, j), max(i, j)) for i, j in found)


def penalty(groups: list[list[str]], history: pairing.History) -> int:
    """What the two matchings minimise, summed: partners again, then opponents again."""
    total = 0
    for a1, b1, a2, b2 in groups:
        total += sum(history.partners[pairing.pair(*two)] ** 2 for two in ((a1, a2), (b1, b2)))
        total += sum(history.opponents[pairing.pair(x, y)] ** 2 for x in (a1, a2) for y in (b1, b2))
    return total


def seating_alternative(hall: Hall, records: list[journal.Record]) -> None:
    """Each round's seating again, here, from the ledger as it stood: rustworkx (the
    desk's) against networkx (the named alternative), CPU time and total penalty."""
    event = parse(hall.body, "benchmark")
    ledger = Ledger(event)
    times: dict[str, list[float]] = {"rustworkx": [], "networkx": []}
    costs: dict[str, list[int]] = {"rustworkx": [], "networkx": []}
    for record in records:
        if record.kind is journal.Kind.SEATING:
            history = ledger.history()
            order = pairing.shuffled(ledger.seatable(), event.seed, len(ledger.rounds) + 1)
            for name, matcher in (("rustworkx", pairing.match), ("networkx", networkx_match)):
                began = time.process_time()
                found = pairing.individual(order, len(event.tables), history, True, matcher)
                times[name].append(time.process_time() - began)
                costs[name].append(penalty(found.groups, history))
        ledger.apply(record)
    rx_ms, nx_ms = (1000 * max(times[k]) for k in ("rustworkx", "networkx"))
    print(f"  seating again in this process, CPU per round, worst of {len(times['networkx'])}: "
          f"rustworkx {rx_ms:.1f} ms, networkx {nx_ms:.1f} ms ({nx_ms / max(rx_ms, 1e-3):.0f}x); "
          f"penalty per round {costs['rustworkx']} vs {costs['networkx']}")  # fmt: skip


def event_body(tables: int, rounds: int) -> dict[str, Any]:
    return {"name": "Benchmark Open", "format": "individual", "rules": "puerto-rico",
            "target": 60, "rounds": rounds, "tables": [f"t{n:02d}" for n in range(tables)],
            "seed": 2026, "players": players(4 * tables), "auto_advance": True}  # fmt: skip


def mid_round(number: int, tables: int) -> Any:
    """A round payload of round `number` with some tables reported, not all."""

    def test(p: dict[str, Any] | None) -> bool:
        if p is None or p["round"] != number or p["state"] == "closed":
            return False
        reported = sum(t["status"] == "reported" for t in p["tables"])
        return bool(1 <= reported < tables)

    return test


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def seating_ms(records: list[journal.Record]) -> dict[int, float]:
    out = {}
    for r in records:
        if r.kind is journal.Kind.COMMAND and r.data["command"].get("action") == "start_round":
            detail = r.data["reply"].get("detail") or {}
            if "seating_ms" in detail:
                out[detail["round"]] = detail["seating_ms"]
    return out


def run(args: argparse.Namespace, tmp: Path) -> bool:
    body = event_body(args.tables, args.rounds)
    hall = Hall(tmp, body, desk_args=("--publish-interval", "0.25"), pause_s=args.pause)
    cut = max(1, args.rounds * 2 // 5)
    kill = min(args.rounds, max(cut + 1, args.rounds * 4 // 5))
    quiet: list[tuple[float, float]] = []  # windows of the outage and the restart
    started = time.time()
    hall.open()
    watch = Watch(hall.central.port)
    probe = Probe(hall.central.port, tmp)
    cpu = DeskCpu()
    try:
        print(f"{args.tables} tables, {4 * args.tables} players, {args.rounds} rounds; "
              f"ready in {time.time() - started:.1f} s; Python {sys.version.split()[0]}, "
              f"{os.cpu_count()} CPUs")  # fmt: skip
        assert hall.command({"id": "bench-start", "action": "start_round"})["ok"]
        watch.wait(mid_round(cut, args.tables), 600, f"round {cut} under way")
        t0 = time.time()
        hall.central.stop()
        time.sleep(args.outage)
        hall.central.start()
        quiet.append((t0 - 1.0, watch.standings_after(time.time(), 120)))
        print(f"round {cut}: central broker stopped for {args.outage:g} s (every link cut)")
        watch.wait(mid_round(kill, args.tables), 600, f"round {kill} under way")
        t0 = time.time()
        cpu.add(hall)
        hall.desk.kill()
        hall.desk.start()
        quiet.append((t0 - 1.0, watch.standings_after(time.time(), 120)))
        print(f"round {kill}: desk SIGKILLed and started again")
        last = args.rounds
        watch.wait(lambda p: p is not None and p["round"] == last and p["state"] == "closed",
                   900, "the last round closed")  # fmt: skip
        time.sleep(1.0)  # the last standings publication
        cpu.add(hall)
        return report(args, hall, watch, probe, cpu, quiet)
    finally:
        watch.close()
        if probe.proc.poll() is None:
            probe.proc.kill()
        hall.close()


def per_result(
    hall: Hall, probe: Probe, quiet: list[tuple[float, float]]
) -> dict[str, list[tuple[float, float, float]]]:
    """(to standings, bridge, desk) per result, from the probe's arrivals, for "all"
    results and those published outside the outage and the restart. Here the outage of
    a table lasts until its own link is back (its bridge retries with a backoff of up to
    10 s, table-bridge.conf), not only until the desk's first standings after it."""
    probe.read()
    out: dict[str, list[tuple[float, float, float]]] = {"all": [], "outside": []}
    slowest: list[tuple[float, float, float]] = []
    (cut, _), restart = quiet
    for table in hall.tables.values():
        windows = [(cut, max(probe.link_back(table.table, cut + 1.0), quiet[0][1])), restart]
        for game_id, payload in table.results:
            at, number = table.published_at[game_id], payload["round"]
            central = probe.arrived.get(f"domino/{table.table}/result/{game_id}")
            players = payload["players"]
            counted = next(
                (t for t, g in probe.games if all(g.get(p, 0) >= number for p in players)), None
            )
            if central is None or counted is None:
                continue
            lag = (counted - at, central - at, counted - central)
            out["all"].append(lag)
            if not any(a <= at <= b for a, b in windows):
                out["outside"].append(lag)
                slowest.append((counted - at, at - quiet[0][1], at - restart[1]))
    slowest.sort(reverse=True)
    print(
        "  slowest outside the outage and restart (lag; published s after the first "
        "standings after the outage, after the restart): "
        + ", ".join(f"{1000 * lag:.0f} ms ({a:+.1f} s, {b:+.1f} s)" for lag, a, b in slowest[:3])
    )
    return out


def print_lags(lags: dict[str, list[tuple[float, float, float]]]) -> None:
    def ms(values: list[float]) -> str:
        p50, p99 = (1000 * percentile(values, q) for q in (0.5, 0.99))
        return f"p50 {p50:.0f} ms, p99 {p99:.0f} ms"

    for key, label in (("all", "all"), ("outside", "outside the outage and restart")):
        if lags[key]:
            total, bridge, desk = ([lag[i] for lag in lags[key]] for i in range(3))
            print(f"  result to standings ({label}, {len(total)} results): {ms(total)}")
            print(
                f"    bare paho subscriber on the central broker (the bridge's share): {ms(bridge)}"
            )
            print(f"    the desk's share (that subscriber's result to the standings): {ms(desk)}")


def report(
    args: argparse.Namespace,
    hall: Hall,
    watch: Watch,
    probe: Probe,
    cpu: DeskCpu,
    quiet: list[tuple[float, float]],
) -> bool:
    records = hall.journal_records()
    own = seating_ms(records)
    last: dict[int, float] = {}  # round -> when its last result went out
    for table in hall.tables.values():
        for game_id, payload in table.results:
            at = table.published_at[game_id]
            last[payload["round"]] = max(last.get(payload["round"], 0.0), at)
    seating_alternative(hall, records)
    for number in range(1, args.rounds + 1):
        seen = watch.first_seen(number)
        gap = ""
        if number > 1 and seen is not None and (number - 1) in last:
            gap = f"; {1000 * (seen - last[number - 1]):.0f} ms from the last result of round "
            gap += f"{number - 1} to this seating on the central broker"
        print(f"  round {number}: seating {own.get(number, math.nan):.0f} ms{gap}")
    if own:
        worst = percentile(list(own.values()), 0.99)
        print(f"  seating, the desk's own measure: p99 {worst:.0f} ms over {len(own)} rounds")
    print_lags(per_result(hall, probe, quiet))
    published = sorted(at for t in hall.tables.values() for at in t.published_at.values())
    lags, calm = [], []
    for k, at in enumerate(published, start=1):
        seen = watch.counted(k)  # the k-th result out, to the standings counting k games
        if seen is None:
            continue
        lags.append(seen - at)
        if not any(a <= at <= b for a, b in quiet):
            calm.append(seen - at)
    for label, values in (("all", lags), ("outside the outage and restart", calm)):
        if values:
            print(f"  matched in order, seen in this process ({label}, {len(values)} results): "
                  f"p50 {1000 * percentile(values, 0.5):.0f} ms, "
                  f"p99 {1000 * percentile(values, 0.99):.0f} ms")  # fmt: skip
    counted = len(published)
    print(f"  desk CPU: {cpu.cpu_s:.1f} s for {counted} results, "
          f"{1000 * cpu.cpu_s / max(1, counted):.1f} ms per result; {cpu.messages} messages "
          f"taken in, {1e6 * cpu.cpu_s / max(1, cpu.messages):.0f} us per message")  # fmt: skip
    rss, peak = hall.desk.memory_mb()
    print(f"  desk: RSS {rss:.1f} MB (peak {peak:.1f} MB since its restart), "
          f"{len(records)} journal records")  # fmt: skip
    ledger = Ledger(parse(hall.body, "benchmark"))
    for record in records:
        ledger.apply(record)
    final = watch.standings or {}
    again = standings_body(ledger, final.get("tables", []))
    same = again["entries"] == final.get("entries") and again["round"] == final.get("round")
    reported = all(t.status.value == "reported" for r in ledger.rounds for t in r.tables.values())
    print(f"  standings equal the journal's recomputation: {'yes' if same else 'NO'}; "
          f"every table reported every round: {'yes' if reported else 'NO'}")  # fmt: skip
    return same and reported and len(ledger.rounds) == args.rounds


def main() -> None:
    if sys.argv[1:2] == ["--probe"]:
        probe(int(sys.argv[2]), Path(sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pause", type=float, default=0.05, help="seconds between events")
    parser.add_argument("--outage", type=float, default=3.0, help="seconds the central is down")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ok = run(args, Path(tmp))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
