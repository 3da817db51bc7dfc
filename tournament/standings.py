"""Standings from finished games: pure, no I/O.

A finished game is the `game` event (`event: over`) a table keeps retained on
`domino/<table>/result/<game_id>` (spec/mqtt.md). Each seat's player, known by the
seat's name, is credited with:

- a game played, and a win when its seat (or, in a partnership game, its team) won;
- `points`: its final score (in a partnership game, its team's);
- `margin`: that score minus the best final score of any opponent (any other seat, or
  any other team in a partnership game).

Entries are ranked by wins, then margin, then points (all highest first); players equal
on all three share a rank (1, 2, 2, 4) and are listed by name.

The result payload names no seat's team. In a partnership game a seat's `scores` entry
is its team's score (spec/mqtt.md, `state`), so its team is the one with that score.
When two teams end level on score a seat could belong to either; it is then taken to be
in team `seat % teams` (the default partnerships: seats 0 and 2 against 1 and 3), which
only decides who is credited with the win, since points and margin are the same for
both teams.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tournament.errors import ResultError


def player_name(name: str) -> str:
    """A seat's name as the desk knows the player: inner runs of spaces made one, trimmed."""
    return " ".join(name.split())


def _ints(payload: Mapping[str, Any], key: str) -> tuple[int, ...]:
    values = payload.get(key)
    if not isinstance(values, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in values
    ):
        raise ResultError(f"{key!r} must be a list of integers")
    return tuple(values)


def _seat_or_none(payload: Mapping[str, Any], key: str) -> int | None:
    value = payload.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ResultError(f"{key!r} must be a seat or team number, or null")
    return value


@dataclass(frozen=True)
class GameResult:
    """One finished game at one table, as its `result/<game_id>` payload tells it."""

    table: str
    game_id: str
    names: tuple[str, ...]
    scores: tuple[int, ...]
    team_scores: tuple[int, ...]
    winner: int | None
    team: int | None

    @property
    def key(self) -> tuple[str, str]:
        """What makes a game count once: the table and its game id."""
        return (self.table, self.game_id)

    @classmethod
    def from_payload(cls, table: str, game_id: str, payload: Any) -> GameResult:
        """Read a result payload; `ResultError` when it is not a finished game."""
        if not isinstance(payload, Mapping):
            raise ResultError("a result must be a JSON object")
        if payload.get("event") != "over":
            raise ResultError(f"event is {payload.get('event')!r}, not 'over'")
        names = payload.get("names")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ResultError("'names' must be a list of strings")
        scores = _ints(payload, "scores")
        if len(scores) != len(names) or not names:
            raise ResultError(f"{len(names)} names but {len(scores)} scores")
        result = cls(
            table=table,
            game_id=game_id,
            names=tuple(player_name(n) for n in names),
            scores=scores,
            team_scores=_ints(payload, "team_scores"),
            winner=_seat_or_none(payload, "winner"),
            team=_seat_or_none(payload, "team"),
        )
        if result.winner is not None and result.winner >= len(names):
            raise ResultError(f"winner {result.winner} is not one of {len(names)} seats")
        return result

    def team_of(self, seat: int) -> int | None:
        """The seat's team in a partnership game (None without partnerships)."""
        teams = self.team_scores
        if not teams:
            return None
        level = [t for t, score in enumerate(teams) if score == self.scores[seat]]
        if len(level) == 1:
            return level[0]
        default = seat % len(teams)
        if default in level or not level:
            return default
        return level[0]

    def credits(self) -> list[Credit]:
        """What each seat's player earns from this game."""
        return [self._credit(seat) for seat in range(len(self.names))]

    def _credit(self, seat: int) -> Credit:
        team = self.team_of(seat)
        if team is None:
            score = self.scores[seat]
            others = [s for i, s in enumerate(self.scores) if i != seat]
            won = self.winner == seat
        else:
            score = self.team_scores[team]
            others = [s for i, s in enumerate(self.team_scores) if i != team]
            winning_team = self.team
            if winning_team is None and self.winner is not None:
                winning_team = self.team_of(self.winner)
            won = winning_team == team
        best_other = max(others, default=0)
        return Credit(self.names[seat], won, score, score - best_other)


@dataclass(frozen=True)
class Credit:
    """One player's share of one game."""

    name: str
    won: bool
    points: int
    margin: int


@dataclass(frozen=True)
class Entry:
    """One line of the standings board."""

    rank: int
    name: str
    games: int
    wins: int
    points: int
    margin: int

    def payload(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "points": self.points,
            "margin": self.margin,
        }

    @property
    def merit(self) -> tuple[int, int, int]:
        """What the ranking compares: wins, then margin, then points."""
        return (self.wins, self.margin, self.points)


def standings(results: Iterable[GameResult]) -> list[Entry]:
    """Ranked entries from finished games; a (table, game_id) seen twice counts once (the last)."""
    games = {result.key: result for result in results}
    totals: dict[str, list[int]] = {}
    for result in games.values():
        for credit in result.credits():
            line = totals.setdefault(credit.name, [0, 0, 0, 0])
            line[0] += 1
            line[1] += int(credit.won)
            line[2] += credit.points
            line[3] += credit.margin
    unranked = [Entry(0, name, *line) for name, line in totals.items()]
    unranked.sort(key=lambda e: (-e.wins, -e.margin, -e.points, e.name.casefold(), e.name))
    ranked: list[Entry] = []
    for place, entry in enumerate(unranked, start=1):
        rank = ranked[-1].rank if ranked and ranked[-1].merit == entry.merit else place
        ranked.append(Entry(rank, entry.name, entry.games, entry.wins, entry.points, entry.margin))
    return ranked
