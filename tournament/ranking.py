"""An event's standings: each player's record, ranked by the event's tie-breaks, then a draw.

Pure. Each tie-break splits every group of players still level on the ones before it
(highest first); `head_to_head` is counted within that group only: a player's wins in
games against the others of the group. What is still level after the last tie-break is
ordered by the seeded draw (`draw_order`), so every rank is distinct, and the same seed
and results always give the same ranking. Each entry carries the values used, by name.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tournament.event import TieBreak


@dataclass(frozen=True)
class Credit:
    """One player's share of one game: its side won or not, the side's score and margin."""

    player: str
    won: bool
    points: int
    margin: int
    opponents: frozenset[str]


@dataclass
class Record:
    """A player's games so far."""

    player: str
    name: str
    games: int = 0
    wins: int = 0
    points: int = 0
    margin: int = 0
    beat: list[frozenset[str]] = field(default_factory=list)  # opponents of each game won

    def add(self, credit: Credit) -> None:
        self.games += 1
        self.wins += int(credit.won)
        self.points += credit.points
        self.margin += credit.margin
        if credit.won:
            self.beat.append(credit.opponents)


def draw_key(seed: int, player: str) -> str:
    """The seeded draw: a player's place in it, the same for the same seed and id."""
    return hashlib.sha256(f"{seed}:{player}".encode()).hexdigest()


def draw_order(seed: int, players: Iterable[str]) -> list[str]:
    return sorted(players, key=lambda p: (draw_key(seed, p), p))


Value = int | float


def _value(tie: TieBreak, rec: Record, group: Sequence[Record]) -> Value:
    if tie is TieBreak.WINS:
        return rec.wins
    if tie is TieBreak.WIN_PCT:
        return round(rec.wins / rec.games, 4) if rec.games else 0.0
    if tie is TieBreak.MARGIN:
        return rec.margin
    if tie is TieBreak.POINTS:
        return rec.points
    if tie is TieBreak.AVG_POINTS:
        return round(rec.points / rec.games, 2) if rec.games else 0.0
    others = {r.player for r in group if r is not rec}
    return sum(1 for beaten in rec.beat if beaten & others)


@dataclass(frozen=True)
class Entry:
    rank: int
    record: Record
    values: dict[str, Value]

    def payload(self) -> dict[str, Any]:
        r = self.record
        return {
            "rank": self.rank,
            "player": r.player,
            "name": r.name,
            "games": r.games,
            "wins": r.wins,
            "points": r.points,
            "margin": r.margin,
            "tie_breaks": dict(self.values),
        }


def _split(
    groups: list[list[Record]], tie: TieBreak, values: dict[str, dict[str, Value]]
) -> list[list[Record]]:
    out: list[list[Record]] = []
    for group in groups:
        if len(group) == 1:
            values[group[0].player][tie.value] = _value(tie, group[0], group)
            out.append(group)
            continue
        keyed = [(_value(tie, rec, group), rec) for rec in group]
        for value, rec in keyed:
            values[rec.player][tie.value] = value
        keyed.sort(key=lambda kv: kv[0], reverse=True)
        current: list[Record] = []
        for n, (value, rec) in enumerate(keyed):
            if n and value != keyed[n - 1][0]:
                out.append(current)
                current = []
            current.append(rec)
        out.append(current)
    return out


def rank(records: Iterable[Record], ties: Sequence[TieBreak], seed: int) -> list[Entry]:
    """Entries ranked 1..n: by `ties` in order, then the seeded draw."""
    recs = list(records)
    place = {p: n for n, p in enumerate(draw_order(seed, (r.player for r in recs)), start=1)}
    values: dict[str, dict[str, Value]] = {r.player: {} for r in recs}
    groups = [sorted(recs, key=lambda r: place[r.player])] if recs else []
    for tie in ties:
        groups = _split(groups, tie, values)
    ordered = [rec for group in groups for rec in sorted(group, key=lambda r: place[r.player])]
    for rec in ordered:
        values[rec.player]["draw"] = place[rec.player]
    return [Entry(n, rec, values[rec.player]) for n, rec in enumerate(ordered, start=1)]


def records(roster: Iterable[tuple[str, str]], credits: Iterable[Credit]) -> dict[str, Record]:
    """Each roster player's record (id, name) from the credits of every counted game."""
    out = {pid: Record(pid, name) for pid, name in roster}
    for credit in credits:
        rec = out.get(credit.player)
        if rec is not None:
            rec.add(credit)
    return out


Sorter = Callable[[Iterable[Record]], list[Entry]]
