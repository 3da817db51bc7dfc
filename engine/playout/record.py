"""A played-out hand's inputs, made into the game's journal and turn record when read.

The play-out keeps one small tuple per input (`engine.playout.hand`); a game's turn
record (its `Layout` with every node and open end, who laid what, passes, knocks) and
journal are made from them the first time either is read (`engine.game._Lazy`,
through `Game._settle`), as `push`, `push_pass` and `push_draw` would have made them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.game import _DRAW_ONE, Journal, PassInput, _Turn
from engine.layout import Edge, OpenEnd
from engine.playout.hand import PASS, Input

if TYPE_CHECKING:
    from engine.playout.access import PlayedOut

_EDGES = tuple(Edge)
_new = tuple.__new__


class Pending:
    """A played-out hand's inputs, for `Game._settle` (`engine.game._Pending`)."""

    __slots__ = ("journal", "knock", "line", "record", "ref", "turn")

    turn: _Turn | None  # the turn record and journal as the play-out found them (None:
    # a fresh hand's, not made yet)
    journal: Journal
    record: list[Input]
    ref: int  # the game's input counter when the play-out began
    line: bool  # a play's end is its index in `Layout.ends` (else node << 8 | edge << 5 | pip)
    knock: bool  # a pass records the numbers open (block games: false knocks)

    def settle(self, game: PlayedOut) -> None:
        """Apply the inputs to the turn record and journal; give both to the game."""
        game._pending = None
        t = self.turn if self.turn is not None else game._fresh_turn()
        journal = self.journal
        layout = t.layout
        place = layout.place
        knock = self.knock
        ref = self.ref
        line = self.line
        ends = layout.ends
        for seat, tile, where, pips in self.record:
            if tile is not None:
                ref += 1
                if where < 0:
                    end = None
                elif line:
                    end = ends[where]
                else:
                    end = _new(OpenEnd, (where >> 8, _EDGES[where >> 5 & 7], where & 31))
                place(tile, end)
                journal.append((tile, end, None, ref))
                t.seats_of_plays.append(seat)
                t.coords.append(None)
                t.passes_in_row = t.drew_this_turn = 0
                t.played[seat] += 1
            elif where == PASS:
                ref += 1
                journal.append(_new(PassInput, (ref,)))
                t.passes_in_row += 1
                t.drew_this_turn = 0
                if knock:
                    t.knocks.append((seat, frozenset(_numbers(pips))))
            else:
                journal.append(_DRAW_ONE)
                t.drew_this_turn += 1
                t.drawn[seat] += 1
        game._turn = t
        game._journal = journal


def _numbers(mask: int) -> list[int]:
    """The numbers whose bits are set in `mask`."""
    return [n for n in range(mask.bit_length()) if mask >> n & 1]
