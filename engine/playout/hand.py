"""A hand being played out: the hands as bit fields over slots, and the inputs taken.

A *slot* is a place in the hand-out: slot i holds the i-th tile of the hands in seat
and hand order, and a drawn tile takes the next slot (it goes to the end of its hand).
So "the tiles of this hand that show n" is `held[seat] & spip[n]`, and the k-th of
them in hand order is found by clearing the k lowest bits: no lists of moves.

Each input is one small tuple in `record`, `(seat, tile, where, pips)`: a play's tile
and its end (see `engine.playout.line` and `engine.playout.web` for how each writes
it; `LED` for the lead), or a pass (`PASS`, with the numbers open as bits for the
false-knock record) or a draw (`DRAW`). `engine.playout.record` makes them into the
game's journal and turn record when either is first read.
"""

from __future__ import annotations

from itertools import chain
from math import floor  # (int(x) for x >= 0, as `RandomPlayer` picks, without a type call)

from engine.layout import Layout
from engine.playout.plan import Plan
from engine.record import Journal, TurnRecord
from engine.tiles import MAX_PIP, Tile

SLOT_BITS = tuple(1 << i for i in range(128))  # a hand-out's slots (91 tiles at most)
SLOT_INDEX = {bit: i for i, bit in enumerate(SLOT_BITS)}  # (a constant dict: making one
# per hand costs more than the look-ups through this one)
NEXT_SEAT = tuple(tuple((s + 1) % n for s in range(n)) for n in range(11))  # by seats

LED, PASS, DRAW = -1, -2, -3  # a record's `where` for the lead, a pass, a draw

_new_object = object.__new__  # (a class call costs more; `deal` sets every slot)

Input = tuple[int, Tile | None, int, int]  # (seat, tile, where, pips): see the module doc


class Hand:
    """The state of a hand while it is played out (see the module doc)."""

    __slots__ = (
        "boneyard",
        "dealt",
        "drew",
        "forced",
        "found",
        "held",
        "journal",
        "layout",
        "next_bit",
        "next_seat",
        "passes",
        "record",
        "seat",
        "seats",
        "spip",
        "tiles",
    )

    # The hands as slots.
    tiles: list[Tile]  # each slot's tile
    spip: list[int]  # spip[n]: the slots of tiles showing n
    held: list[int]  # each seat's slots
    next_bit: int  # the slot the next tile drawn takes
    dealt: int  # the slots dealt (the rest were drawn)
    # The turn, and what the rules and the deal say about it.
    seat: int
    passes: int  # passes in a row
    drew: int  # tiles drawn this turn
    seats: int
    next_seat: tuple[int, ...]
    boneyard: list[Tile]
    forced: Tile | None  # the tile that must lead
    # The hand as the play-out found it, and the inputs taken since.
    layout: Layout | None  # None: a fresh hand's, not made yet
    found: TurnRecord | None  # the turn record (None: as `layout`)
    journal: Journal
    record: list[Input]

    def idle(
        self, seat: int, passes: int, drew: int, plan: Plan, pips: int
    ) -> tuple[int, int, int] | None:
        """A turn without a play, the rule of both layouts (`engine.playout.line` and
        `engine.playout.web`): the seat draws the boneyard's top tile when it may (it
        takes the next slot, and the seat's turn goes on), else it passes (`pips`: the
        numbers open, as bits, for a knock's record). The turn's seat, passes in a row
        and tiles drawn this turn after it; None when the pass blocked the hand."""
        boneyard = self.boneyard
        if plan.draws and len(boneyard) > plan.keep and not (plan.draw_one and drew):
            tile = boneyard.pop()
            bit = self.next_bit
            self.next_bit = bit << 1
            self.tiles.append(tile)
            self.held[seat] |= bit
            spip = self.spip
            spip[tile.high] |= bit
            spip[tile.low] |= bit
            self.record.append((seat, None, DRAW, 0))
            return seat, passes, drew + 1
        self.record.append((seat, None, PASS, pips))
        passes += 1
        if passes >= self.seats and (not plan.draw_one or len(boneyard) <= plan.keep):
            return None
        return self.next_seat[seat], passes, 0

    def lead(self, h: int, r: float) -> int:
        """The slot of the tile led from the hand `h`: the forced lead, or the tile `r`
        picks (in hand order, as `legal_moves()` lists the leads)."""
        forced = self.forced
        if forced is not None:
            for bit, tile in zip(SLOT_BITS, self.tiles, strict=False):
                if tile is forced and bit & h:
                    return bit
            raise ValueError(f"{forced} must lead but the turn seat does not hold it")
        k = floor(r * h.bit_count())
        while k:
            h &= h - 1
            k -= 1
        return h & -h

    def back(self) -> tuple[list[list[Tile]], list[int]]:
        """The hands as lists again, and the pips left in each."""
        tiles, index = self.tiles, SLOT_INDEX
        hands: list[list[Tile]] = []
        pips: list[int] = []
        for held in self.held:
            slots = held
            hand: list[Tile] = []
            count = 0
            while slots:
                low = slots & -slots
                tile = tiles[index[low]]
                hand.append(tile)
                count += tile.pips
                slots ^= low
            hands.append(hand)
            pips.append(count)
        return hands, pips


def deal(hands: list[list[Tile]]) -> Hand:
    """A hand whose tiles are `hands`, given their slots (the rest of it to be set)."""
    hand: Hand = _new_object(Hand)
    hand.tiles = tiles = list(chain.from_iterable(hands))
    hand.spip = spip = [0] * (MAX_PIP + 1)  # (any set's numbers)
    for bit, tile in zip(SLOT_BITS, tiles, strict=False):
        spip[tile.high] |= bit
        spip[tile.low] |= bit
    hand.held = held = []
    first = 0
    for seat_hand in hands:
        last = first + len(seat_hand)
        held.append((1 << last) - (1 << first))
        first = last
    hand.next_bit = 1 << first
    hand.dealt = first
    return hand


__all__ = ["DRAW", "LED", "NEXT_SEAT", "PASS", "SLOT_INDEX", "Hand", "Input", "deal"]
