"""The tournament desk under a tournament's load: 50 tables, then 10 times their pace.

    .venv/bin/python -m benchmarks.tournament_standings [--tables 50] [--paces 1,10] [--seconds 30]

A real Mosquitto (started here on a free loopback port, or `--mqtt-port` of one already
running) and the desk as a real process (`domino-table tournament`). Each emulated table
has its own MQTT connection, as its bridge would, and plays real engine games (walnut,
four seats, random legal moves) from a random point of its first game, so games end at
every table at different times. Per engine event a table publishes what the service
does: the event, its `state` (retained) and, at game over, `result/<game_id>`.

Tournament pace (1x) is one event every 10 s per table: a walnut game to 100 is about
140 events, 20-25 minutes. For each pace the script reports:

- messages/s through the desk: the `status`, `state` and `result` messages the desk
  took in (one `state` per table event), over the phase and its catch-up;
- the desk's lag behind the tables (p50/p99/max), from the `ts` the tables stamp: to
  the desk taking a message in, and to the standings publication a change went out in;
  and, measured here, from a result's publication to the first standings counting it;
- the desk's memory (RSS, and its peak) and CPU (% of one core).
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from engine import Game, Mode, Phase, rulesets
from engine.events import Event, GameEvent
from engine.players import RandomPlayer, play_turn
from mqttweb.envelope import encode, stamp
from service.core.payloads import Numbering
from tests.fixtures.mosquitto import Mosquitto
from tests.tournament.desk_process import DeskProcess

SEATS = 4
EVENT_INTERVAL_S = 10.0  # one event per table every 10 s at tournament pace
SIDES = ("bottom", "left", "top", "right")


class Broker(Mosquitto):
    """The test fixture's Mosquitto (a taken port is chosen again) with this benchmark's
    settings: no persistence, 100 messages in flight per client."""

    def config_text(self) -> str:
        lines = [f"listener {self.port} 127.0.0.1", "allow_anonymous true",
                 "max_queued_messages 100000", "max_inflight_messages 100", "set_tcp_nodelay true",
                 f"log_dest file {self.log}", "log_type error"]  # fmt: skip
        if os.geteuid() == 0:
            lines.append("user root")
        return "\n".join(lines) + "\n"


def _over(game: Game) -> bool:
    return game.phase is Phase.OVER


@dataclass
class Table:
    """One emulated table: its connection and an endless run of engine games."""

    table: str
    client: mqtt.Client
    players: list[str]
    rng: random.Random
    games: int = 0
    numbering: Numbering = field(init=False)
    events: Iterator[tuple[Game, Event]] = field(init=False)

    def __post_init__(self) -> None:
        self.numbering = Numbering(self.table, "")
        self.events = self._forever()

    def _forever(self) -> Iterator[tuple[Game, Event]]:
        while True:
            self.games += 1
            self.numbering.game_id = f"{self.table}-g{self.games}"
            names = self.rng.sample(self.players, SEATS)
            game = Game(rulesets.load("walnut"), SEATS, mode=Mode.FULL, names=names,
                        seed=self.rng.randrange(2**32))  # fmt: skip
            seats = [RandomPlayer(self.rng) for _ in range(SEATS)]
            yield from ((game, e) for e in game.start())
            while not _over(game):
                while game.phase is Phase.LEAD or game.phase is Phase.PLAY:
                    assert game.turn is not None
                    yield from ((game, e) for e in play_turn(game, seats[game.turn]).events)
                if not _over(game):
                    yield from ((game, e) for e in game.next_hand().events)

    def skip(self, events: int) -> None:
        """Start mid-game: the tournament was under way before the benchmark."""
        for _ in range(events):
            self.numbering.payload(next(self.events)[1])

    def step(self) -> tuple[int, bool]:
        """Publish the next event, its state (and the result): (messages to the desk, over)."""
        game, event = next(self.events)
        payload = self.numbering.payload(event)
        prefix = f"domino/{self.table}"
        self.client.publish(f"{prefix}/event/{event.kind}", encode(payload), qos=1)
        self.client.publish(f"{prefix}/state", encode(self.state(game, payload)), 1, True)
        over = isinstance(event, GameEvent) and event.event == "over"
        if over:
            game_id = self.numbering.game_id
            self.client.publish(f"{prefix}/result/{game_id}", encode(payload), 1, True)
        self.client.loop_write()  # on the wire now, not when a network thread wakes
        return (2, True) if over else (1, False)

    def state(self, game: Game, last: dict[str, Any]) -> dict[str, Any]:
        summary = game.summary()
        for seat in summary["seats"]:
            seat["side"] = SIDES[seat["seat"]]
        body = {"seq": self.numbering.seq, "game_id": self.numbering.game_id, **summary,
                "surface": {"width_mm": 900, "height_mm": 600}, "alerts": [],
                "last": last}  # fmt: skip
        return stamp(self.table, body)


class StandingsWatch:
    """Subscribes to the standings: when each total of games counted was first seen."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.seen: list[tuple[float, int]] = []  # (time, games counted)
        self.lock = threading.Lock()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2)
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port)
        self.client.subscribe("domino/tournament/standings", 1)
        self.client.loop_start()

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        games = sum(e["games"] for e in json.loads(msg.payload)["entries"]) // SEATS
        with self.lock:
            self.seen.append((time.time(), games))

    def first_with(self, games: int) -> float | None:
        with self.lock:
            return next((t for t, n in self.seen if n >= games), None)


