"""The record of games, timed and weighed: what keeping it costs a play, and its disk.

    python benchmarks/history.py [--seed N] [--target N] [--skip-camera]

* **A camera table's play to its event**, with the record kept (`[history] enabled`, the
  frame of each play drawn and written by the history's thread) and without it, on the
  same whole game: the simulated camera's frames of a straight-block game for two
  (rendered, read by the camera path at 10 frames a second), the table service in this
  process, a real Mosquitto. Measured from the camera handing a settled reading to the
  service to a subscriber receiving its `event/play` (this process's monotonic clock).
  The frames must cost the play nothing: the worker only notes which frame and hands
  it over.
* **Disk per game**: the record of that camera game (its frames and its database rows),
  and of a whole board game (the same players' game shown to a table as a board
  reports it: the board's surface kept at each event, drawn only when asked).

Figures print with the machine's load; no target is checked (the latency of a board
table is `benchmarks/latency.py`'s).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

import paho.mqtt.client as mqtt  # noqa: E402
from paho.mqtt.enums import CallbackAPIVersion  # noqa: E402

from config.loader import load_settings  # noqa: E402
from demo.sim_camera import SimOptions, frames  # noqa: E402
from engine import rulesets  # noqa: E402
from engine.surface import Snapshot  # noqa: E402
from service.app import TableService  # noqa: E402
from service.core import commands as cmd  # noqa: E402
from service.core.table import TableConfig, TableCore  # noqa: E402
from service.history import HistoryRecorder, HistoryStore  # noqa: E402
from service.store.journal import Journal  # noqa: E402
from tablesim.scenes import SimWholeGame, sim_whole_game  # noqa: E402

P = "domino/bench"
ZONES = {0: [90, 510, 810, 600], 1: [90, 0, 810, 90]}


class Plays:
    """A subscriber noting when each play arrives, and the game's end."""

    def __init__(self, host: str, port: int) -> None:
        self.at: list[float] = []
        self.over = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2)
        self.client.on_connect = lambda c, *a: c.subscribe(f"{P}/event/#", qos=1)
        self.client.on_message = self._message
        self.client.connect(host, port)
        self.client.loop_start()

    def _message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        if msg.topic == f"{P}/event/play":
            self.at.append(time.monotonic())
        elif msg.topic == f"{P}/event/game" and json.loads(msg.payload).get("event") == "over":
            self.over.set()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def camera_game(
    host: str, port: int, state: Path, args: argparse.Namespace, keep: bool
) -> dict[str, Any]:
    settings = load_settings(None, {
        "table.id": "bench", "table.rules": "straight-block", "table.seats": 2,
        "table.target": args.target, "zones": {str(k): v for k, v in ZONES.items()},
        "camera.enabled": True, "camera.source": "sim", "camera.fps": 10,
        "mqtt.host": host, "mqtt.port": port, "state.dir": str(state),
        "history.enabled": keep,
    })  # fmt: skip
    worker = [0.0]  # the worker's time in the record's hands (noting and handing over)
    originals = {n: getattr(HistoryRecorder, n) for n in ("seen", "recorded")}
    for name, handler in originals.items():

        def timed(self: HistoryRecorder, item: Any, handler: Any = handler) -> None:
            began = time.perf_counter()
            handler(self, item)
            worker[0] += time.perf_counter() - began

        setattr(HistoryRecorder, name, timed)
    try:
        return _play(service_for(settings, args), host, port, args.timeout, keep, worker)
    finally:
        for name, handler in originals.items():
            setattr(HistoryRecorder, name, handler)


def service_for(settings: Any, args: argparse.Namespace) -> TableService:
    options = SimOptions(seed=args.seed, pace_s=0.5, whole_game=True)
    return TableService(settings, camera_frames=frames(options))


def _play(
    service: TableService, host: str, port: int, timeout: float, keep: bool, worker: list[float]
) -> dict[str, Any]:
    handed: list[float] = []  # when the camera handed each settled reading over
    plays = Plays(host, port)
    submit = service.camera.submit

    def noted(item: object) -> None:
        if isinstance(item, Snapshot) and item.tiles:
            handed.append(time.monotonic())
        submit(item)

    service.camera.submit = noted
    cpu = time.process_time()
    service.start()
    try:
        if not plays.over.wait(timeout):
            raise RuntimeError("the camera game did not end in time")
        time.sleep(1.0)
        if keep:
            service.history.wait_idle(60)
    finally:
        service.stop()
        plays.close()
    cpu = time.process_time() - cpu
    # each play's reading is the latest handed over before it arrived
    lags = []
    for arrived in plays.at:
        before = [t for t in handed if t <= arrived]
        if before:
            lags.append((arrived - before[-1]) * 1000)
    return {"lags": lags, "cpu": cpu, "plays": len(plays.at), "history_cpu": service.history.cpu_s,
            "worker": worker[0]}  # fmt: skip


