"""A power cut at any instant costs nothing: the real `domino-table run` on a board
table, its state folder on a disk that cuts it (the lossy file system, which keeps only
what was fsynced, or the machine's real disk), killed with SIGKILL at every fsync of a
first start, of a start after a cut, and of each step of a game (before each, and after
the last), then after each step a subscriber saw and at seeded random moments; started
again each time on a new boot id. Every time: each file the table writes whole is whole
or not there, it starts, nothing a subscriber saw is lost, no seq comes back with another
payload or goes back, `state.seq` names the last event, and the game ends as it would
have without the cuts (`tests/power/phases.py`).

Each test prints what it tried (`pytest -s`): the cuts, and where each fell.
"""

from __future__ import annotations

import time

import pytest

from tests.power.phases import (
    board_table,
    first_start_sweep,
    game_sweep,
    restart_sweep,
    seen_and_random,
)
from tests.power.rig import DISKS, MakePower, Power

pytestmark = pytest.mark.slow


def report(what: str, power: Power, started: float) -> None:
    print(f"\n{what}: {len(power.cuts)} cuts, {power.table.starts} starts, "
          f"{time.monotonic() - started:.1f} s; where: {power.cuts}")  # fmt: skip


@pytest.mark.parametrize("disk", DISKS)
def test_a_first_start_cut_at_every_fsync_starts_again(make_power: MakePower, disk: str) -> None:
    started = time.monotonic()
    power = board_table(make_power, disk)
    points = first_start_sweep(power)
    assert len(points) >= 8, points  # folder, database, log, mark, game at least
    assert len(power.cuts) == len(points) + 1
    report(f"first start ({disk} disk), {len(points)} fsyncs", power, started)


@pytest.mark.parametrize("disk", DISKS)
def test_a_restart_cut_at_every_fsync_starts_again(make_power: MakePower, disk: str) -> None:
    started = time.monotonic()
    power = board_table(make_power, disk)
    points = restart_sweep(power)
    assert "/state/journal.seq.tmp" in points, points
    assert len(power.cuts) == len(points) + 1
    report(f"restart ({disk} disk), {len(points)} fsyncs", power, started)


@pytest.mark.parametrize("disk", DISKS)
def test_a_game_cut_at_every_fsync_ends_as_it_would_have(make_power: MakePower, disk: str) -> None:
    started = time.monotonic()
    power = board_table(make_power, disk)
    fsyncs = game_sweep(power)
    assert all("/state/journal.sqlite3-wal" in points for points in fsyncs), fsyncs
    assert len(power.cuts) == sum(len(points) + 1 for points in fsyncs)
    report(f"game ({disk} disk), {len(fsyncs)} steps, fsyncs {[len(p) for p in fsyncs]}",
           power, started)  # fmt: skip


def test_a_game_cut_after_each_step_seen_and_at_random_moments_ends_as_it_would_have(
    make_power: MakePower,
) -> None:
    started = time.monotonic()
    power = board_table(make_power, "lossy")
    checked = seen_and_random(power)
    assert len(power.cuts) == 22  # two in each of the game's 11 steps
    report(f"game, seen and random (lossy disk), {checked} events checked", power, started)
