"""A power cut at any instant costs nothing: the real `domino-table run`, its state folder
on a file system that keeps only what was fsynced (`tests/fixtures/lossy_fs.py`), killed
with SIGKILL at every fsync of a first start and of a game, before and after each, after
each step a subscriber saw, and at seeded random moments; what it had not fsynced is
dropped and it starts again on a new boot id. Every time: it starts, nothing a subscriber
saw is lost, no seq comes back with another payload or goes back, `state.seq` names the
last event, and the game ends as it would have without the cuts.

Each test prints what it tried (`pytest -s`): the cuts per phase, and where each fell.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.emulator import BoardEmulator
from tests.fixtures.lossy_fs import LossyFs
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_recorder import Seen
from tests.power.checks import latest, no_errors, nothing_seen_lost, restarted
from tests.power.game import SEATS, Plan, Step, ended_as_planned, plan
from tests.power.rig import DiedError, PowerTable, Watch, latest_state

pytestmark = pytest.mark.slow

BOARD = ("--rules", "walnut", "--seats", str(SEATS))
SETTINGS = "[table]\ntarget = 20"


@dataclass
class Rig:
    fs: LossyFs
    broker: Mosquitto
    watch: Watch
    board: BoardEmulator
    table: PowerTable
    cuts: list[str] = field(default_factory=list)

    def cut_and_restart(self) -> None:
        """The power goes (the table may already be dead: the file system killed it at
        its cut) and comes back: the table starts on what was fsynced, on a new boot."""
        killed = self.fs.counts()["killed"]
        self.cuts.append(killed["where"] if killed else "a moment the test chose")
        self.table.power_cut()
        self.watch.gone()
        self.table.start()
        restarted(self.watch, self.table)


@pytest.fixture
def rig(broker: Mosquitto, tmp_path: Path) -> Iterator[Rig]:
    fs = LossyFs(tmp_path / "disk", tmp_path).start()
    board = BoardEmulator(link=tmp_path / "board", speed=3, seed=4).start()
    watch = Watch(broker)
    table = PowerTable(fs, broker, tmp_path, "--serial", str(tmp_path / "board"), *BOARD,
                       settings=SETTINGS)  # fmt: skip
    try:
        yield Rig(fs, broker, watch, board, table)
    finally:
        table.kill()
        watch.close()
        board.stop()
        fs.stop()


def run_step(rig: Rig, step: Step, arm: str | None, rng: random.Random | None = None) -> bool:
    """Do `step` with a cut armed (`before` / `after` its first fsync, `random`: before a
    random change or at a random instant); after a cut, start again and finish it.
    Whether a cut fell in it."""
    fs, table, watch = rig.fs, rig.table, rig.watch
    timer = None
    if arm in ("before", "after"):
        fs.arm_fsync(1, table.pid, before=arm == "before")
    elif arm == "random":
        assert rng is not None
        if rng.random() < 0.5:
            fs.arm_change(rng.randint(1, 12), table.pid)
        else:
            timer = rng.uniform(0.0, 0.15)
    step.do(rig.board, watch)
    if timer is not None:
        time.sleep(timer)
        table.kill()
    with contextlib.suppress(DiedError):
        watch.wait(step.done(watch), 30, table)
    fs.disarm()
    if table.alive():
        return False
    rig.cut_and_restart()  # (also a cut that fell after the step was done)
    step.do(rig.board, watch)  # a command again under its id; a tile lies there still
    watch.wait(step.done(watch), 30, table)
    return True


def play(rig: Rig, game: Plan, arm: str | None, seed: int = 0) -> int:
    """The whole game, a cut in each step as `arm` says (`seen`: a cut after each step
    was seen); the cuts that fell."""
    rng = random.Random(seed)
    fell = 0
    for step in game.steps:
        fell += run_step(rig, step, arm if arm != "seen" else None, rng)
        if arm == "seen":  # the table has published the step: the power goes now
            rig.cut_and_restart()
            watch_state = latest(rig.watch)
            assert len(watch_state["layout"]["tiles"]) >= (step.laid or 0)
            fell += 1
    ended_as_planned(rig.watch.wait(_over, 20, rig.table), game)
    return fell


def _over(seen: list[Seen]) -> dict[str, Any] | None:
    state = latest_state(seen)
    return state if state is not None and state["phase"] == "over" else None


def finish(rig: Rig) -> int:
    """A clean stop: nothing seen is lost (the journal read from outside)."""
    assert rig.table.stop() == 0, rig.table.output()[-2000:]
    checked = nothing_seen_lost(rig.watch, rig.table)
    no_errors(rig.table)
    return checked


@pytest.mark.parametrize("arm", ["before", "after", "seen", "random"])
def test_a_game_cut_at_every_fsync_ends_as_it_would_have(rig: Rig, arm: str) -> None:
    """`before`/`after`: a cut at the fsync of every step of the game (each step makes
    one: the journal's commit), before it lands or once it has landed and before the
    table publishes; `seen`: a cut after each step reached a subscriber; `random`: before
    a seeded random change or at a random instant in each step."""
    started = time.monotonic()
    game = plan()
    rig.table.start()
    rig.watch.online(rig.table)
    fell = play(rig, game, arm, seed=11)
    checked = finish(rig)
    print(f"\n{arm}: {fell} cuts in {len(game.steps)} steps, {checked} events checked, "
          f"{time.monotonic() - started:.1f} s; where: {rig.cuts}")  # fmt: skip
    if arm in ("before", "after", "seen"):
        assert fell == len(game.steps)  # every step's fsync (or every step) was cut


@pytest.mark.timeout(600)  # two starts a cut, on a loaded runner
def test_a_first_start_cut_at_every_fsync_starts_again(rig: Rig) -> None:
    """The very first start, on an empty disk: cut before each of its fsyncs (the state
    folder made, the journal's database and log made, the seq mark written, the
    configured game stored) and after the last, then started again on a new boot."""
    started = time.monotonic()
    fs, table, watch = rig.fs, rig.table, rig.watch
    fs.snapshot("empty")
    fs.counts()
    table.start()
    watch.online(table)
    time.sleep(0.5)
    reference = fs.counts()
    points = reference["trace"]
    table.kill()
    assert len(points) >= 8, points  # folder, database, log, mark, game at least
    tried = 0
    for n, where in enumerate(points, start=1):
        # before each fsync, and after the last: nothing is published between two fsyncs
        # of a first start, so a cut after one is the cut before the next
        for before in (True, False) if n == len(points) else (True,):
            fs.restore("empty")
            table.new_boot()
            watch.mark = len(watch.seen)

            def arm(pid: int, n: int = n, before: bool = before) -> None:
                fs.arm_fsync(n, pid, before=before)

            table.start(arm=arm)
            table.wait_dead()
            killed = fs.counts()["killed"]
            assert killed is not None, f"no cut at fsync {n} ({where})"
            rig.cuts.append(killed["where"])
            table.power_cut()
            watch.gone()
            table.start()
            state = restarted(watch, table)
            assert state["phase"] == "lead" and state["rules"] == "walnut"
            table.kill()
            watch.gone()
            tried += 1
    table.start()  # the last one goes on to a clean stop: everything seen is kept
    restarted(watch, table)
    finish(rig)
    print(f"\nfirst start: {tried} cuts at {len(points)} fsyncs, "
          f"{time.monotonic() - started:.1f} s; where: {rig.cuts}")  # fmt: skip


@pytest.fixture
def weak_rig(broker: Mosquitto, tmp_path: Path) -> Iterator[Rig]:
    """The same table with the journal's weakened setting `[state] synchronous = "normal"`."""
    fs = LossyFs(tmp_path / "disk", tmp_path).start()
    board = BoardEmulator(link=tmp_path / "board", speed=3, seed=4).start()
    watch = Watch(broker)
    table = PowerTable(fs, broker, tmp_path, "--serial", str(tmp_path / "board"), *BOARD,
                       settings=SETTINGS, synchronous="normal")  # fmt: skip
    try:
        yield Rig(fs, broker, watch, board, table)
    finally:
        table.kill()
        watch.close()
        board.stop()
        fs.stop()


def test_the_test_catches_a_journal_that_does_not_fsync_each_change(weak_rig: Rig) -> None:
    """With `synchronous = "normal"` a commit is not fsynced: a cut after a step was seen
    loses it (the subscriber saw a play the table no longer has), which the checks above
    would fail on. What it lost is printed."""
    rig, game = weak_rig, plan()
    rig.table.start()
    rig.watch.online(rig.table)
    for step in game.steps:
        run_step(rig, step, None)
        rig.table.power_cut()
        rig.watch.gone()
        rig.table.start()
        rig.watch.online(rig.table)
        step.do(rig.board, rig.watch)  # a command again; a tile the table judges again
        rig.watch.wait(step.done(rig.watch), 30, rig.table)
    assert rig.table.stop() == 0
    with pytest.raises(AssertionError, match="events seen and lost") as caught:
        nothing_seen_lost(rig.watch, rig.table)
    print(
        f"\nsynchronous = normal: {len(game.steps)} cuts, each after a step was seen: "
        f"{caught.value}"
    )
