"""What the lights and the voice show of the table, read from its `state` payload.

The outputs are fed the payloads the table publishes (spec/mqtt.md), so a clock, a
strip and the preview page show the same game as the display: `Scoreboard` is the part
of `state` they need (names, scores, teams, the turn, a standing illegal alert, the
winners at game over) and `Entry` one seat or team as a light writes it, with a short
name ("Ana", "Bo", or "AC" for Ana and Carla's team).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

TURN_PHASES = frozenset({"lead", "play"})
"""Phases in which a seat has the turn (as on the players' panel)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One seat (or team) as the lights show it: `seats` it stands for, in order."""

    short: str
    score: int
    seats: tuple[int, ...]
    turn: bool
    won: bool


@dataclass(frozen=True, slots=True)
class Team:
    team: int
    seats: tuple[int, ...]
    score: int


@dataclass(frozen=True, slots=True)
class Scoreboard:
    """The game as the outputs need it: from a `state` payload (`from_state`)."""

    language: str
    phase: str
    turn: int | None  # the seat to play, only while a hand is played
    names: tuple[str, ...]
    scores: tuple[int, ...]
    seat_teams: tuple[int | None, ...]
    teams: tuple[Team, ...]
    illegal: bool  # an illegal alert stands
    winners: tuple[int, ...]  # at game over: the seats that won (a team's every seat)

    @classmethod
    def from_state(
        cls, state: Mapping[str, Any], over: Mapping[str, Any] | None = None
    ) -> Scoreboard:
        """`state` as published; `over` the current game's `game` over event, when known."""
        seats = sorted(state["seats"], key=lambda s: s["seat"])
        teams = tuple(
            Team(t["team"], tuple(t["seats"]), t["score"]) for t in state.get("teams") or ()
        )
        phase = str(state["phase"])
        board = cls(
            language=str(state.get("language") or "en"),
            phase=phase,
            turn=state.get("turn") if phase in TURN_PHASES else None,
            names=tuple(str(s["name"]) for s in seats),
            scores=tuple(int(s["score"]) for s in seats),
            seat_teams=tuple(s.get("team") for s in seats),
            teams=teams,
            illegal=any(
                a.get("severity") == "illegal" and not a.get("resolved")
                for a in state.get("alerts") or ()
            ),
            winners=(),
        )
        if phase != "over":
            return board
        return _with_winners(board, over or _game_over(state.get("last")))

    def name(self, seat: int | None) -> str:
        return self.names[seat] if seat is not None and 0 <= seat < len(self.names) else ""

    def team_of(self, seat: int) -> int | None:
        return self.seat_teams[seat] if 0 <= seat < len(self.seat_teams) else None

    def entries(self) -> list[Entry]:
        """Every seat in seat order, or in partnership games every team in team order."""
        if self.teams:
            shorts = unique([initials(self.names, t.seats) for t in self.teams])
            return [
                Entry(short, t.score, t.seats, self.turn in t.seats, t.seats[0] in self.winners)
                for short, t in zip(shorts, self.teams, strict=True)
            ]
        shorts = short_names(self.names)
        return [
            Entry(short, score, (seat,), seat == self.turn, seat in self.winners)
            for seat, (short, score) in enumerate(zip(shorts, self.scores, strict=True))
        ]


def _game_over(last: Any) -> Mapping[str, Any] | None:
    return last if isinstance(last, Mapping) and last.get("event") == "over" else None


def _with_winners(board: Scoreboard, over: Mapping[str, Any] | None) -> Scoreboard:
    """The winners: the `game` event's winner or team; without one, the one ahead."""
    if over is not None:
        team, winner = over.get("team"), over.get("winner")
        if team is not None:
            seats = next((t.seats for t in board.teams if t.team == team), ())
            return replace(board, winners=seats)
        return replace(board, winners=(winner,) if isinstance(winner, int) else ())
    sides = [(t.score, t.seats) for t in board.teams] or [
        (score, (seat,)) for seat, score in enumerate(board.scores)
    ]
    best = max((score for score, _ in sides), default=0)
    ahead = [seats for score, seats in sides if score == best]
    return replace(board, winners=ahead[0] if len(ahead) == 1 else ())


def letters_for(count: int) -> int:
    """How many letters of each name a matrix 32 LEDs wide can afford for `count` entries."""
    return 3 if count <= 2 else 2 if count <= 4 else 1


def short(name: str, letters: int) -> str:
    """A name's first letters; a name of several words by their initials ("Player 2": P2)."""
    words = name.split()
    if len(words) > 1:
        return "".join(w[0] for w in words)[: max(letters, 2)]
    return name.strip()[:letters] or "?"


def short_names(names: Sequence[str]) -> list[str]:
    """Each seat's short name, longer where two would read the same."""
    letters = letters_for(len(names))
    out = [short(n, letters) for n in names]
    for extra in range(1, 8):
        clashes = {s for s in out if out.count(s) > 1}
        if not clashes:
            break
        out = [
            short(n, letters + extra) if s in clashes else s
            for n, s in zip(names, out, strict=True)
        ]
    return unique(out)


def initials(names: Sequence[str], seats: Sequence[int]) -> str:
    """A team's short name: its members' first letters ("AC" for Ana and Carla)."""
    return "".join(short(names[s], 1)[0] for s in seats if 0 <= s < len(names)) or "?"


def unique(shorts: Sequence[str]) -> list[str]:
    """The same short names, numbered where they are still alike (two Anas: An1, An2)."""
    out = list(shorts)
    for s in {s for s in out if out.count(s) > 1}:
        for n, i in enumerate(i for i, x in enumerate(out) if x == s):
            out[i] = f"{s}{n + 1}"
    return out
