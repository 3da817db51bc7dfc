"""The whole table service, timed: board to MQTT latency, memory and start-up.

    python benchmarks/latency.py [--plays N] [--rules NAME] [--seats N] [--seed N]
                                 [--starts N] [--speed S] [--state-in DIR]
                                 [--synchronous full|normal] [--fsync-delay MS]
                                 [--no-history] [--check]

Everything is real and on loopback: a Mosquitto started for the run, `domino-table run`
as a child process on the board emulator's pty, and a subscriber in this process.

* **Latency**: from the emulator writing a PLACE frame to the subscriber receiving the
  play on `<prefix>/event/play` (both clocks are this process's monotonic clock), over
  `--plays` plays (default 1,000). The plays are a long legal game: a full-information
  random game (`Mode.FULL`, seeded) whose tiles are laid one after another where the
  Placer puts them, the next only once the last was published; the lead is named with a
  `lead` command when the table raises LEAD_UNKNOWN, passes and draws are commands, and
  a game whose hand is over is cleared off the board and a new one started (`new_game`).
  Target: p99 < 20 ms.
* **Memory**: the service's resident set (VmRSS from /proc, sampled every 0.2 s during
  the game, and VmHWM at the end). Target: < 80 MB (no camera).
* **Start-up**: from starting the process to `online` (not retained) on
  `<prefix>/status`, `--starts` times with an empty state directory, and once more on
  the journal the latency run left behind. Target: < 1.5 s.

The journal is where the service keeps it (`--state-in`, or the run's temporary folder),
with `[state] synchronous` as given (`--synchronous`, default the service's: full).
The table keeps the record of its games as it does by default (`[history]`: the board's
surface at each event); `--no-history` runs it with `[history] enabled = false`, to
see what keeping the record costs a play.
`--fsync-delay MS` makes that disk slow, as an SD card is: every fsync of the service
takes MS ms longer (`benchmarks/slow_fsync.py`); the figures then say how long an SQLite
commit takes on it.

Figures and targets are printed (PASS/MISS); `--check` exits 1 on a miss.
docs/design/reliability.md ("Figures") explains them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

import paho.mqtt.client as mqtt  # noqa: E402
from paho.mqtt.enums import CallbackAPIVersion  # noqa: E402

from benchmarks.slow_fsync import commit_ms, slow_fsync_env  # noqa: E402
from firmware_bridge.emulator import BoardEmulator  # noqa: E402
from firmware_bridge.messages import BoardMessage, Place  # noqa: E402
from firmware_bridge.script import LiftStep  # noqa: E402
from service.history.store import HistoryError, HistoryStore  # noqa: E402

LATENCY_P99_MS = 20.0
RSS_MB = 80.0
STARTUP_S = 1.5
TABLE = "t1"  # the harness of tests/service/faults.py speaks to t1
PREFIX = f"domino/{TABLE}"
BIN = Path(sys.executable).parent / "domino-table"


class TimedBoard(BoardEmulator):
    """The emulator, noting when each PLACE frame is written to the pty."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.placed_at: dict[str, float] = {}

    def _send(self, message: BoardMessage) -> None:
        if isinstance(message, Place):
            self.placed_at[message.tile.tile.text] = time.monotonic()
        super()._send(message)


