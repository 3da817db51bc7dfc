"""The play-out of any other layout: spinners, scoring during play.

The open ends are integers, `node << 8 | edge << 5 | pip`, in `Layout.ends`'s order;
`offers` are the ends less mirror images (`ends` itself when there are none), as
`Layout` keeps them, and the moves come in `legal_moves()`'s order: end by end on two
plain ends, else tile by tile in hand order, each at the ends it fits in order
(`_choose`). A play is recorded with its end as an integer (`engine.playout.record`
makes the `Layout` when it is read).

`play_web` is the hot loop: a plain tile on a plain end (most plays) is laid there, in
locals; anything else (the lead, a double, a tile on a double's side or a spinner's
arm) by `Web.lay`, which counts each double's covered edges and sides and keeps the
ends total as `Layout` keeps it.
"""

from __future__ import annotations

from collections.abc import Callable
from math import floor  # (int(x) for x >= 0, as `RandomPlayer` picks, without a type call)

from engine.events import HandResult
from engine.layout import Layout
from engine.playout.access import PlayedOut
from engine.playout.hand import LED, SLOT_INDEX, Hand
from engine.playout.plan import POINTS_TABLE, Plan
from engine.scoring import play_points
from engine.tiles import Tile

_DOMINO, _BLOCKED = HandResult.DOMINO, HandResult.BLOCKED
_SIDE, _ARM = 64, 128  # edge << 5 for a double's first side and a spinner's first arm
_JOINT = 192  # the edge bits of a double's side or a spinner's arm (not a plain end)


def play_web(
    game: PlayedOut, hand: Hand, plan: Plan, random_: Callable[[], float]
) -> HandResult | None:
    """Play the hand to its end: how it ended (the seat that went out in `hand.seat`),
    None when a score reached the target there and then (the game is over)."""
    layout = hand.layout
    nodes, total = (len(layout.nodes), layout.total) if layout is not None else (0, 0)
    web = Web(layout, plan, nodes + len(hand.tiles) + len(hand.boneyard))  # (nodes to be)
    ends, offers, lay = web.ends, web.offers, web.lay
    held, spip, tiles = hand.held, hand.spip, hand.tiles
    add, nxt, slot = hand.record.append, hand.next_seat, SLOT_INDEX
    scores, points, scoring = plan.scores, plan.points, plan.scoring
    knock, at_once = plan.knock, plan.at_once
    s, passes, drew = hand.seat, hand.passes, hand.drew
    while True:
        h = held[s]
        if nodes:
            bit, at = _choose(offers, h, spip, random_)
        else:
            bit, at = hand.lead(h, random_()), LED
        if bit:
            tile = tiles[slot[bit]]
            add((s, tile, at, 0))
            if at & _JOINT or tile.is_double:  # (the lead too: -1 has every bit)
                total = lay(tile, at, nodes, total)
                offers = web.offers
            else:  # a plain tile on a plain end: its far end opens, nothing else moves
                pip = at & 31
                far = nodes << 8 | 32 | tile.low if tile.high == pip else nodes << 8 | tile.high
                total += (far & 31) - pip
                ends.remove(at)
                ends.append(far)
                if offers is not ends:
                    offers.remove(at)
                    offers.append(far)
            nodes += 1
            passes = drew = 0
            h ^= bit
            held[s] = h
            if scores:
                won = points[total] if total < POINTS_TABLE else play_points(scoring, total)
                if won and game.credit(s, won) and at_once and game.target_reached_at_once():
                    return None  # (the game is over)
            if not h:
                hand.seat = s
                return _DOMINO
            s = nxt[s]
        else:
            after = hand.idle(s, passes, drew, plan, _numbers_open(ends) if knock else 0)
            if after is None:
                return _BLOCKED
            s, passes, drew = after


def _choose(
    offers: list[int], h: int, spip: list[int], random_: Callable[[], float]
) -> tuple[int, int]:
    """The move `random_` picks for the hand `h`, in `legal_moves()`'s order: its slot
    and end (slot 0: no move)."""
    if len(offers) == 2 and not (offers[0] | offers[1]) & _JOINT:
        at, other = offers  # two plain ends: the moves end by end
        a = h & spip[at & 31]
        b = h & spip[other & 31]
        if not (a or b):
            return 0, 0
        na = a.bit_count()
        k = floor(random_() * (na + b.bit_count()))
        if k >= na:
            a, k, at = b, k - na, other
        while k:
            a &= a - 1
            k -= 1
        return a & -a, at
    count = fits = 0  # tile by tile in hand order, each at the ends it fits in order
    for end in offers:
        m = h & spip[end & 31]
        if m:
            count += m.bit_count()
            fits |= m
    if not count:
        return 0, 0
    k = floor(random_() * count)
    while True:
        bit = fits & -fits
        for end in offers:
            if spip[end & 31] & bit:
                if not k:
                    return bit, end
                k -= 1
        fits ^= bit


def _numbers_open(ends: list[int]) -> int:
    """The numbers open to play, as bits."""
    mask = 0
    for end in ends:
        mask |= 1 << (end & 31)
    return mask


