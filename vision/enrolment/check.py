"""The tiles read against a set's tile list: what was missed, read wrong, or is extra.

The set lies whole, so each of its tiles should be read exactly once. A tile of the
set read more than once, or a tile not in the set, is a reading too many; a tile of
the set not read is missing. A reading too many that shares a half with a missing
tile is most likely that tile with its other half miscounted: the two are reported
as one misread (`tile` read `as`), the closest pairs first. Positions are not used:
the set's tiles may lie anywhere.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.tiles import DominoSet, Tile, TileError

__all__ = ["SetCheck", "check_set"]


@dataclass(frozen=True, slots=True)
class SetCheck:
    """A set's reading judged: `expected` tiles, `read` readings; `misread` pairs are
    (the tile, what it was read as)."""

    domino_set: DominoSet
    expected: int
    read: int
    missing: tuple[Tile, ...]
    misread: tuple[tuple[Tile, Tile], ...]
    extra: tuple[str, ...]  # readings too many, as read ("13-2" is no tile of any set)

    @property
    def ok(self) -> bool:
        """Every tile read right, once, and nothing else."""
        return not (self.missing or self.misread or self.extra)

    @property
    def right(self) -> int:
        """Tiles of the set read right."""
        return self.expected - len(self.missing) - len(self.misread)

    def detail(self) -> dict[str, Any]:
        """The `enrol` reply's `detail` (spec/mqtt.md)."""
        return {
            "expected": self.expected,
            "read": self.read,
            "missing": [t.text for t in self.missing],
            "misread": [{"tile": t.text, "as": r.text} for t, r in self.misread],
            "extra": list(self.extra),
        }

    def summary(self) -> str:
        """One sentence: how many were read right, and what to do when not all."""
        if self.ok:
            return f"all {self.expected} tiles of the {self.domino_set} set read right"
        parts = [
            f"{len(self.missing)} not found" if self.missing else "",
            f"{len(self.misread)} read wrong" if self.misread else "",
            f"{len(self.extra)} not in the set" if self.extra else "",
        ]
        told = (
            f"{self.right} of the {self.expected} tiles of the {self.domino_set} set read "
            f"right ({', '.join(p for p in parts if p)})"
        )
        most = self._highest()
        bigger = [s for s in DominoSet if s > self.domino_set and s.max_pip >= most]
        if most > self.domino_set.max_pip and bigger:
            return f"{told}: tiles of up to {most} pips lie there; is it a {bigger[0]} set?"
        return (
            f"{told}: lay every tile face up, apart from the others and uncovered, and enrol again"
        )

    def _highest(self) -> int:
        """The most pips on a half of a reading too many."""
        return max((int(n) for text in self.extra for n in text.split("-")), default=0)


def _apart(a: Tile, b: Tile) -> int:
    """Pips between two tiles, halves matched the closer way round."""
    return min(abs(a.high - b.high) + abs(a.low - b.low), abs(a.high - b.low) + abs(a.low - b.high))


def _shares_a_half(a: Tile, b: Tile) -> bool:
    return bool({a.high, a.low} & {b.high, b.low})


def check_set(readings: Iterable[tuple[int, int]], domino_set: DominoSet) -> SetCheck:
    """Judge `readings` (the pips of each tile read) as the whole `domino_set`."""
    expected = Counter(domino_set.tiles())
    tiles: list[Tile] = []
    odd: list[str] = []  # readings no tile of any set has
    for a, b in readings:
        try:
            tiles.append(Tile(a, b))
        except TileError:
            odd.append(f"{max(a, b)}-{min(a, b)}")
    read = Counter(tiles)
    missing = sorted((expected - read).elements())
    surplus = sorted((read - expected).elements())
    pairs = sorted(
        (_apart(m, r), i, j)
        for i, m in enumerate(missing)
        for j, r in enumerate(surplus)
        if _shares_a_half(m, r)
    )
    used_m: set[int] = set()
    used_r: set[int] = set()
    misread: list[tuple[Tile, Tile]] = []
    for _, i, j in pairs:
        if i not in used_m and j not in used_r:
            used_m.add(i)
            used_r.add(j)
            misread.append((missing[i], surplus[j]))
    return SetCheck(
        domino_set=domino_set,
        expected=domino_set.size,
        read=len(tiles) + len(odd),
        missing=tuple(m for i, m in enumerate(missing) if i not in used_m),
        misread=tuple(sorted(misread)),
        extra=tuple([r.text for j, r in enumerate(surplus) if j not in used_r] + odd),
    )