class Listener:
    """A subscriber noting when each play arrives; keeps replies, statuses and states."""

    def __init__(self, host: str, port: int) -> None:
        self.lock = threading.Condition()
        self.plays: list[tuple[float, dict[str, Any]]] = []
        self.status: list[tuple[float, bytes, bool]] = []
        self.state: dict[str, Any] | None = None
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-listener")
        self.client.on_connect = lambda c, *a: c.subscribe(f"{PREFIX}/#", qos=1)
        self.client.on_message = self._on_message
        self.subscribed = threading.Event()
        self.client.on_subscribe = lambda *a: self.subscribed.set()
        self.client.connect(host, port)
        self.client.loop_start()
        if not self.subscribed.wait(10):
            raise RuntimeError("the listener could not subscribe")

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        now = time.monotonic()
        with self.lock:
            if msg.topic == f"{PREFIX}/event/play":
                self.plays.append((now, json.loads(msg.payload)))
            elif msg.topic == f"{PREFIX}/status":
                self.status.append((now, bytes(msg.payload), bool(msg.retain)))
            elif msg.topic == f"{PREFIX}/state":
                self.state = json.loads(msg.payload)
            self.lock.notify_all()

    def wait(self, test: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        with self.lock:
            while not test():
                left = deadline - time.monotonic()
                if left <= 0:
                    raise RuntimeError(f"timed out waiting for {what}")
                self.lock.wait(left)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def arrived(listener: Listener, count: int) -> bool:
    return len(listener.plays) >= count


def service_args(broker: Any, state_dir: Path, link: Path, args: argparse.Namespace) -> list[str]:
    settings = []
    text = ""
    if args.synchronous is not None:
        text += f'[state]\nsynchronous = "{args.synchronous}"\n'
    if args.no_history:
        text += "[history]\nenabled = false\n"
    if text:
        path = state_dir.parent / f"settings-{state_dir.name}.toml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        settings = ["--settings", str(path)]
    return [
        str(BIN), "--log-level", "warning", "run", *settings, "--mqtt-host", broker.host,
        "--mqtt-port", str(broker.port), "--table", TABLE, "--state-dir", str(state_dir),
        "--serial", str(link), "--rules", args.rules, "--seats", str(args.seats),
    ]  # fmt: skip


def cpu_s(pid: int) -> float:
    """The CPU time (user + system) process `pid` has used so far, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def import_s() -> float:
    """Seconds to import what `domino-table run` imports (python -X importtime)."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import cli.main, service.cli"],
        capture_output=True, text=True, check=True, cwd=_ROOT,
    )  # fmt: skip
    total = 0
    for line in out.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[2].strip() in ("cli.main", "service.cli"):
            total += int(parts[1])
    return total / 1e6


def rss_kb(pid: int, field: str = "VmRSS") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def start_up(
    listener: Listener, args: list[str], log: Path, env: dict[str, str]
) -> tuple[float, subprocess.Popen[bytes]]:
    """Start the service; seconds from the process's start to a live `online`."""
    with listener.lock:
        seen = len(listener.status)
    with log.open("ab") as out:
        t0 = time.monotonic()
        proc = subprocess.Popen(
            args, stdout=subprocess.DEVNULL, stderr=out, env={**os.environ, **env}
        )

    def online() -> bool:
        return any(p == b"online" and not r for _, p, r in listener.status[seen:])

    listener.wait(online, 30, "online")
    with listener.lock:
        at = next(t for t, p, r in listener.status[seen:] if p == b"online" and not r)
    return at - t0, proc


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


class Bench:
    """One latency run: games laid on the board until `plays` plays were published."""

    def __init__(
        self, args: argparse.Namespace, broker: Any, workdir: Path, state_root: Path
    ) -> None:
        from tests.service.faults import Commander, JournalView

        self.args = args
        self.broker = broker
        self.workdir = workdir
        self.state_dir = state_root / "state"
        self.link = workdir / "board"
        self.board = TimedBoard(link=self.link, speed=args.speed)
        self.journal = JournalView(self.state_dir)
        self.commands = Commander(broker)
        self.latencies: list[float] = []
        self.rss: list[int] = []
        self.games = 0

    def new_player(self, seed: int) -> Any:
        from tests.service.faults import Player

        return Player(
            self.board, self.journal, self.commands, self.args.rules, self.args.seats, seed
        )

    def run(self, listener: Listener, pid: int) -> None:
        sampling = threading.Event()

        def sample() -> None:
            while not sampling.wait(0.2):
                try:
                    self.rss.append(rss_kb(pid))
                except OSError:
                    return

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        try:
            self._play(listener)
        finally:
            sampling.set()
            sampler.join(2)

    def _play(self, listener: Listener) -> None:
        seed = self.args.seed
        player = self.new_player(seed)
        while len(self.latencies) < self.args.plays:
            with listener.lock:
                before = len(listener.plays)
            tile = player.lay(wait_judged=False)
            if tile is None:
                seed += 1
                player = self.next_game(listener, player, seed)
                continue
            text = player.laid[-1][0]
            listener.wait(partial(arrived, listener, before + 1), 20, f"the play of {text}")
            with listener.lock:
                got_at, play = listener.plays[before]
            if play["tile"] != text:
                raise RuntimeError(f"laid {text}, the table published {play['tile']}")
            self.latencies.append((got_at - self.board.placed_at[text]) * 1000)
            if len(player.laid) == 1:
                player.name_leader()

    def next_game(self, listener: Listener, player: Any, seed: int) -> Any:
        """Clear the board (the hand is over) and start a new game by command."""
        with listener.lock:
            phase = (listener.state or {}).get("phase")
        if phase == "play":  # the table could not tell the hand was over
            player.command({"action": "end_hand"})
        self.board.play([LiftStep(t.tile) for t in player.surface])
        if not self.board.wait_until(lambda: self.board.idle() and not self.board.surface(), 10):
            raise RuntimeError("the board was not cleared")
        # The LIFT frames and the command reach the service by different ways; a new game
        # that overtakes them ignores the old tiles still lying there.
        reply = player.command(
            {"action": "new_game", "rules": self.args.rules, "seats": self.args.seats}
        )
        if not reply["ok"]:
            raise RuntimeError(f"new_game refused: {reply}")
        self.games += 1
        self.board.placed_at.clear()
        return self.new_player(seed)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