class Web:
    """A layout's open ends as integers, and what its doubles and spinners have covered
    (see the module doc): the changes a play makes beyond the plainest."""

    __slots__ = ("ends", "offers", "plan", "sides", "spinners", "used")

    def __init__(self, layout: Layout | None, plan: Plan, size: int) -> None:
        self.plan = plan
        self.used = used = [0] * size  # a double's covered edges
        self.sides = sides = [0] * size  # a double's covered sides
        self.spinners = 0  # the nodes that are spinners, as bits
        self.ends: list[int] = []
        if layout is not None:
            self.ends = [e[0] << 8 | e[1] << 5 | e[2] for e in layout.ends]
            for index, node in enumerate(layout.nodes):
                if node.tile.is_double:
                    used[index] = len(node.used)
                    sides[index] = node.sides_covered()
                    if node.spinner:
                        self.spinners |= 1 << index
        self.offers = _offers(self.ends)

    def lay(self, tile: Tile, at: int, node: int, total: int) -> int:
        """Lay `tile` at the open end `at` (`LED`: the lead) as node `node`, with the
        ends adding up to `total`: a double, or a tile on a double's side or a spinner's
        arm (a plain tile on a plain end is `play_web`'s); the ends total after."""
        high = tile.high
        pip = at & 31
        plan = self.plan
        far = -1
        if at < 0:
            pass  # the lead
        elif high != tile.low:  # on a double's side or a spinner's arm
            parent = at >> 8
            if not self.spinners >> parent & 1 and self.used[parent] == 1:
                # The open side of a double in the line (not a spinner): the double
                # stops counting and the far end opens.
                self.used[parent] = self.sides[parent] = 2
                far = node << 8 | 32 | tile.low if high == pip else node << 8 | high
                total += (far & 31) - (2 * pip if plan.both else pip)
        elif not (plan.every or (plan.first_only and not self.spinners)):
            # A double in the line (on a plain end: no other shows its number), not a
            # spinner: its other side opens.
            self.used[node] = self.sides[node] = 1
            far = node << 8 | 96 | high
            total += (2 * high if plan.both else high) - pip
        if far < 0:  # the lead, a spinner, a tile on a spinner: more changes
            self._open(tile, at, node)
            return self._total() if plan.scores else total
        ends, offers = self.ends, self.offers  # the end played on goes, the new one comes last
        ends.remove(at)
        ends.append(far)
        if offers is not ends:
            offers.remove(at)
            offers.append(far)
        return total

    def _open(self, tile: Tile, at: int, node: int) -> None:
        """Lay the lead, a spinner, or a tile on a spinner, as node `node`: its ends
        open, the edge it covers counted (a spinner's arms open after its sides, if
        they do), the offers made again."""
        plan, ends = self.plan, self.ends
        high = tile.high
        double = high == tile.low
        spinner = double and (
            plan.every or (plan.lead_only and not node) or (plan.first_only and not self.spinners)
        )
        if spinner:
            self.spinners |= 1 << node
        base = node << 8 | high
        if at < 0:  # the lead
            ends += (base | _SIDE, base | 96) if double else (base, node << 8 | 32 | tile.low)
        else:
            ends.remove(at)
            if double:
                self.used[node] = self.sides[node] = 1
                ends.append(base | 96)
            else:
                ends.append(node << 8 | 32 | tile.low if high == at & 31 else base)
        if spinner and plan.arms_at_once:
            ends += (base | _ARM, base | 160)
        if at >= 0:
            parent = at >> 8
            self.used[parent] += 1
            if at >> 6 & 3 == 1:  # (edges 2 and 3: a side)
                self.sides[parent] += 1
                if (
                    self.sides[parent] == 2
                    and self.spinners >> parent & 1
                    and not plan.arms_at_once
                ):
                    base = at & ~255 | at & 31
                    ends += (base | _ARM, base | 160)
        self.offers = _offers(ends)

    def _total(self) -> int:
        """`Layout.ends_total()`."""
        plan = self.plan
        both, one_edge, arms_keep = plan.both, plan.one_edge, plan.arms_keep
        used, sides = self.used, self.sides
        ends, spinners = self.ends, self.spinners
        total = seen = 0
        for end in ends:
            pip = end & 31
            if not end & _JOINT:
                total += pip
                continue
            node = end >> 8
            if seen >> node & 1:
                continue
            seen |= 1 << node
            whole = 2 * pip if both else pip
            if not spinners >> node & 1 or one_edge:
                total += whole if used[node] <= 1 else 0
            elif sides[node] < 2:
                total += whole
            elif arms_keep:
                total += pip * sum(1 for e in ends if e >> 8 == node)
        return total


def _offers(ends: list[int]) -> list[int]:
    """`engine.layout._offers` for ends as integers: `ends` less mirror images (a
    double's second side or a spinner's second arm: the same node, edge pair and pip,
    so that only the edge's lowest bit, bit 5, differs); `ends` itself when it has none."""
    out: list[int] = []
    last = -1
    for end in ends:
        if last >= 0 and (last ^ end) | 32 == 32:
            continue
        out.append(end)
        last = end
    return ends if len(out) == len(ends) else out
