"""A game (a match to the target): the one class the rest of the project uses.

`Game` serves two modes:

*Table mode* serves the real table (shared/TABLE.md): hands are hidden; the game is
told each play and pass as it happens, knows only the layout, judges what it can, and
scores a hand from the pip counts given at its end. Who led may not be known when the
lead lands: plays are then recorded without a seat and attributed when the leader is
named. What a tile seen later proves about earlier knocks and leads is told then.

*Full information* (simulation, tests, the demo): the game deals from a seeded shuffle,
knows every hand and the boneyard, and judges everything.

A `Game` is built in layers, each a class in its own module, as python-chess builds its
`Board` on `BaseBoard` (no layer swaps a class or reaches into another's privates):

- `engine.hand.HandState`: the hand in play (layout, hands, boneyard, turn, scores made
  in it), `lay` (the one rule for laying a tile), the trusted `push`, `push_pass`,
  `push_draw` and `legal_moves` of simulation, `snapshot`/`restore`;
- `engine.match.Match`: dealing and leading, scoring finished hands, the game's end;
- `engine.referee.Referee`: every input judged (`play`, `pass_turn`, `draw`,
  `name_leader`, `declare_out`, `end_hand`, `undo`, `correct`, `next_hand`, `redeal`,
  `call_time`), with table mode's proofs after the fact in `engine.proofs`;
- `engine.counting.Counting`: the counts at the end of a hand (`count`, `count_tiles`);
- `Game`, here: the façade that checks what it is built from and takes any input of
  `engine.inputs` by its type (`tell`).

A hand is a pure function of how it began and the inputs taken since (its journal,
`engine.record`), so naming the leader late, taking back a play or correcting a misread
tile rebuild the hand from its journal. Every input returns a `Judgement`; a refused
input changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.counting import Counting
from engine.events import Judgement
from engine.hand import HandSnapshot, Mode, Move, Phase, Setup
from engine.inputs import (
    CallTime,
    Correct,
    Count,
    Counts,
    Draw,
    EndHand,
    Input,
    Lead,
    NextHand,
    Out,
    Pass,
    Play,
    Redeal,
    Undo,
)
from engine.layout import Target
from engine.match import HandRecord
from engine.record import DrawInput, HandInput, PassInput, PlayInput
from engine.rules import Rules, RulesError
from engine.scoring import Teams


class Game(Counting):
    """One game to the target. See the module doc for the two modes and the layers."""

    def __init__(
        self,
        rules: Rules,
        seats: int,
        *,
        mode: Mode = Mode.TABLE,
        names: Sequence[str] | None = None,
        teams: Sequence[Sequence[int]] | None = None,
        target: int | None = None,
        seed: int | None = None,
        language: str = "en",
    ) -> None:
        rules.check_players(seats)
        named = list(names) if names else [f"Player {i + 1}" for i in range(seats)]
        if len(named) != seats:
            raise RulesError(f"{len(named)} names for {seats} seats")
        groups = rules.teams_for(seats) if teams is None else tuple(tuple(t) for t in teams)
        _check_teams(groups, seats)
        target = target if target is not None else rules.win_target
        setup = Setup(rules, seats, mode, named, Teams(seats, groups), target, language)
        super().__init__(setup, seed)

    def tell(self, told: Input) -> Judgement:
        """An input of `engine.inputs` that is the game's own, judged by its type: a play,
        pass, draw, lead, seat out, undo, correction, a seat's count or every seat's,
        blocked hand, next hand, redeal or the clock's end. (`Confirm`, `Rename` and
        `NewGame` are the table's: they raise `TypeError`.)"""
        take = _TOLD.get(type(told))
        if take is None:
            raise TypeError(f"a game is not told {told.action!r}: the table takes it")
        return take(self, told)


_TOLD: dict[type[Input], Callable[[Game, Any], Judgement]] = {
    Play: lambda g, i: g.play(i.tile, i.where, seat=i.seat, coords=i.coords),
    Pass: lambda g, i: g.pass_turn(i.seat),
    Draw: lambda g, i: g.draw(i.seat, i.count),
    Lead: lambda g, i: g.name_leader(i.seat),
    Out: lambda g, i: g.declare_out(i.seat),
    Undo: lambda g, i: g.undo(),
    Correct: lambda g, i: g.correct(i.tile, i.actual),
    Count: lambda g, i: g.count_seat(i.seat, i.pips, i.tiles),
    Counts: lambda g, i: g.count(
        i.pips if i.pips is not None else [None] * g.seats, i.tiles, out=i.out, blocked=i.blocked
    ),
    EndHand: lambda g, i: g.end_hand(),
    NextHand: lambda g, i: g.next_hand(),
    Redeal: lambda g, i: g.redeal(),
    CallTime: lambda g, i: g.call_time(),
}
"""How a game takes each input that is its own (`Game.tell`)."""


def _check_teams(groups: Sequence[Sequence[int]], seats: int) -> None:
    if not groups:
        return
    flat = [s for g in groups for s in g]
    if sorted(flat) != list(range(seats)) or any(len(g) < 1 for g in groups):
        raise RulesError(f"teams {list(map(list, groups))} must place each of {seats} seats once")


__all__ = [
    "DrawInput",
    "Game",
    "HandInput",
    "HandRecord",
    "HandSnapshot",
    "Mode",
    "Move",
    "PassInput",
    "Phase",
    "PlayInput",
    "Setup",
    "Target",
]
