"""Tiles and sets.

A tile is an unordered pair of pip counts. It is written high first (`6-4`) and parsed in
either order (`4-6` is the same tile). `repr` gives text that can be pasted back into
Python, and tiles are interned: `Tile.of(6, 4) is Tile.parse("4-6")`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from enum import IntEnum
from operator import attrgetter
from typing import ClassVar, Final

MAX_PIP: Final = 18  # the highest pip any supported notation allows (double-eighteen)

_NOTATION = re.compile(r"\s*([0-9]{1,2})\s*[-|/:]\s*([0-9]{1,2})\s*")  # fullmatch; ASCII digits


class TileError(ValueError):
    """Text or numbers that do not name a tile."""


class Tile:
    """One domino tile: `high >= low`, both 0..MAX_PIP. Immutable and interned."""

    __slots__ = ("bit", "high", "is_double", "low", "mask", "pips", "text")
    _cache: ClassVar[dict[tuple[int, int], Tile]] = {}

    high: int
    low: int
    pips: int
    text: str  # the notation, high first: "6-4"
    is_double: bool
    mask: int  # its numbers as bits: (1 << high) | (1 << low)
    bit: int  # the tile itself as one bit, 1 << its place in the order 0-0, 1-0, 1-1, 2-0...

    def __new__(cls, a: int, b: int) -> Tile:
        hi, lo = (a, b) if a >= b else (b, a)
        key = (hi, lo)
        cached = cls._cache.get(key)
        if cached is not None:
            return cached
        if lo < 0 or hi > MAX_PIP or not (isinstance(a, int) and isinstance(b, int)):
            raise TileError(f"{a}-{b} is not a tile: each half shows 0 to {MAX_PIP} pips")
        self = super().__new__(cls)
        object.__setattr__(self, "high", hi)
        object.__setattr__(self, "low", lo)
        object.__setattr__(self, "pips", hi + lo)
        object.__setattr__(self, "is_double", hi == lo)
        object.__setattr__(self, "mask", (1 << hi) | (1 << lo))
        object.__setattr__(self, "text", f"{hi}-{lo}")
        object.__setattr__(self, "bit", 1 << (hi * (hi + 1) // 2 + lo))
        cls._cache[key] = self
        return self

    @classmethod
    def of(cls, a: int, b: int) -> Tile:
        return cls(a, b)

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse `6-4`, `4-6`, `6|4` or `6/4`."""
        m = _NOTATION.fullmatch(text) if isinstance(text, str) else None
        if m is None:
            raise TileError(f"{text!r} is not a tile: write it as two numbers like 6-4")
        return cls(int(m.group(1)), int(m.group(2)))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("tiles are immutable")

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.high, self.low))

    # Tiles are interned, so identity is equality: the default `==` and hash (both in C)
    # keep list.remove, sets and dicts fast on the engine's hot path.

    def __lt__(self, other: Tile) -> bool:
        return (self.high, self.low) < (other.high, other.low)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Tile.parse('{self.high}-{self.low}')"

    def __iter__(self) -> Iterator[int]:
        yield self.high
        yield self.low

    def has(self, pip: int) -> bool:
        return pip in (self.high, self.low)

    def other(self, pip: int) -> int:
        """The number on the other half from `pip` (which this tile must show)."""
        if pip == self.high:
            return self.low
        if pip == self.low:
            return self.high
        raise TileError(f"{self} shows no {pip}")


# Sets of tiles as bit fields (`Tile.bit`), for the engine's hot path: a hand is also kept
# as an int, and the tiles of a hand that show a number are `held & PIP_BITS[number]`, one
# C-level `&` instead of a test per tile.
_BY_BIT_INDEX = tuple(Tile(hi, lo) for hi in range(MAX_PIP + 1) for lo in range(hi + 1))
TILE_OF_BIT: Final = {t.bit: t for t in _BY_BIT_INDEX}
PIP_BITS: Final = tuple(
    sum(t.bit for t in _BY_BIT_INDEX if t.high == n or t.low == n) for n in range(MAX_PIP + 1)
)


def bits_of(tiles: Iterable[Tile]) -> int:
    """Tiles as a bit field (each tile once): the sum of distinct bits, in C."""
    return sum(map(_BIT, tiles))


_BIT = attrgetter("bit")


_SET_TILES: dict[int, tuple[Tile, ...]] = {}


class DominoSet(IntEnum):
    """A double-n set: every pair 0..n exactly once."""

    DOUBLE_SIX = 6
    DOUBLE_NINE = 9
    DOUBLE_TWELVE = 12

    @property
    def max_pip(self) -> int:
        return int(self)

    @property
    def size(self) -> int:
        n = int(self)
        return (n + 1) * (n + 2) // 2

    def tiles(self) -> tuple[Tile, ...]:
        """Every tile of the set, in a fixed order (0-0, 1-0, 1-1, 2-0, ...)."""
        cached = _SET_TILES.get(int(self))
        if cached is None:
            n = int(self)
            cached = tuple(Tile(hi, lo) for hi in range(n + 1) for lo in range(hi + 1))
            _SET_TILES[n] = cached
        return cached

    def contains(self, tile: Tile) -> bool:
        return tile.high <= int(self)

    @classmethod
    def named(cls, text: str | int) -> DominoSet:
        """`double-six`, `double-9`, `6`, 12 ..."""
        words = {"six": 6, "nine": 9, "twelve": 12}
        key = str(text).strip().lower().removeprefix("double").lstrip("-_ ")
        value = int(key) if key.isdigit() else words.get(key, -1)
        try:
            return cls(value)
        except ValueError:
            raise TileError(
                f"{text!r} is not a supported set: double-six, double-nine or double-twelve"
            ) from None

    def __str__(self) -> str:
        return {6: "double-six", 9: "double-nine", 12: "double-twelve"}[int(self)]
