"""A cut at every fsync of a phase: the phase run once uncut (the reference, which names
its fsyncs in order), then once per fsync with the table killed before it (and once
after the last), each time from the same disk, and the table started again after each.

The table's fsyncs come from two threads (the game's journal; the record of games,
`service.history`), so a phase is done once the record has caught up too
(`Watch.caught_up`): then the reference has made all its fsyncs, and a cut armed at the
n-th has fallen, or the run made fewer than the reference (which the test says).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from tests.power.checks import files_whole, nothing_seen_lost
from tests.power.rig import DiedError, Power, events_by_seq


def attempts(points: list[str]) -> list[tuple[int, bool]]:
    """Before each fsync of the reference, and after its last: (n, before)."""
    return [(n, True) for n in range(1, len(points) + 1)] + [(len(points), False)]


def until_cut(power: Power, act: Callable[[], object], n: int, points: list[str]) -> str:
    """`act()` (the phase, up to its end) runs with a cut armed at the n-th fsync; the
    table must have died there. Where it fell."""
    with contextlib.suppress(DiedError):
        act()
    table = power.table
    if table.alive():
        raise AssertionError(
            f"no cut at fsync {n} ({points[n - 1]}): this run made fewer fsyncs than "
            f"the reference {points}"
        )
    killed = power.disk.counts()["killed"]
    assert killed is not None, f"the table ended by itself:\n{table.output()[-3000:]}"
    where: str = killed["where"]
    power.cuts.append(where)
    return where


def power_back(power: Power) -> None:
    """The power goes (the table is dead already, or dies now) and comes back: what was
    not fsynced is lost; each file the table writes whole is whole or not there, and
    every event a subscriber saw is in the journal; the machine is on a new boot."""
    power.table.power_cut()
    power.watch.gone()
    files_whole(power.table.state)
    nothing_seen_lost(power.watch, power.table)


def restore(power: Power, name: str, prior: dict[int, bytes]) -> None:
    """The disk as the snapshot `name` kept it (the table dead), a new boot, a new look:
    what was seen since belongs to a run that now never happened; `prior`: the events
    seen before the snapshot, which the disk holds."""
    power.table.kill()
    power.watch.gone()
    power.disk.restore(name)
    power.table.new_boot()
    power.watch.mark = len(power.watch.seen)
    power.prior = dict(prior)
    power.disk.counts()  # the fsyncs traced from here on


def held(power: Power) -> dict[int, bytes]:
    """The events the disk holds now (seen since the mark, or before it)."""
    return {**power.prior, **events_by_seq(power.watch.seen[power.watch.mark :])}
