"""What a hand keeps: how it began, its journal of inputs, and its turn record.

A hand is a pure function of how it began (`HandStart`) and the inputs taken since (its
journal: `PlayInput`, `PassInput`, `DrawInput`), so naming the leader late, taking back
a play or correcting a misread tile rebuild the hand from its journal. The `TurnRecord`
is what the journal has made of the hand so far: the layout (who laid each tile and
where it lies), passes, draws and knocks.

A `RecordMaker` makes the turn record and journal of a hand whose inputs were taken in
a cheaper form (`engine.playout`): the game makes them the first time either is read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from engine.events import AlertEvent, Coords
from engine.layout import Layout, OpenEnd, Target
from engine.tiles import Tile

Where = OpenEnd | Target | None


class PlayInput(NamedTuple):
    """A play accepted this hand (the hand's journal; `where` as it was given)."""

    tile: Tile
    where: Where
    coords: Coords | None
    ref: int


class PassInput(NamedTuple):
    ref: int


class DrawInput(NamedTuple):
    """Tiles drawn by the turn seat, or before the lead by `seat` (walnut's extra draws
    for a double: no turn's)."""

    tiles: int
    seat: int | None = None


HandInput = PlayInput | PassInput | DrawInput
# The journal as kept: `push` journals plays as plain tuples, made `PlayInput`s when the
# journal is read (`settled`): a named tuple costs several times as much to make.
Journal = list[HandInput | tuple[Tile, OpenEnd | None, None, int]]
DRAW_ONE = DrawInput(1)


def settled(journal: Journal) -> list[HandInput]:
    """Make the plain tuples `push` journals into `PlayInput`s, in place; the journal."""
    for i, action in enumerate(journal):
        if action.__class__ is tuple:
            journal[i] = PlayInput._make(action)
    return journal  # type: ignore[return-value]  # (typing.cast is a Python call)


@dataclass(slots=True)
class HandStart:
    """How a hand began: enough to rebuild it from its journal. Never changed once made
    (a leader named late makes a new one), so snapshots share it."""

    number: int
    leader: int | None
    forced_lead: Tile | None
    lead_must_be_double: bool
    hands: list[list[Tile]] | None
    boneyard: list[Tile] | None
    boneyard_count: int | None
    seat_scores: list[int]
    team_scores: list[int]


@dataclass(slots=True)
class TurnRecord:
    """What happened in the current hand so far (made from the journal)."""

    layout: Layout  # the tiles laid, who laid each and where it lies
    played: list[int] = field(default_factory=list)
    drawn: list[int] = field(default_factory=list)
    passes_in_row: int = 0
    drew_this_turn: int = 0
    # Each knock: the seat and the numbers open when it knocked (every knock in table
    # mode; in full information those of block games). Table mode only: with each knock,
    # the tiles its seat had drawn by then (`knock_drawn`) and the tiles on the layout
    # (`knock_plays`); `caught`, each knock a later play has proven false, with its alert.
    knocks: list[tuple[int, frozenset[int]]] = field(default_factory=list)
    knock_drawn: list[int] = field(default_factory=list)
    knock_plays: list[int] = field(default_factory=list)
    caught: dict[int, AlertEvent] = field(default_factory=dict)
    # Table mode: the alert of a lead a later play proved wrong (`engine.proofs`).
    wrong_lead: AlertEvent | None = None

    def copy(self) -> TurnRecord:
        """A copy that shares nothing that changes with this one."""
        return TurnRecord(
            self.layout.copy(),
            list(self.played),
            list(self.drawn),
            self.passes_in_row,
            self.drew_this_turn,
            list(self.knocks),
            list(self.knock_drawn),
            list(self.knock_plays),
            dict(self.caught),
            self.wrong_lead,
        )


class RecordMaker(Protocol):
    """Inputs taken but not yet written into a turn record and journal (a play-out's,
    `engine.playout`): `make` writes them, on `fresh()` when the hand had none yet."""

    def make(self, fresh: Callable[[], TurnRecord]) -> tuple[TurnRecord, Journal]: ...
