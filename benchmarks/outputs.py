"""The CPU the outputs cost the table per play: the same games with and without them.

    python benchmarks/outputs.py [--plays N] [--rounds N] [--seed N] [--rules NAME]
                                 [--seats N]

Everything is real and in this process but the broker: a Mosquitto started for the run,
the table service (`TableService`, its worker thread, its journal with `[state]
synchronous = "normal"`, its MQTT link), fed each play as the instrumented board would
(a `Snapshot` of the surface, laid where the Placer puts the tiles of a seeded
full-information game; draws, passes and the leader named as commands). Each round runs
the same games twice: once with no outputs (the game: the MQTT publisher, the log) and
once with `[outputs.awtrix]`, `[outputs.wled]` and `[outputs.voice]`.

Printed per play, median over the rounds, for no outputs, the clock and the strip, and
the voice too:

* **worker**: CPU seconds of the table's worker thread (`pthread_getcpuclockid`): where
  the outputs' handlers run (their payloads made, handed to paho, a phrase queued);
* **outputs handlers**: the part of it spent inside the outputs' bus handlers, timed
  around each call (the exact attribution, free of the noise a loaded machine puts in
  the difference of two runs);
* **process**: CPU of the whole process (also paho's network thread, which sends the
  extra messages, and the voice's thread);
* **espeak-ng**: CPU of the speech processes (children), per phrase spoken;

and the outputs' share: with minus without, and the ratio. The voice speaks into ALSA's
null device (a HOME with an `.asoundrc` made for the run), so nothing is heard.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from config.loader import load_settings  # noqa: E402
from engine import Game, Mode, rulesets  # noqa: E402
from engine.game import Phase  # noqa: E402
from engine.geometry import Placer  # noqa: E402
from engine.inputs import Draw, Lead, NewGame, Pass  # noqa: E402
from engine.players import RandomPlayer  # noqa: E402
from engine.surface import SeenTile, Snapshot  # noqa: E402
from service.app import TableService  # noqa: E402
from service.core import commands as cmd  # noqa: E402
from service.core.table_events import StateChanged  # noqa: E402
from service.outputs.base import Output  # noqa: E402
from service.outputs.voice import Speaker, VoiceOutput  # noqa: E402

OUTPUTS = {
    "outputs.awtrix.prefix": "awtrix_bench",
    "outputs.wled.topic": "wled/bench",
    "outputs.voice.volume": 100,
}


@dataclass
class Run:
    """One run's CPU seconds and counts."""

    plays: int = 0
    worker_s: float = 0.0
    process_s: float = 0.0
    children_s: float = 0.0
    handlers_s: float = 0.0  # in the outputs' own handlers, on the worker thread
    phrases: int = 0


class HandlerClock:
    """The worker thread's CPU spent inside the outputs' bus handlers (every output's
    `_recorded` and `_state_changed`, timed around): their cost, attributed exactly."""

    def __init__(self) -> None:
        self.spent = 0.0
        self._originals: dict[str, Any] = {}

    def __enter__(self) -> HandlerClock:
        for name in ("_recorded", "_state_changed"):
            original = getattr(Output, name)
            self._originals[name] = original
            setattr(Output, name, self._timed(original))
        return self

    def __exit__(self, *exc: object) -> None:
        for name, original in self._originals.items():
            setattr(Output, name, original)

    def _timed(self, handler: Any) -> Any:
        def run(output: Output, event: object) -> None:
            t0 = time.thread_time()
            try:
                handler(output, event)
            finally:
                self.spent += time.thread_time() - t0

        return run