@dataclass
class Figures:
    latencies: list[float]
    games: int
    elapsed: float
    cpu: float
    rss_kb: list[int]
    hwm_kb: int
    starts: list[float]
    restart: float
    inputs: int
    imports: float
    errors: list[str]
    disk: str
    record: str  # the record of games the run's table kept, in words


def measure(args: argparse.Namespace) -> Figures:
    """Start-ups on an empty state, the latency run, a start-up on its journal; every
    fsync of the service slowed down by `--fsync-delay`."""
    with (
        tempfile.TemporaryDirectory(prefix="latency-") as tmp,
        tempfile.TemporaryDirectory(prefix="latency-state-", dir=args.state_in) as state,
    ):  # a folder of its own in --state-in: a run never goes on from another's journal
        workdir = Path(tmp)
        root = Path(state)
        env = slow_fsync_env(args.fsync_delay, workdir) if args.fsync_delay else {}
        full, worst = commit_ms(env, root / "probe", "FULL")
        normal, _ = commit_ms(env, root / "probe", "NORMAL")
        where = (
            f"{args.state_in or 'the temporary folder'}"
            + (f", every fsync {args.fsync_delay:g} ms slower" if args.fsync_delay else "")
            + f": an SQLite commit takes {full:.1f} ms (max {worst:.0f} ms) with FULL, "
            f"{normal:.1f} ms with NORMAL"
        )
        return _measure(args, workdir, root, where, env)


def _measure(
    args: argparse.Namespace, workdir: Path, root: Path, where: str, env: dict[str, str]
) -> Figures:
    from tests.fixtures.mosquitto import Mosquitto

    broker = Mosquitto(workdir / "mosquitto")
    broker.start()
    listener = Listener(broker.host, broker.port)
    bench = Bench(args, broker, workdir, root)
    bench.board.start()
    log = workdir / "service.log"
    try:
        starts = []
        for n in range(args.starts):
            fresh = service_args(broker, root / f"fresh-{n}", bench.link, args)
            seconds, proc = start_up(listener, fresh, log, env)
            starts.append(seconds)
            stop(proc)
        run_args = service_args(broker, bench.state_dir, bench.link, args)
        _, proc = start_up(listener, run_args, log, env)
        t0, cpu0 = time.monotonic(), cpu_s(proc.pid)
        try:
            bench.run(listener, proc.pid)
            hwm = rss_kb(proc.pid, "VmHWM")
            cpu = cpu_s(proc.pid) - cpu0
        finally:
            stop(proc)
        elapsed = time.monotonic() - t0
        inputs = bench.journal.input_count()
        restart, proc = start_up(listener, run_args, log, env)
        stop(proc)
        record = record_kept(bench.state_dir)
    finally:
        listener.close()
        bench.board.stop()
        broker.stop()
    lines = log.read_text().splitlines()
    return Figures(
        bench.latencies, bench.games + 1, elapsed, cpu, bench.rss, hwm, starts, restart, inputs,
        statistics.median(import_s() for _ in range(3)),
        [line for line in lines if " ERROR " in line or "Traceback" in line],
        where, record,
    )  # fmt: skip


