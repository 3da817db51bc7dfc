"""A frame's record of the detector's looks, and its budget of search passes.

The looks themselves are `vision.detector.looks`; this module is what every stage that
holds one (the detector, the pip counter, the tiles' marks) shares: `Trace` (which
looks may run, what each did, the passes spent) and `LookRecord` (what one look did,
as `Detection.looks` reports it). It imports nothing of ours, so every stage may.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

import numpy as np

__all__ = ["Grain", "LookRecord", "Note", "Trace", "changes"]


class Grain(StrEnum):
    """What a look looks at: the whole frame, one search, or one reading."""

    FRAME = "frame"
    SEARCH = "search"
    READING = "reading"


@dataclass(frozen=True, slots=True)
class LookRecord:
    """What one of the detector's looks did on a frame (`vision.detector.looks`):
    how often it ran, the search passes it spent (in passes over the whole searched
    image: a pass over a part of it, or over it shrunk, counts that share), its CPU
    time (the thread's; both with the looks run inside it), the tiles it added,
    removed and re-read (other pips at the same place), the readings it changed, and
    why it did not run when it did not ("off", "budget")."""

    name: str
    grain: str
    runs: int = 0
    passes: float = 0.0
    ms: float = 0.0
    added: int = 0
    removed: int = 0
    reread: int = 0
    changed: int = 0
    skipped: str = ""

    def __str__(self) -> str:
        if self.skipped and not self.runs:
            return f"{self.name} ({self.grain}): skipped, {self.skipped}"
        text = (
            f"{self.name} ({self.grain}): ran {self.runs}x, {self.passes:.1f} passes, "
            f"{self.ms:.1f} ms"
        )
        if self.grain == "reading":
            return text + f", changed {self.changed} readings"
        text += f", tiles +{self.added} -{self.removed} re-read {self.reread}"
        return text + (f" (then skipped: {self.skipped})" if self.skipped else "")

    def as_dict(self) -> dict[str, str | int | float]:
        return {
            "name": self.name,
            "grain": self.grain,
            "runs": self.runs,
            "passes": self.passes,
            "ms": self.ms,
            "added": self.added,
            "removed": self.removed,
            "reread": self.reread,
            "changed": self.changed,
            "skipped": self.skipped,
        }


class _Tile(Protocol):
    @property
    def pips(self) -> tuple[int, int]: ...

    @property
    def px(self) -> tuple[tuple[float, float], tuple[float, float]]: ...


class _Reading(Protocol):
    @property
    def tiles(self) -> Sequence[_Tile]: ...


@dataclass(slots=True)
class _Tally:
    """A look's record as it is being made."""

    name: str
    grain: Grain
    runs: int = 0
    passes: float = 0.0
    ms: float = 0.0
    added: int = 0
    removed: int = 0
    reread: int = 0
    changed: int = 0
    skipped: str = ""

    def record(self) -> LookRecord:
        return LookRecord(
            self.name,
            str(self.grain),
            self.runs,
            round(self.passes, 2),
            round(self.ms, 2),
            self.added,
            self.removed,
            self.reread,
            self.changed,
            self.skipped,
        )


class Note:
    """What a reading look tells its `Trace.inner` block: that it changed a reading."""

    __slots__ = ("changed",)

    def __init__(self) -> None:
        self.changed = False

    def took(self, changed: bool = True) -> bool:
        """Mark the reading changed when `changed`; returns it (`if note.took(x):`)."""
        self.changed = self.changed or changed
        return changed


@dataclass(slots=True)
class Trace:
    """One frame's record of its looks, and its budget of passes.

    `off` names the looks turned off; `budget` the passes after which no further look
    is started. Every search pass calls `spend()` with its image's pixels; a pass
    counts as its share of `frame_px` (the pixels of a pass, `LookSettings.pass_px`:
    a pass over fewer pixels, a box or a shrunk frame, counts less, over more pixels
    more), and is charged to the looks running it. A trace made with no arguments lets every look
    run and counts each pass as one."""

    off: frozenset[str] = frozenset()
    budget: float = 1_000_000.0
    frame_px: float = 0.0
    passes: float = 0.0
    _tallies: dict[str, _Tally] = field(default_factory=dict)
    _stack: list[_Tally] = field(default_factory=list)
    _took: set[str] = field(default_factory=set)

    def on(self, name: str) -> bool:
        """Whether look `name` may run (not turned off)."""
        return name not in self.off

    def spent(self) -> bool:
        """Whether the frame's budget of passes is spent."""
        return self.passes >= self.budget

    def spend(self, pixels: float = 0.0) -> None:
        """A search pass over `pixels` ran (0: the whole searched image): charged to
        the frame and to every look running (a look's passes, as its time, hold those
        of the looks run inside it)."""
        passes = pixels / self.frame_px if pixels > 0 and self.frame_px > 0 else 1.0
        self.passes += passes
        for tally in self._stack:
            tally.passes += passes

    def took(self, name: str) -> bool:
        """Whether look `name` ran on this frame and changed what it looked at."""
        return name in self._took

    def _tally(self, name: str, grain: Grain) -> _Tally:
        tally = self._tallies.get(name)
        if tally is None:
            tally = self._tallies[name] = _Tally(name, grain)
        return tally

    def skip(self, name: str, grain: Grain, why: str) -> None:
        """Look `name` did not run (or stopped): turned off, or the budget spent."""
        tally = self._tally(name, grain)
        if not tally.skipped:
            tally.skipped = why

    @contextmanager
    def look(self, name: str, grain: Grain) -> Iterator[None]:
        """A frame or search look runs inside this block (timed, its passes charged)."""
        tally = self._tally(name, grain)
        tally.runs += 1
        self._stack.append(tally)
        start = time.thread_time()
        try:
            yield
        finally:
            tally.ms += (time.thread_time() - start) * 1000.0
            self._stack.pop()

    @contextmanager
    def inner(self, name: str) -> Iterator[Note]:
        """A reading look runs inside this block (timed); `Note.took` says it changed
        the reading. Enter it only when `on(name)`."""
        tally = self._tally(name, Grain.READING)
        tally.runs += 1
        note = Note()
        start = time.thread_time()
        try:
            yield note
        finally:
            tally.ms += (time.thread_time() - start) * 1000.0
            if note.changed:
                tally.changed += 1
                self._took.add(name)

    def count(self, name: str, changed: bool) -> None:
        """A cheap reading look ran once (not timed); `changed`: it changed the reading."""
        tally = self._tally(name, Grain.READING)
        tally.runs += 1
        if changed:
            tally.changed += 1
            self._took.add(name)

    def changed(self, name: str, grain: Grain, before: _Reading, after: _Reading) -> None:
        """Look `name` turned reading `before` into `after`: the tiles it added,
        removed and re-read."""
        added, removed, reread = changes(before.tiles, after.tiles)
        tally = self._tally(name, grain)
        tally.added += added
        tally.removed += removed
        tally.reread += reread
        if after is not before:
            tally.changed += 1
            self._took.add(name)

    def records(self) -> tuple[LookRecord, ...]:
        """Every look that ran or was skipped, in the order each first did."""
        return tuple(t.record() for t in self._tallies.values())


def _centre(t: _Tile) -> tuple[float, float]:
    (xa, ya), (xb, yb) = t.px
    return ((xa + xb) / 2.0, (ya + yb) / 2.0)


def _span(t: _Tile) -> float:
    (xa, ya), (xb, yb) = t.px
    return float(np.hypot(xb - xa, yb - ya))


def changes(before: Sequence[_Tile], after: Sequence[_Tile]) -> tuple[int, int, int]:
    """(added, removed, re-read) from `before` to `after`: two tiles lie at the same
    place when their centres are within a quarter of a tile's width (the distance
    between its half centres); re-read when that place has other pips."""
    left = list(before)
    added = reread = 0
    for t in after:
        cx, cy = _centre(t)
        reach = 0.25 * max(_span(t), 1.0)
        match = next(
            (
                k
                for k, o in enumerate(left)
                if np.hypot(_centre(o)[0] - cx, _centre(o)[1] - cy) <= reach
            ),
            None,
        )
        if match is None:
            added += 1
            continue
        other = left.pop(match)
        if sorted(other.pips) != sorted(t.pips):
            reread += 1
    return added, len(left), reread