class Driver:
    """Seeded full-information games played on the service as a board would report them."""

    def __init__(self, service: TableService, rules: str, seats: int, seed: int) -> None:
        self.service, self.rules, self.seats = service, rules, seats
        self.changed = threading.Semaphore(0)
        service.core.bus.subscribe(StateChanged, lambda _: self.changed.release())
        self.rng = random.Random(seed)
        self.player = RandomPlayer(self.rng)
        self.ids = 0
        self.plays = 0
        self._new_hand(first=True)

    def _new_hand(self, first: bool = False) -> None:
        self.full = Game(rulesets.load(self.rules), self.seats, mode=Mode.FULL,
                         seed=self.rng.randrange(2**31))  # fmt: skip
        self.full.start()
        self.placer = Placer(900, 600)
        self.coords: list[SeenTile] = []
        self.surface: list[SeenTile] = []
        if not first:  # a new game, and the old one's tiles off the table
            self._tell(cmd.GameCommand(self._id(), NewGame(rules=self.rules, seats=self.seats)))
            self._tell(Snapshot((), at=time.monotonic()))

    def _id(self) -> str:
        self.ids += 1
        return f"bench-{self.ids}"

    def _tell(self, item: object) -> None:
        """Hand `item` to the service and wait until the table changed (or did not)."""
        self.service.submit(item)
        self.changed.acquire(timeout=2.0)

    def step(self) -> None:
        """The next play (and the draws, passes and lead around it)."""
        full = self.full
        while full.phase in (Phase.LEAD, Phase.PLAY):
            seat = full.turn
            moves = full.legal_moves()
            if moves:
                move = self.player.choose(full, moves)
                seen = self.placer.place(full.layout, self.coords, move.tile, move.end)
                assert full.play(move.tile, move.end).ok
                self.coords.append(seen)
                self.surface.append(seen)
                self._tell(Snapshot(tuple(self.surface), at=time.monotonic()))
                self.plays += 1
                if len(self.surface) == 1:
                    self._tell(cmd.GameCommand(self._id(), Lead(seat=int(seat or 0))))
                return
            if full.can_draw():
                n = 0
                while not full.legal_moves() and full.can_draw():
                    assert full.draw().ok
                    n += 1
                self._tell(cmd.GameCommand(self._id(), Draw(seat=seat, count=n)))
            else:
                assert full.pass_turn().ok
                self._tell(cmd.GameCommand(self._id(), Pass(seat=seat)))
        self._new_hand()


def worker_cpu(service: TableService) -> float:
    worker = next(t for t in threading.enumerate() if t.name == "table-worker")
    assert worker.ident is not None
    return time.clock_gettime(time.pthread_getcpuclockid(worker.ident))


def children_cpu() -> float:
    t = os.times()
    return t.children_user + t.children_system


LIGHTS = ("outputs.awtrix.prefix", "outputs.wled.topic")
KINDS = {"none": (), "lights": LIGHTS, "all": (*LIGHTS, "outputs.voice.volume")}
"""The runs of a round: no outputs; the clock and the strip; and the voice too."""


def one_run(broker: Any, workdir: Path, args: argparse.Namespace, kind: str) -> Run:
    state = Path(tempfile.mkdtemp(dir=workdir))
    overrides: dict[str, object] = {
        "mqtt.host": broker.host, "mqtt.port": broker.port, "state.dir": str(state),
        "state.synchronous": "normal", "table.rules": args.rules, "table.seats": args.seats,
    }  # fmt: skip
    overrides |= {key: OUTPUTS[key] for key in KINDS[kind]}
    if "outputs.wled.topic" in overrides:
        overrides["outputs.wled.seats"] = [[30 * s, 30 * s + 30] for s in range(args.seats)]
    with HandlerClock() as handlers:
        run = _played(broker, args, overrides)
    run.handlers_s = handlers.spent
    return run


