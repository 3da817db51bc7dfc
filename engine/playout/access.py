"""The play-out's access to a `Game`: all it reads and writes of one, named in one place.

`PlayedOut` lists every attribute and method of `Game` the play-out's steps use (mypy
holds them to it: a step that touches anything else does not type-check). Besides the
public state of a hand, they are the few internals a hand played in one go must set as
`Game.push` would have: the turn record and journal (made when read, see
`engine.playout.record`), the input counter, the forced lead, and the game's own
crediting, end-of-hand scoring and target checks, called rather than written again.
`begin` takes the hand from the game, `finish` gives it back played; `play_web` credits
points in play through `_add_points`.

`engine.playout.play_out` also makes an `engine.game._Lazy` game a `Game` while it plays
(a class with `__getattr__` loses CPython's fast attribute loads) and a `_Lazy` after.
"""

from __future__ import annotations

from typing import Protocol

from engine.events import Event, HandResult, Termination
from engine.game import Journal, Phase, _HandStart, _Pending, _Turn
from engine.playout.hand import NEXT_SEAT, Hand, deal
from engine.playout.plan import Plan
from engine.playout.record import Pending
from engine.scoring import HandOutcome
from engine.tiles import Tile

_HAND_OVER, _DOMINO = Phase.HAND_OVER, HandResult.DOMINO
_new_object = object.__new__


class PlayedOut(Protocol):
    """What the play-out uses of a `Game` (see the module doc)."""

    seats: int
    hands: list[list[Tile]] | None
    boneyard: list[Tile] | None
    turn: int | None
    phase: Phase
    result: HandResult | None
    out_seat: int | None
    last_hand: bool  # the clock ran out: this hand ends the game (`Game.call_time`)
    _start: _HandStart | None  # the forced lead
    _pending: _Pending | None  # inputs taken, written into the two below when read
    _turn: _Turn  # the turn record
    _journal: Journal
    _refs: int  # the input counter (plays and passes are numbered)

    def _settle(self) -> None: ...
    def _fresh_turn(self) -> _Turn: ...
    def _add_points(self, seat: int, points: int) -> int: ...
    def _target_reached_at_once(self) -> bool: ...
    def _target_reached_end_of_hand(self) -> bool: ...
    def _tally_hand(self, pips: list[int]) -> tuple[HandOutcome, int, tuple[int, ...]]: ...
    def _game_over(self, termination: Termination | None = None) -> list[Event]: ...


def begin(game: PlayedOut) -> Hand:
    """The game's hand in play, as the play-out keeps it."""
    if game._pending is not None:
        game._settle()  # (no play-out leaves a hand in play: cannot happen)
    hands, boneyard = game.hands, game.boneyard
    seat, start = game.turn, game._start
    assert hands is not None and boneyard is not None and seat is not None and start is not None
    hand = deal(hands)
    turn: _Turn | None = game.__dict__.get("_turn")  # (None: not made yet, see `_Lazy`)
    hand.found = turn
    if turn is None:
        hand.layout = None
        hand.passes = hand.drew = 0
    else:
        hand.layout = turn.layout
        hand.passes = turn.passes_in_row
        hand.drew = turn.drew_this_turn
    hand.journal = game._journal
    hand.record = []
    hand.seat = seat
    hand.seats = seats = game.seats
    hand.next_seat = NEXT_SEAT[seats]
    hand.boneyard = boneyard
    hand.forced = start.forced_lead
    return hand


def finish(
    game: PlayedOut, hand: Hand, plan: Plan, result: HandResult | None, *, line: bool
) -> int:
    """Give the game the hand played out: ended as `result` (None: the game ended in
    the middle of it), the hands, the inputs (made into the journal and turn record
    when read; `line`: recorded by `engine.playout.line`); the tiles in the layout."""
    hands, pips = hand.back()
    game.hands = hands
    pending: Pending = _new_object(Pending)
    pending.turn = hand.found
    pending.journal = hand.journal
    pending.record = record = hand.record
    pending.ref = refs = game._refs
    pending.line = line
    pending.knock = plan.knock
    game._refs = refs + len(record) - (len(hand.tiles) - hand.dealt)  # (draws: no number)
    game._pending = pending
    d = game.__dict__  # made when read (`_Lazy`): the hands' bits too
    d.pop("_turn", None)
    d.pop("_journal", None)
    d.pop("_held", None)
    if result is None:
        game._game_over()
    else:  # `Game._end_play` and `_score_hand`, without the events
        game.result = result
        game.out_seat = hand.seat if result is _DOMINO else None
        game.turn = None
        game._tally_hand(pips)
        game.phase = _HAND_OVER
        if (plan.at_once and game._target_reached_at_once()) or (
            game._target_reached_end_of_hand()
        ):
            game._game_over()
        if game.last_hand and game.phase is _HAND_OVER:  # the clock ran out
            game._game_over(Termination.TIME)
    layout = hand.layout
    return (len(layout.nodes) if layout is not None else 0) + len(hand.tiles) - sum(map(len, hands))
