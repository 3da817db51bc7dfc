"""A game (a match to the target): the one class the rest of the project uses.

`Game` serves two modes:

*Table mode* serves the real table (shared/TABLE.md): hands are hidden; the game is
told each play and pass as it happens, knows only the layout, judges what it can, and
scores a hand from the pip counts given at its end. Who led may not be known when the
lead lands: plays are then recorded without a seat and attributed when the leader is
named. What a tile seen later proves about earlier knocks and leads is told then.

*Full information* (simulation, tests, the demo): the game deals from a seeded shuffle,
knows every hand and the boneyard, and judges everything.

A `Game` is the hand in play (`engine.hand.HandState`, the one class it is built on, as
python-chess builds its `Board` on `BaseBoard`) and the façade of three parts it holds,
each a class in its own module that keeps its own state and reaches the others only
through what they offer:

- the hand in play, `engine.hand.HandState`: layout, hands, boneyard, turn, scores made
  in it, `lay` (the one rule for laying a tile), the trusted `push`, `push_pass`,
  `push_draw` and `legal_moves` of simulation, `snapshot`/`restore`;
- `match` (`engine.match.Match`): dealing and leading, scoring finished hands, the
  scoresheet (`history`) and the game's end;
- `referee` (`engine.referee.Referee`): every input judged (`play`, `pass_turn`, `draw`,
  `name_leader`, `declare_out`, `end_hand`, `undo`, `correct`, `next_hand`, `redeal`,
  `call_time`), with table mode's proofs after the fact in `engine.proofs`;
- `counting` (`engine.counting.Counting`): the counts at the end of a hand (`count`,
  `count_tiles`, `count_seat`).

`Game`, here, checks what it is built from, answers for its parts (the match's state
read-only), and takes any input of `engine.inputs` by its type (`tell`).

A hand is a pure function of how it began and the inputs taken since (its journal,
`engine.record`), so naming the leader late, taking back a play or correcting a misread
tile rebuild the hand from its journal. Every input returns a `Judgement`; a refused
input changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from engine.counting import Counting
from engine.events import Coords, Event, HandResult, Judgement, Reason, Termination
from engine.hand import HandSnapshot, HandState, Mode, Move, Phase, Setup
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
from engine.match import HandRecord, Match, MatchState, SeatCount
from engine.record import DrawInput, HandInput, PassInput, PlayInput, Where
from engine.referee import Referee
from engine.rules import Rules, RulesError
from engine.scoring import Teams
from engine.tiles import Tile


class Game(HandState):
    """One game to the target. See the module doc for the two modes and the parts."""

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
        super().__init__(Setup(rules, seats, mode, named, Teams(seats, groups), target, language))
        self.match = match = Match(self, seed)
        self.referee = referee = Referee(self, match)
        self.counting = Counting(self, match, referee)

    def tell(self, told: Input) -> Judgement:
        """An input of `engine.inputs` that is the game's own, judged by its type: a play,
        pass, draw, lead, seat out, undo, correction, a seat's count or every seat's,
        blocked hand, next hand, redeal or the clock's end. (`Confirm`, `Rename` and
        `NewGame` are the table's: they raise `TypeError`.)"""
        take = _TOLD.get(type(told))
        if take is None:
            raise TypeError(f"a game is not told {told.action!r}: the table takes it")
        return take(self, told)

    # --- the hand's two hooks, answered by the match --------------------------------------

    def score_hand(self, pips: list[int]) -> list[Event]:
        """The hand's end, scored with each seat's `pips` (`Match.score_hand`)."""
        return self.match.score_hand(pips)

    def game_over(self, termination: Termination | None = None) -> list[Event]:
        """The game ends now (`Match.game_over`)."""
        return self.match.game_over(termination)

    # --- the match ----------------------------------------------------------------------------

    @property
    def history(self) -> list[HandRecord]:
        """The scoresheet: one record per finished hand."""
        return self.match.history

    @property
    def winner(self) -> int | None:
        return self.match.winner

    @property
    def winning_team(self) -> int | None:
        return self.match.winning_team

    @property
    def termination(self) -> Termination | None:
        return self.match.termination

    @property
    def last_hand(self) -> bool:
        """The clock ran out: the hand in play ends the game."""
        return self.match.last_hand

    @property
    def last_winner(self) -> int | None:
        return self.match.last_winner

    @property
    def counts(self) -> list[int | None]:
        """Each seat's pips at the end of the last hand counted."""
        return self.match.counts

    @property
    def counted(self) -> dict[int, SeatCount]:
        """Each seat's count given so far this hand (`count_seat`)."""
        return self.match.counted

    @property
    def rng(self) -> random.Random:
        """The game's random numbers (the deals, a draw for the lead)."""
        return self.match.rng

    def start(self) -> list[Event]:
        """Start the game and its first hand."""
        return self.match.start()

    def begin_hand(self, *, redeal: bool = False) -> list[Event]:
        """Deal the next hand and choose its leader (`Match.begin_hand`)."""
        return self.match.begin_hand(redeal=redeal)

    def deal(self) -> tuple[list[list[Tile]], list[Tile]]:
        """A shuffled deal from the game's random numbers: the hands and the boneyard."""
        return self.match.deal()

    def close_hand(self, result: HandResult | None, out_seat: int | None, pips: list[int]) -> None:
        """A hand played to its end in one go, scored (`Match.close_hand`)."""
        self.match.close_hand(result, out_seat, pips)

    def points_made(self) -> int:
        """Every point credited so far, in this game."""
        return self.match.points_made()

    def summary(self) -> dict[str, Any]:
        """The game as the engine knows it (the service adds what only it knows)."""
        return self.match.summary()

    def snapshot(self, *, copy: bool = True) -> HandSnapshot:
        """The whole game as it stands but its random numbers: the hand in play and the
        scoresheet (`restore` takes back the hands finished since). `copy` False: the
        hand in play only, in its own lists (see `HandState.snapshot`)."""
        snap = super().snapshot(copy=copy)
        if copy:
            snap.match = self.match.state()
        return snap

    def restore(self, snapshot: HandSnapshot) -> None:
        """Put back what `snapshot` holds (see `HandState.restore`)."""
        super().restore(snapshot)
        kept = snapshot.match
        if isinstance(kept, MatchState):
            self.match.put_back(kept)

    # --- the referee --------------------------------------------------------------------------

    def play(
        self,
        tile: Tile,
        where: Where = None,
        *,
        seat: int | None = None,
        coords: Coords | None = None,
    ) -> Judgement:
        """A tile laid: the lead (`where` None on an empty layout) or joined at `where`."""
        return self.referee.play(tile, where, seat=seat, coords=coords)

    def told(self, action: HandInput) -> list[Event]:
        """A play, pass or draw judged acceptable, taken (`Referee.told`)."""
        return self.referee.told(action)

    def pass_turn(self, seat: int | None = None) -> Judgement:
        """A knock: the seat (default: the turn seat) cannot or may not play."""
        return self.referee.pass_turn(seat)

    def draw(self, seat: int | None = None, count: int = 1) -> Judgement:
        """Tiles drawn from the boneyard by the seat (`Referee.draw`)."""
        return self.referee.draw(seat, count)

    def draws_for_the_lead(self) -> bool:
        """Whether the seats may draw before the lead (`Referee.draws_for_the_lead`)."""
        return self.referee.draws_for_the_lead()

    def name_leader(self, seat: int) -> Judgement:
        """Who led, when the table could not know: earlier plays are attributed now."""
        return self.referee.name_leader(seat)

    def declare_out(self, seat: int) -> Judgement:
        """A seat says it went out (draw games, where the table cannot tell)."""
        return self.referee.declare_out(seat)

    def check_out(self, seat: int) -> Judgement | None:
        """Why `seat` cannot have gone out (None: it can; `Referee.check_out`)."""
        return self.referee.check_out(seat)

    def end_hand(self) -> Judgement:
        """The players agree the hand is blocked (the table cannot see the boneyard)."""
        return self.referee.end_hand()

    def undo(self) -> Judgement:
        """Take back the last play or pass of this hand (`Referee.undo`)."""
        return self.referee.undo()

    def correct(self, read: Tile, actual: Tile) -> Judgement:
        """A tile on the table was misread: it is really `actual`. Rebuilds the hand."""
        return self.referee.correct(read, actual)

    def next_hand(self) -> Judgement:
        """The next hand dealt, once this one is over."""
        return self.referee.next_hand()

    def redeal(self) -> Judgement:
        """Abandon the hand unscored and deal it again (same number, same leader rule)."""
        return self.referee.redeal()

    def call_time(self) -> Judgement:
        """The round's clock ran out: the hand in play is the last one."""
        return self.referee.call_time()

    def refuse(
        self,
        reason: Reason,
        tile: Tile | None = None,
        *,
        seat: int | None = None,
        pip: int | tuple[int, ...] | None = None,
        detail: str | None = None,
        at: Coords | None = None,
    ) -> Judgement:
        """An input refused for `reason`: its alert, in the table's language."""
        return self.referee.refuse(reason, tile, seat=seat, pip=pip, detail=detail, at=at)

    # --- the count ----------------------------------------------------------------------------

    def count(
        self,
        pips: Sequence[int | None],
        tiles: Sequence[Sequence[Tile] | None] | None = None,
        *,
        out: int | None = None,
        blocked: bool = False,
    ) -> Judgement:
        """What each seat holds at the end of a hand (`Counting.count`)."""
        return self.counting.count(pips, tiles, out=out, blocked=blocked)

    def count_tiles(self, shown: Sequence[Sequence[Tile]]) -> Judgement:
        """The tiles each seat shows at the end: checked against the game, then counted."""
        return self.counting.count_tiles(shown)

    def count_seat(
        self, seat: int, pips: int | None = None, tiles: Sequence[Tile] | None = None
    ) -> Judgement:
        """One seat's count, given by hand (`Counting.count_seat`)."""
        return self.counting.count_seat(seat, pips, tiles)


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