def _played(broker: Any, args: argparse.Namespace, overrides: dict[str, object]) -> Run:
    service = TableService(load_settings(None, overrides))
    service.start()
    try:
        assert service.mqtt is not None and service.mqtt.wait_connected(10)
        driver = Driver(service, args.rules, args.seats, args.seed)
        while driver.changed.acquire(timeout=0.5):  # the start-up's changes
            pass
        w0, p0, c0 = worker_cpu(service), time.process_time(), children_cpu()
        while driver.plays < args.plays:
            driver.step()
        voice = next((o for o in service.outputs if isinstance(o, VoiceOutput)), None)
        speaker = voice.speaker if voice is not None else None
        if isinstance(speaker, Speaker):
            speaker.idle(60)  # the last phrase spoken: its process counted
        run = Run(
            plays=driver.plays,
            worker_s=worker_cpu(service) - w0,
            process_s=time.process_time() - p0,
            children_s=children_cpu() - c0,
        )
        if isinstance(speaker, Speaker):
            run.phrases = speaker.spoken
        return run
    finally:
        service.stop()


@contextmanager
def null_sound(workdir: Path) -> Iterator[None]:
    """espeak-ng (a child) plays into ALSA's null device: nothing heard, all computed."""
    from tests.service.outputs.sound import null_sound_home

    before = os.environ.get("HOME")
    os.environ["HOME"] = str(null_sound_home(workdir))
    try:
        yield
    finally:
        if before is None:
            del os.environ["HOME"]
        else:
            os.environ["HOME"] = before


def us(seconds: float, plays: int) -> float:
    return seconds / max(plays, 1) * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plays", type=int, default=300, help="plays per run (default 300)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each kind (default 3)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rules", default="walnut")
    parser.add_argument("--seats", type=int, default=4)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)  # the table's info and warnings are not figures

    from tests.fixtures.mosquitto import Mosquitto

    with tempfile.TemporaryDirectory(prefix="bench-outputs-") as tmp, null_sound(Path(tmp)):
        workdir = Path(tmp)
        broker = Mosquitto(workdir / "mosquitto")
        broker.start()
        try:
            runs: dict[str, list[Run]] = {kind: [] for kind in KINDS}
            for _ in range(args.rounds):  # alternated: the machine's load falls on each
                for kind, done in runs.items():
                    done.append(one_run(broker, workdir, args, kind))
        finally:
            broker.stop()
    report(runs, args)
    return 0


def report(runs: dict[str, list[Run]], args: argparse.Namespace) -> None:
    def med(kind: str, field: str) -> float:
        return statistics.median(us(getattr(r, field), r.plays) for r in runs[kind])

    game = f"{args.rules}, {args.seats} seats"
    print(f"outputs: {args.rounds} rounds of {args.plays} plays ({game}), the table service "
          "in this process, Mosquitto on loopback; CPU per play, median of the rounds")  # fmt: skip
    print(f"{'':<22}{'no outputs':>11}{'clock+strip':>12}{'+ voice':>9}{'cost':>7}{'ratio':>7}")
    for field, label in (("worker_s", "worker thread (us)"), ("process_s", "whole process (us)")):
        a, b, c = med("none", field), med("lights", field), med("all", field)
        print(f"{label:<22}{a:>11.0f}{b:>12.0f}{c:>9.0f}{c - a:>7.0f}{c / a:>7.2f}")
    a, b, c = (med(kind, "handlers_s") for kind in ("none", "lights", "all"))
    print(f"{'outputs handlers (us)':<22}{a:>11.0f}{b:>12.0f}{c:>9.0f}{c - a:>7.0f}")
    speech = med("all", "children_s")
    print(f"{'espeak-ng (us)':<22}{0:>11.0f}{0:>12.0f}{speech:>9.0f}{speech:>7.0f}")
    phrases = sum(r.phrases for r in runs["all"])
    per_phrase = sum(r.children_s for r in runs["all"]) / max(phrases, 1) * 1000
    print(f"espeak-ng: {phrases} phrases spoken, {per_phrase:.0f} ms CPU each (its own process)")
    spread = {k: [round(us(r.worker_s, r.plays)) for r in v] for k, v in runs.items()}
    print(f"worker thread per round (us): {spread}")


if __name__ == "__main__":
    raise SystemExit(main())
