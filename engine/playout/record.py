"""A played-out hand's inputs, made into the game's journal and turn record when read.

The play-out keeps one small tuple per input (`engine.playout.hand`); a game's turn
record (its `Layout` with every node and open end, who laid what, passes, knocks) and
journal are made from them the first time either is read (`engine.record.RecordMaker`, called by
the game), as `push`, `push_pass` and `push_draw` would have made them.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.layout import Edge, OpenEnd
from engine.playout.hand import PASS, Input
from engine.record import DRAW_ONE, Journal, PassInput, TurnRecord

_EDGES = tuple(Edge)
_new = tuple.__new__


class Pending:
    """A played-out hand's inputs, made when read (an `engine.record.RecordMaker`)."""

    __slots__ = ("journal", "knock", "line", "record", "ref", "turn")

    turn: TurnRecord | None  # the turn record and journal as the play-out found them (None:
    # a fresh hand's, not made yet)
    journal: Journal
    record: list[Input]
    ref: int  # the game's input counter when the play-out began
    line: bool  # a play's end is its index in `Layout.ends` (else node << 8 | edge << 5 | pip)
    knock: bool  # a pass records the numbers open (block games: false knocks)

    def make(self, fresh: Callable[[], TurnRecord]) -> tuple[TurnRecord, Journal]:
        """Apply the inputs to the turn record (`fresh()` if the hand had none) and the
        journal; both."""
        t = self.turn if self.turn is not None else fresh()
        journal = self.journal
        place = t.layout.place
        played = t.played
        knock = self.knock
        ref = self.ref
        line = self.line
        ends = t.layout.ends
        for seat, tile, where, pips in self.record:
            if tile is not None:
                ref += 1
                if where < 0:
                    end = None
                elif line:
                    end = ends[where]
                else:
                    end = _new(OpenEnd, (where >> 8, _EDGES[where >> 5 & 7], where & 31))
                place(tile, end, seat)
                journal.append((tile, end, None, ref))
                t.passes_in_row = t.drew_this_turn = 0
                played[seat] += 1
            elif where == PASS:
                ref += 1
                journal.append(_new(PassInput, (ref,)))
                t.passes_in_row += 1
                t.drew_this_turn = 0
                if knock:
                    t.knocks.append((seat, frozenset(_numbers(pips))))
            else:
                journal.append(DRAW_ONE)
                t.drew_this_turn += 1
                t.drawn[seat] += 1
        return t, journal


def _numbers(mask: int) -> list[int]:
    """The numbers whose bits are set in `mask`."""
    return [n for n in range(mask.bit_length()) if mask >> n & 1]