def keep_board_game(
    state: Path,
    game: SimWholeGame,
    *,
    table: str,
    rules: str,
    seats: int,
    zones: dict[int, tuple[int, ...]],
) -> tuple[str, list[tuple[dict[str, Any], object]], bool]:
    """Show `game` to a table as a board reports it, every snapshot lasting longer than
    the grace time, its record kept in `state`: the game's id, each told input the table
    refused with its answer, and whether the record caught up."""
    now = itertools.count(0.0, 2.0)
    journal = Journal(state, table)
    core = TableCore(
        TableConfig(table=table, rules=rules, seats=seats, target=game.target,
                    zones=tuple(sorted(zones.items()))),  # type: ignore[arg-type]
        journal, rulesets.load, clock=lambda: float(next(now)),
    )  # fmt: skip
    recorder = HistoryRecorder(state, journal, lambda _: None, max_mb=500)
    recorder.subscribe(core.bus)
    recorder.start()
    core.start()
    refused: list[tuple[dict[str, Any], object]] = []
    said = 0
    for scene, told in zip(game.scenes, game.told, strict=True):
        snapshot = Snapshot(scene, at=float(said))
        recorder.seen(snapshot)
        core.observe(snapshot)
        core.tick()
        for body in told:
            said += 1
            command = cmd.parse_command(json.dumps({"id": f"sim-{said}", **body}).encode())
            if (answer := core.command(command)) is not None:
                refused.append((body, answer))
    idle = recorder.wait_idle(120)
    recorder.stop()
    journal.close()
    return core.game_id, refused, idle


def board_game(state: Path, seed: int, target: int) -> None:
    """A whole game shown to a table as a board reports it, its record kept."""
    zones = {k: tuple(v) for k, v in ZONES.items()}
    game = sim_whole_game("straight-block", 2, seed, target=target, zones=zones)
    keep_board_game(state, game, table="bench", rules="straight-block", seats=2, zones=zones)


def weigh(state: Path) -> str:
    with HistoryStore(state, read_only=True) as store:
        (game,) = store.games()
        record = store.record(game.game_id)
        assert record is not None
        sizes = {n: (e, p) for n, _, e, p in store.sizes()}
    rows, pictures = next(iter(sizes.values()))
    folder = state / "history"
    on_disk = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
    jpegs = list(folder.rglob("*.jpg"))
    frames_line = ""
    if jpegs:
        mean = statistics.mean(f.stat().st_size for f in jpegs)
        frames_line = f", {len(jpegs)} frames of {mean / 1000:.0f} kB on average"
    kept = rows + pictures  # what [history] max_mb counts
    return (
        f"{game.hands} hands, {len(record.events)} events, {len(record.frames)} with a picture"
        f"{frames_line}: {kept / 1000:.0f} kB kept (events and inputs {rows / 1000:.0f} kB, "
        f"pictures {pictures / 1000:.0f} kB; the record's folder {on_disk / 1e6:.2f} MB with "
        f"SQLite's own files); {500e6 / max(kept, 1):.0f} such games in the default 500 MB"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--target", type=int, default=25)
    parser.add_argument("--timeout", type=float, default=900.0)
    parser.add_argument("--skip-camera", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="history-bench-") as tmp:
        root = Path(tmp)
        board_game(root / "board", args.seed, args.target)
        print(f"board game, straight-block for two to {args.target}, seed {args.seed}")
        print(f"  disk kept: {weigh(root / 'board')}")
        if args.skip_camera:
            return 0
        from tests.fixtures.mosquitto import Mosquitto

        with Mosquitto(root / "broker") as broker:
            runs = {}
            for keep in (False, True):
                runs[keep] = camera_game(broker.host, broker.port, root / f"cam-{keep}", args, keep)
        print(f"camera game, the same, read at 10 frames/s (load {os.getloadavg()[0]:.1f}, "
              f"{os.cpu_count()} CPUs)")  # fmt: skip
        for keep, run in runs.items():
            lags = sorted(run["lags"])
            p90 = lags[int(0.9 * (len(lags) - 1))]
            print(f"  record {'kept' if keep else 'off '}: reading -> event/play p50 "
                  f"{statistics.median(lags):.1f} ms, p90 {p90:.1f} ms, max {lags[-1]:.1f} ms "
                  f"over {len(lags)} plays; process CPU {run['cpu']:.1f} s")  # fmt: skip
        kept = runs[True]
        per_play = 1000 / max(kept["plays"], 1)
        print(f"  what the record costs a play: the history thread's CPU "
              f"{kept['history_cpu'] * per_play:.1f} ms (the frame drawn and encoded, written "
              f"whole, the journal copied), the worker's {kept['worker'] * per_play:.2f} ms "
              "(noting the reading, handing the change over)")  # fmt: skip
        print(f"  disk kept: {weigh(root / 'cam-True')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
