"""The phases a power cut may fall in, on a board table, each cut at every fsync (or at
the moments named) and checked: what `test_power_cut.py` runs on both disks, and
`test_weakened.py` on a table with some durability taken away, where it must fail.

Each returns the fsyncs its reference run named (or the cuts it made); `power.cuts`
says where each cut fell.
"""

from __future__ import annotations

import contextlib
import random
import time
from functools import partial
from typing import Any

from tests.fixtures.mqtt_recorder import Seen
from tests.power.checks import latest, no_errors, nothing_seen_lost, restarted, settled
from tests.power.game import SEATS, Step, ended_as_planned, plan
from tests.power.rig import DiedError, MakePower, Power, latest_state
from tests.power.sweep import attempts, held, power_back, restore, until_cut

BOARD = ("--rules", "walnut", "--seats", str(SEATS))
SETTINGS = "[table]\ntarget = 20"


def board_table(make_power: MakePower, disk: str, **settings: Any) -> Power:
    return make_power(disk, *BOARD, board=True, settings=SETTINGS, **settings)


def first_start(power: Power) -> None:
    """A first start, done: online, and the record of games made and written."""
    power.watch.online(power.table)
    power.watch.caught_up(power.table)


def started_again(power: Power) -> None:
    """A start on a kept game, done: online, its state naming the last event it holds,
    the record of games caught up with the journal."""
    power.watch.online(power.table)
    settled(power.watch, power.table, power.prior)
    power.watch.caught_up(power.table)


def done(power: Power, step: Step) -> None:
    """`step` done: seen (its reply, or the tile in the state), its record written."""
    power.watch.wait(step.done(power.watch), 30, power.table)
    power.watch.caught_up(power.table)


def again(power: Power) -> None:
    """After a cut: the table starts on what the disk kept (checked)."""
    power_back(power)
    power.table.start()
    restarted(power.watch, power.table, prior=power.prior)


def finish(power: Power) -> int:
    """A clean stop: nothing seen is lost (the journal read from outside); the number of
    events checked."""
    assert power.table.stop() == 0, power.table.output()[-2000:]
    checked = nothing_seen_lost(power.watch, power.table)
    no_errors(power.table)
    return checked


def _over(seen: list[Seen]) -> dict[str, Any] | None:
    state = latest_state(seen)
    return state if state is not None and state["phase"] == "over" else None


def first_start_sweep(power: Power) -> list[str]:
    """The very first start, on an empty disk: cut before each of its fsyncs (the state
    folder made, the journal's database and log made, the seq mark written, the
    configured game stored, the record of games made) and after the last, then started
    again on a new boot. Its fsyncs."""
    fs, table, watch = power.disk, power.table, power.watch
    fs.snapshot("empty")
    fs.counts()
    table.start()
    first_start(power)
    points: list[str] = fs.counts()["trace"]
    for n, before in attempts(points):
        restore(power, "empty", {})

        def arm(pid: int, n: int = n, before: bool = before) -> None:
            fs.arm_fsync(n, pid, before=before)

        table.start(arm=arm)
        until_cut(power, lambda: first_start(power), n, points)
        again(power)
        state = restarted(watch, table)
        assert state["phase"] == "lead" and state["rules"] == "walnut"
    finish(power)
    return points


def restart_sweep(power: Power) -> list[str]:
    """Power back after a cut mid-game, and cut again at each fsync of that start (the
    journal opened, the seq mark moved on, the record of games caught up) and after the
    last; then the game goes on to its end. The start's fsyncs."""
    fs, table, watch, board = power.disk, power.table, power.watch, power.board
    assert board is not None
    game = plan()
    table.start()
    watch.online(table)
    for step in game.steps[:4]:
        step.do(board, watch)
        done(power, step)
    power.table.power_cut()
    watch.gone()
    fs.snapshot("cut mid-game")
    prior = held(power)
    restore(power, "cut mid-game", prior)
    table.start()
    started_again(power)
    points: list[str] = fs.counts()["trace"]
    for n, before in attempts(points):
        restore(power, "cut mid-game", prior)

        def arm(pid: int, n: int = n, before: bool = before) -> None:
            fs.arm_fsync(n, pid, before=before)

        table.start(arm=arm)
        until_cut(power, lambda: started_again(power), n, points)
        again(power)
    for step in game.steps[4:]:
        step.do(board, watch)
        watch.wait(step.done(watch), 30, table)
    ended_as_planned(watch.wait(_over, 20, table), game)
    finish(power)
    return points


