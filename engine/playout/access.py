"""The play-out's access to a `Game`: all it reads and writes of one, named in one place.

`PlayedOut` lists every attribute and method of `Game` the play-out's steps use (mypy
holds them to it: a step that touches anything else does not type-check), all of them
public. `begin` takes the hand in play from the game as a snapshot of its own lists
(`Game.snapshot(copy=False)`); the play-out plays it, crediting points in play through
the game's own `credit` and target check; `finish` gives it back (`Game.restore`) with its inputs
to be written into the turn record and journal when first read
(`engine.playout.record`), and has the game close the hand by its own scoring
(`Game.close_hand`).
"""

from __future__ import annotations

from typing import Protocol

from engine.events import HandResult, Termination
from engine.hand import HandSnapshot, Mode, Phase
from engine.playout.hand import NEXT_SEAT, Hand, deal
from engine.playout.plan import Plan
from engine.playout.record import Pending
from engine.rules import Rules
from engine.tiles import Tile

_DOMINO, _PLAY = HandResult.DOMINO, Phase.PLAY
_new_object = object.__new__


class PlayedOut(Protocol):
    """What the play-out uses of a `Game` (see the module doc)."""

    rules: Rules
    mode: Mode
    seats: int
    hands: list[list[Tile]] | None
    turn: int | None
    phase: Phase
    seat_scores: list[int]
    team_scores: list[int]

    def snapshot(self, *, copy: bool = True) -> HandSnapshot: ...
    def restore(self, snapshot: HandSnapshot) -> None: ...
    def credit(self, seat: int, points: int) -> int: ...
    def target_reached_at_once(self) -> bool: ...
    def close_hand(
        self, result: HandResult | None, out_seat: int | None, pips: list[int]
    ) -> None: ...
    def game_over(self, termination: Termination | None = None) -> object: ...


def begin(game: PlayedOut) -> tuple[HandSnapshot, Hand]:
    """The game's hand in play, as a snapshot (its own lists, given back by `finish`)
    and as the play-out keeps it."""
    snap = game.snapshot(copy=False)
    hands, boneyard, seat, start = snap.hands, snap.boneyard, snap.turn, snap.hand_start
    assert hands is not None and boneyard is not None and seat is not None and start is not None
    hand = deal(hands)
    turn = snap.record  # (None: a fresh hand's, not made yet)
    hand.found = turn
    if turn is None:
        hand.layout = None
        hand.passes = hand.drew = 0
    else:
        hand.layout = turn.layout
        hand.passes = turn.passes_in_row
        hand.drew = turn.drew_this_turn
    hand.journal = snap.journal
    hand.record = []
    hand.seat = seat
    hand.seats = seats = game.seats
    hand.next_seat = NEXT_SEAT[seats]
    hand.boneyard = boneyard
    hand.forced = start.forced_lead
    return snap, hand


def finish(
    game: PlayedOut,
    snap: HandSnapshot,
    hand: Hand,
    plan: Plan,
    result: HandResult | None,
    *,
    line: bool,
) -> int:
    """Give the game the hand played out: ended as `result` (None: the game ended in
    the middle of it), the hands, the inputs (made into the journal and turn record
    when read; `line`: recorded by `engine.playout.line`); the tiles in the layout."""
    hands, pips = hand.back()
    pending: Pending = _new_object(Pending)
    pending.turn = hand.found
    pending.journal = hand.journal
    pending.record = record = hand.record
    pending.ref = refs = snap.refs
    pending.line = line
    pending.knock = plan.knock
    snap.hands = hands  # (the boneyard is the game's, drawn from)
    snap.refs = refs + len(record) - (len(hand.tiles) - hand.dealt)  # (draws: no number)
    snap.phase = _PLAY
    snap.turn = hand.seat
    snap.record = None
    snap.pending = pending
    game.restore(snap)
    game.close_hand(result, hand.seat if result is _DOMINO else None, pips)
    layout = hand.layout
    return (len(layout.nodes) if layout is not None else 0) + len(hand.tiles) - sum(map(len, hands))