def record_kept(state_dir: Path) -> str:
    """What the table kept in its record of games (`[history]`), in words."""
    try:
        with HistoryStore(state_dir, read_only=True) as store:
            sizes = store.sizes()
    except HistoryError:
        return "not kept"
    events = sum(e for _, _, e, _ in sizes) / 1024
    surfaces = sum(p for _, _, _, p in sizes) / 1024
    return (
        f"kept, {len(sizes)} games: events and inputs {events:.0f} kB, surfaces {surfaces:.0f} kB"
    )


def report(f: Figures, args: argparse.Namespace) -> bool:
    """Print the figures and targets; True when every target is met."""
    lat = f.latencies
    p50, p99, worst = percentile(lat, 50), percentile(lat, 99), max(lat)
    rss_mb = max(f.rss_kb, default=0) / 1024
    hwm_mb = f.hwm_kb / 1024
    start_med, start_max = statistics.median(f.starts), max(f.starts)
    lines = [
        f"service latency: {len(lat)} plays in {f.games} games, {f.elapsed:.0f} s, "
        f"{args.rules} x{args.seats}, seed {args.seed}, {os.cpu_count()} CPUs",
        f"  journal: synchronous={(args.synchronous or 'full').upper()}, on {f.disk}",
        f"  the record of games: {f.record}",
        f"  machine load (1 min) at the end: {os.getloadavg()[0]:.1f}; service CPU "
        f"{f.cpu / len(lat) * 1000:.1f} ms per play (inputs, events, publishing)",
        f"  PLACE frame -> event/play: p50 {p50:.1f} ms, p90 {percentile(lat, 90):.1f} ms, "
        f"p99 {p99:.1f} ms, max {worst:.1f} ms"
        f"   target p99 < {LATENCY_P99_MS:.0f} ms: {verdict(p99 < LATENCY_P99_MS)}",
        f"  resident memory during the game: max {rss_mb:.1f} MB (VmHWM {hwm_mb:.1f} MB)"
        f"   target < {RSS_MB:.0f} MB: {verdict(hwm_mb < RSS_MB)}",
        f"  start-up to online, empty state: median {start_med:.2f} s, max {start_max:.2f} s "
        f"({len(f.starts)} starts)   target < {STARTUP_S} s: {verdict(start_max < STARTUP_S)}",
        f"  start-up to online, on the run's journal ({f.inputs} inputs): {f.restart:.2f} s"
        f"   target < {STARTUP_S} s: {verdict(f.restart < STARTUP_S)}",
        f"  importing the run path (python -X importtime, median of 3): {f.imports:.2f} s",
    ]
    if f.errors:
        lines.append("  the service logged errors:\n    " + "\n    ".join(f.errors[:10]))
    print("\n".join(lines))
    return not (
        p99 >= LATENCY_P99_MS or hwm_mb >= RSS_MB or start_max >= STARTUP_S
        or f.restart >= STARTUP_S or f.errors
    )  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plays", type=int, default=1000)
    parser.add_argument("--rules", default="straight-block")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--speed", type=float, default=5.0, help="Emulator pace (debounce / S).")
    parser.add_argument(
        "--state-in",
        help="Folder for the run's journal (default: the run's temporary folder); "
        "/dev/shm shows what the journal's fsync costs.",
    )
    parser.add_argument(
        "--synchronous",
        choices=["full", "normal"],
        help="The journal's [state] synchronous (default: the service's, full).",
    )
    parser.add_argument(
        "--fsync-delay",
        type=float,
        default=0.0,
        metavar="MS",
        help="Make every fsync of the service MS ms slower, as on an SD card (needs cc).",
    )
    parser.add_argument(
        "--no-history",
        action="store_true",
        help="Run the table with [history] enabled = false (keeping no record of games).",
    )
    parser.add_argument("--check", action="store_true", help="Exit 1 if a target is missed.")
    args = parser.parse_args(argv)
    met = report(measure(args), args)
    return 1 if args.check and not met else 0


if __name__ == "__main__":
    sys.exit(main())