def game_sweep(power: Power) -> list[list[str]]:
    """The game played once uncut (which names each step's fsyncs: the journal's commit,
    the record's), then once for each n, each step cut before its n-th fsync (when it
    has that many), and once more with each step cut after its last; after each cut the
    table starts again on what the disk kept and the step is done again (a command
    resent under its id; the tile lies there still), and the game goes on from there.
    Each step's fsyncs."""
    fs, table, watch, board = power.disk, power.table, power.watch, power.board
    assert board is not None
    game = plan()
    fs.snapshot("empty")

    def new_game() -> None:
        restore(power, "empty", {})
        for tile in board.surface():  # the table cleared
            board.lift(tile)
        assert board.wait_until(lambda: not board.surface(), 10)
        table.start()
        first_start(power)
        fs.counts()

    table.start()
    first_start(power)
    fs.counts()
    fsyncs: list[list[str]] = []
    for step in game.steps:
        step.do(board, watch)
        done(power, step)
        fsyncs.append(fs.counts()["trace"])
    ended_as_planned(watch.wait(_over, 20, table), game)
    most = max(len(points) for points in fsyncs)
    for n, before in [(n, True) for n in range(1, most + 1)] + [(0, False)]:
        new_game()
        for step, points in zip(game.steps, fsyncs, strict=True):
            at = n if before else len(points)
            if at > len(points):  # this step has fewer fsyncs: done uncut
                step.do(board, watch)
                done(power, step)
                continue
            fs.arm_fsync(at, table.pid or 0, before=before)
            step.do(board, watch)
            until_cut(power, partial(done, power, step), at, points)
            again(power)
            step.do(board, watch)  # a command again under its id; a tile lies there still
            done(power, step)
        ended_as_planned(watch.wait(_over, 20, table), game)
    finish(power)
    return fsyncs


def seen_and_random(power: Power, seed: int = 11) -> int:
    """Each step of the game cut twice (the lossy disk): at a seeded random moment while
    it is done (before a random change: a write, a rename, an fsync; or at a random
    instant), and once it reached a subscriber. The events checked at the end."""
    fs, table, watch, board = power.disk, power.table, power.watch, power.board
    assert board is not None
    rng = random.Random(seed)
    game = plan()
    table.start()
    watch.online(table)
    for step in game.steps:
        if rng.random() < 0.5:
            fs.arm_change(rng.randint(1, 12), table.pid or 0)
            step.do(board, watch)
        else:
            step.do(board, watch)
            time.sleep(rng.uniform(0.0, 0.15))  # the random instant (a moment, not a wait)
            table.kill()
        with contextlib.suppress(DiedError):
            watch.wait(step.done(watch), 30, table)
        fs.disarm()
        killed = fs.counts()["killed"]
        power.cuts.append(killed["where"] if killed else "a random instant")
        again(power)
        step.do(board, watch)  # a command again under its id; a tile lies there still
        watch.wait(step.done(watch), 30, table)
        power.cuts.append("once seen")  # the table has published the step: the power goes
        again(power)
        tiles = latest(watch)["layout"]["tiles"]
        assert len(tiles) >= step.laid, f"tiles seen laid and lost: {len(tiles)} of {step.laid}"
    ended_as_planned(watch.wait(_over, 20, table), game)
    return finish(power)