def probe(port: int, seconds: float) -> None:
    """A bare paho subscriber to `domino/+/state`: the lag any subscriber sees (baseline)."""
    from tournament.desk import ts_seconds

    lags: list[float] = []

    def on_message(client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        stamped = ts_seconds(bytes(msg.payload))
        if stamped is not None and not msg.retain:
            lags.append(time.time() - stamped)

    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.on_message = on_message
    client.connect("127.0.0.1", port)
    client.subscribe("domino/+/state", 1)
    client.loop_start()
    time.sleep(seconds)
    client.loop_stop()
    lags.sort()
    n = len(lags)
    print(json.dumps({"samples": n, "p50_ms": round(1000 * lags[n // 2], 1) if n else None,
                      "p99_ms": round(1000 * lags[int(0.99 * n)], 1) if n else None,
                      "max_ms": round(1000 * lags[-1], 1) if n else None}))  # fmt: skip


def start_probe(port: int, seconds: float) -> subprocess.Popen[str]:
    args = [
        sys.executable,
        "-m",
        "benchmarks.tournament_standings",
        "--probe",
        str(port),
        str(seconds),
    ]
    return subprocess.Popen(args, stdout=subprocess.PIPE, text=True)


class Desk:
    """The desk as a real process (`DeskProcess`: its pages on a port it chooses itself,
    read from its log), at the desk's own publish interval."""

    def __init__(self, port: int, state_dir: Path) -> None:
        self.process = DeskProcess("127.0.0.1", port, state_dir, "--publish-interval", "0.25")
        self.process.start()

    def stats(self) -> dict[str, Any]:
        return dict(self.process.get_json("/api/stats", timeout=15))

    def memory_mb(self) -> tuple[float, float]:
        return self.process.memory_mb()

    def cpu_s(self) -> float:
        return self.process.cpu_s()

    def stop(self) -> None:
        self.process.stop()


def connect_tables(port: int, count: int, rng: random.Random) -> list[Table]:
    players = [f"Player {n:03d}" for n in range(count * SEATS)]
    tables = []
    for n in range(count):
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"bench-table-{n:02d}")
        client.max_inflight_messages_set(100)
        client.max_queued_messages_set(0)
        client.connect("127.0.0.1", port, keepalive=30)
        while not client.is_connected():
            client.loop(0.1)
        table = Table(f"table-{n:02d}", client, players, random.Random(rng.random()))
        table.skip(rng.randrange(140))
        client.publish(f"domino/{table.table}/status", b"online", 1, True)
        client.loop_write()
        tables.append(table)
    return tables


def sweep(tables: list[Table], until: float) -> None:
    """Until `until`: read every table's acks and keep its connection alive (one thread
    drives all connections, so no table waits for a network thread to be scheduled)."""
    while True:
        for table in tables:
            table.client.loop(0)
        left = until - time.time()
        if left <= 0:
            return
        time.sleep(min(left, 0.002))


def spread(lag: dict[str, Any]) -> str:
    return f"p50 {lag['p50_ms']} ms, p99 {lag['p99_ms']} ms, max {lag['max_ms']} ms"


def run_phase(
    tables: list[Table],
    pace: float,
    seconds: float,
    desk: Desk,
    watch: StandingsWatch,
    sent: list[int],
) -> None:
    """Play `seconds` at `pace`; then wait for the desk to take in everything."""
    interval = EVENT_INTERVAL_S / pace
    rng = random.Random(pace)
    start = time.time()
    due = [(start + rng.uniform(0, interval), n) for n in range(len(tables))]
    heapq.heapify(due)
    results: list[tuple[float, int]] = []  # (published at, results published so far)
    before = desk.stats()
    cpu0 = desk.cpu_s()
    baseline = start_probe(watch.port, seconds + 0.5)
    events = 0
    while due[0][0] < start + seconds:
        at, n = heapq.heappop(due)
        sweep(tables, at)
        messages, over = tables[n].step()
        events += 1
        sent[0] += messages
        if over:
            sent[1] += 1
            results.append((time.time(), sent[1]))
        heapq.heappush(due, (at + interval, n))
    played = time.time() - start
    while desk.stats()["messages"] < sent[0] + len(tables):  # + the retained statuses
        if time.time() - start > seconds + 60:
            print("  the desk did not catch up within 60 s")
            break
        sweep(tables, time.time() + 0.05)
    caught_up = time.time() - start
    sweep(tables, time.time() + 0.5)  # the last publication (publish interval 0.25 s)
    after = desk.stats()
    cpu = desk.cpu_s() - cpu0
    taken = after["messages"] - before["messages"]
    lags = [t - at for at, c in results if (t := watch.first_with(c)) is not None]
    lags.sort()
    rss, peak = desk.memory_mb()
    print(f"pace {pace:g}x: {len(tables)} tables, one event per table every {interval:g} s, "
          f"{played:.0f} s")  # fmt: skip
    print(f"  tables published {events} events ({events / played:,.0f}/s), {len(results)} results")
    print(f"  through the desk: {taken} messages, {taken / caught_up:,.0f}/s "
          f"(caught up {caught_up - played:.2f} s after the last)")  # fmt: skip
    intake, board = after["lag"]["intake"], after["lag"]["board"]
    print(f"  lag, ts to taken in ({intake['samples']} since the desk started): {spread(intake)}")
    print(f"  lag, ts to standings out ({board['samples']} changes since start): {spread(board)}")
    bare = json.loads(baseline.communicate(timeout=30)[0])
    print(f"  (a bare paho subscriber in its own process, same states: {spread(bare)})")
    if lags:
        p99 = lags[min(len(lags) - 1, int(0.99 * len(lags)))]
        print(f"  lag, result published to counted ({len(lags)} results): "
              f"p50 {1000 * lags[len(lags) // 2]:.0f} ms, p99 {1000 * p99:.0f} ms")  # fmt: skip
    print(f"  desk: RSS {rss:.1f} MB (peak {peak:.1f} MB), "
          f"CPU {100 * cpu / caught_up:.1f} % of one core")  # fmt: skip
    print(f"  standings: {after['games']} games counted, {after['published']} publications so far")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--paces", default="1,10", help="comma-separated multiples of 1x")
    parser.add_argument("--seconds", type=float, default=30.0, help="per pace")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mqtt-port", type=int, default=None, help="use a running broker")
    parser.add_argument("--probe", nargs=2, metavar=("PORT", "SECONDS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.probe:
        probe(int(args.probe[0]), float(args.probe[1]))
        return
    with tempfile.TemporaryDirectory() as tmp:
        broker = None if args.mqtt_port else Broker(Path(tmp) / "broker")
        if broker is not None:
            broker.start()
        port = args.mqtt_port or (broker.port if broker else 0)
        desk = Desk(port, Path(tmp) / "desk")
        desk.stats()
        watch = StandingsWatch(port)
        tables = connect_tables(port, args.tables, random.Random(args.seed))
        rss, _ = desk.memory_mb()
        print(f"desk started: RSS {rss:.1f} MB; "
              f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs")  # fmt: skip
        sent = [0, 0]  # messages to the desk (state + result), results
        try:
            for pace in (float(p) for p in args.paces.split(",")):
                run_phase(tables, pace, args.seconds, desk, watch, sent)
        finally:
            for table in tables:
                table.client.disconnect()
            desk.stop()
            if broker is not None:
                broker.stop()


if __name__ == "__main__":
    main()
