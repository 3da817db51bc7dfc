"""The play-out of a line: no spinner and no scoring during play (block and draw games).

The layout is two ends held in local variables, each end's number (`p0`, `p1`) and
whether it is a double's side (`d0`, `d1`: a double in the line or a double led is
still that), in `Layout.ends`'s order (the end played on goes, the new one comes last),
so that a play is recorded with the index of its end there (`engine.playout.record`
makes the `Layout` when it is read). The moves are counted in `legal_moves()`'s order:
end by end while both ends are plain tiles', else tile by tile in hand order; `mirror`:
a double led and untouched, its two sides one place to play.

`_turns` is the hot loop, one function with its state in locals: a Python call costs
several hundred machine instructions, and a turn only a few thousand (see "The
play-out" in docs/design/benchmarks.md).
"""

from __future__ import annotations

from collections.abc import Callable
from math import floor  # (int(x) for x >= 0, as `RandomPlayer` picks, without a type call)

from engine.events import HandResult
from engine.playout.hand import LED, SLOT_INDEX, Hand
from engine.playout.plan import Plan

_DOMINO, _BLOCKED = HandResult.DOMINO, HandResult.BLOCKED


def play_line(hand: Hand, plan: Plan, random_: Callable[[], float]) -> HandResult:
    """Play the hand to its end: how it ended (the seat that went out in `hand.seat`)."""
    layout = hand.layout
    if layout is not None and layout.nodes:
        e0, e1 = layout.ends
        d0 = e0[1] >= 2  # (edges 2 and 3: a double's sides)
        return _turns(hand, plan, random_, (e0[2], e1[2], d0, e1[1] >= 2, e0[0] == e1[0] and d0))
    s = hand.seat
    bit = hand.lead(hand.held[s], random_())
    tile = hand.tiles[SLOT_INDEX[bit]]
    hand.held[s] ^= bit
    hand.record.append((s, tile, LED, 0))
    hand.passes = hand.drew = 0
    if not hand.held[s]:
        return _DOMINO
    hand.seat = hand.next_seat[s]
    double = tile.is_double  # (both sides open: one place to play, mirrored)
    return _turns(hand, plan, random_, (tile.high, tile.low, double, double, double))


def _turns(  # noqa: PLR0912, PLR0915 (the hot loop: its state in locals)
    hand: Hand, plan: Plan, random_: Callable[[], float], line: tuple[int, int, bool, bool, bool]
) -> HandResult:
    """The turns after the lead, to the end of the hand; `line` is (p0, p1, d0, d1,
    mirror), see the module doc."""
    held, spip, tiles = hand.held, hand.spip, hand.tiles
    add, nxt, slot = hand.record.append, hand.next_seat, SLOT_INDEX
    s, passes, drew = hand.seat, hand.passes, hand.drew
    p0, p1, d0, d1, mirror = line
    while True:
        h = held[s]
        a = h & spip[p0]
        b = 0 if mirror else h & spip[p1]
        if a or b:
            if not (a and b):  # one end: its tiles in hand order (both orders agree)
                at = 0
                if not a:
                    a, at = b, 1
                if a & (a - 1):
                    k = floor(random_() * a.bit_count())
                    while k:
                        a &= a - 1
                        k -= 1
                    bit = a & -a
                else:
                    random_()  # (the one move is still drawn for)
                    bit = a
            elif d0 or d1:  # a double's side open: tile by tile in hand order
                bit, at = _tile_by_tile(a, b, floor(random_() * (a.bit_count() + b.bit_count())))
            else:  # end by end
                na = a.bit_count()
                k = floor(random_() * (na + b.bit_count()))
                at = 0
                if k >= na:
                    a, k, at = b, k - na, 1
                while k:
                    a &= a - 1
                    k -= 1
                bit = a & -a
            tile = tiles[slot[bit]]
            add((s, tile, at, 0))
            if at:  # the far half of the tile is the new end (a double's: its other side)
                p1 = tile.pips - p1
            else:  # (the end played on goes, the other comes first)
                p0, p1, d0 = p1, tile.pips - p0, d1
            d1 = tile.is_double
            mirror = False
            passes = drew = 0
            h ^= bit
            held[s] = h
            if not h:
                hand.seat = s
                return _DOMINO
            s = nxt[s]
        else:
            after = hand.idle(s, passes, drew, plan, 1 << p0 | 1 << p1)
            if after is None:
                return _BLOCKED
            s, passes, drew = after


def _tile_by_tile(a: int, b: int, k: int) -> tuple[int, int]:
    """The k-th move with tiles `a` fitting end 0 and `b` end 1, tile by tile in hand
    order, each at the ends it fits in order: its slot and end."""
    fits = a | b
    while True:
        bit = fits & -fits
        if a & bit:
            if not k:
                return bit, 0
            k -= 1
        if b & bit:
            if not k:
                return bit, 1
            k -= 1
        fits ^= bit
