"""Whole-hand play-outs: the engine's fastest full-referee path, for Monte-Carlo work.

`play_out(game, rng)` plays the current hand of a full-information game to its end with
uniformly random legal plays and leaves the game exactly as `engine.players.play_hand`
with a `RandomPlayer(rng)` in every seat would: the same hand (it draws the same numbers
from `rng`, one per turn that has a legal play, and lists the moves in `legal_moves()`'s
order), the same layout, hands, boneyard, scores, history, journal and phase.

What it does not make is events: it returns the tiles laid, and the hand's events are
the ones its journal (`game.hand_inputs()`) makes when replayed through a game dealt the
same way (`replay_events`). The journal and the hand's turn record (layout, who laid
what, passes, knocks) are made only when read: the play-out keeps one small tuple per
input, and the game builds the rest the first time `_turn` or `_journal` is asked for.

How it is lean: the hands are bit fields over *slots* (a slot per tile in a hand, in
hand order, drawn tiles after), so that "the tiles of this hand that show n" is one
`&` and the k-th legal move in `legal_moves()`'s order is found by counting bits, with
no lists of moves. In block and draw games without a spinner or play scoring the layout
is a line of two ends kept in local variables, each end's number and whether it is a
double's side (a double in the line or a double lead is still that), and a play is
recorded with the index of its end in the layout's ends. With a spinner or scoring
during play the open ends are integers (node, edge and number) with each double's
covered edges and sides counted. Either way the layout's nodes and open-end tuples are
made when read. Partnerships where both partners must go out, and tables without full
information, take the general path.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import chain
from math import floor  # (int(x) for x >= 0, as `RandomPlayer` picks, without a type call)

from engine.events import Event, HandResult, Termination
from engine.game import (
    _DRAW_ONE,
    _POINTS_TABLE,
    DrawInput,
    Game,
    Journal,
    Mode,
    PassInput,
    Phase,
    PlayInput,
    _Lazy,
    _Turn,
)
from engine.layout import Edge, Layout, OpenEnd
from engine.rules import ArmsOpen, PlayScoring, SpinnerCounts, SpinnerRule
from engine.scoring import play_points
from engine.tiles import Tile

_LEAD, _PLAY, _HAND_OVER = Phase.LEAD, Phase.PLAY, Phase.HAND_OVER
_FULL = Mode.FULL
_DOMINO, _BLOCKED = HandResult.DOMINO, HandResult.BLOCKED
_EDGES = tuple(Edge)
_NO_SPINNER, _NO_SCORING = SpinnerRule.NONE, PlayScoring.NONE
_EVERY_DOUBLE, _LEAD_DOUBLE = SpinnerRule.EVERY_DOUBLE, SpinnerRule.LEAD_DOUBLE
_FIRST_DOUBLE, _AT_ONCE = SpinnerRule.FIRST_DOUBLE, ArmsOpen.AT_ONCE
_ONE_EDGE, _ARMS_KEEP = SpinnerCounts.ONE_EDGE, SpinnerCounts.ARMS_KEEP
_new = tuple.__new__
_SLOT_BITS = tuple(1 << i for i in range(128))  # a hand-out's slots (91 tiles at most)
_SLOT_INDEX = {bit: i for i, bit in enumerate(_SLOT_BITS)}

# A play is recorded with its end as node << 8 | edge << 5 | pip (_LED: the lead); a
# pass or a draw with a code of its own.
_LED, _PASS, _DRAW = -1, -2, -3


class _Pending:
    """A played-out hand's inputs, made into the game's journal and turn record when
    either is first read (`engine.game._Lazy.__getattr__`, through `Game._settle`)."""

    __slots__ = ("journal", "line", "record", "ref", "turn")

    turn: _Turn | None  # the turn record and journal as the play-out found them (None:
    # a fresh hand's, not made yet)
    journal: Journal
    record: list[tuple[int, Tile | None, int, int]]  # (seat, tile, end or code, knock)
    ref: int  # the game's input counter when the play-out began
    line: bool  # a play's end is its index in `Layout.ends` (else a code, see _LED)

    def settle(self, game: Game) -> None:
        """Apply the recorded inputs to the turn record and journal, as `push`,
        `push_pass` and `push_draw` would have; give both to the game."""
        game._pending = None
        t = self.turn if self.turn is not None else game._fresh_turn()
        journal = self.journal
        layout = t.layout
        place = layout.place
        knock = game._knock_check
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
            elif where == _PASS:
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


def play_out(game: Game, rng: random.Random) -> int:  # noqa: PLR0912, PLR0915 (one hot function)
    """Play the current hand to its end with uniformly random legal plays; the number
    of tiles in the layout at the end.

    The same hand, state and use of `rng` as `play_hand(game, [RandomPlayer(rng)] * n)`,
    without the events (see the module doc). Full information only.
    """
    # A hand dealt after a play-out is a `_Lazy` game, its turn record not made yet: a
    # `Game` again while it is played out (fast attribute loads, from the first), a
    # `_Lazy` after; a subclass of `Game` is left with everything made.
    cls = game.__class__
    if cls is _Lazy:
        game.__class__ = Game
    if game.mode is not _FULL or game.hands is None:
        game.__class__ = cls
        raise ValueError("a play-out needs a game in full information (Mode.FULL)")
    phase = game.phase
    if phase is not _LEAD and phase is not _PLAY:
        game.__class__ = cls  # (what is left to be made, made when read)
        return len(game.layout.nodes)
    if game._both_out or game.turn is None:
        return _general(game, rng)  # (which makes what is left to be made)
    if game._pending is not None:
        game._settle()  # (no play-out leaves a hand in play: cannot happen)
    lazy = cls is _Lazy or cls is Game
    rules = game.rules
    t: _Turn | None = game.__dict__.get("_turn")
    journal = game._journal
    hands = game.hands
    seats = game.seats

    # The hands as slots: slot i is the i-th tile of the hands in seat and hand order;
    # a drawn tile takes the next slot (it goes to the end of its hand).
    tiles = list(chain.from_iterable(hands))
    slot = _SLOT_INDEX  # a slot's bit to its place in `tiles` (a dict made per hand
    # costs more than the look-ups through this one)
    spip = [0] * (game.set.max_pip + 1)  # spip[n]: the slots of tiles showing n
    for bit, tile in zip(_SLOT_BITS, tiles, strict=False):
        spip[tile.high] |= bit
        spip[tile.low] |= bit
    held = []
    first = 0
    for hand in hands:
        last = first + len(hand)
        held.append((1 << last) - (1 << first))
        first = last
    next_bit = 1 << first

    record: list[tuple[int, Tile | None, int, int]] = []
    add = record.append
    random_ = rng.random
    nxt = game._next_seat
    boneyard = game.boneyard
    assert boneyard is not None
    keep = game._boneyard_keep
    draws = game._draws
    draw_one = game._draw_one
    knock = game._knock_check
    if t is None:
        passes = drew = nodes = 0
        ends: list[OpenEnd] = []
    else:
        passes = t.passes_in_row
        drew = t.drew_this_turn
        nodes = len(t.layout.nodes)
        ends = t.layout.ends
    s = game.turn
    draws_made = 0  # (every other input is a play or a pass: numbered)
    result = None  # how the hand ended; None: the game ended in the middle of it
    out_seat: int | None = None
    line = rules.spinner is _NO_SPINNER and rules.play_scoring is _NO_SCORING
    first_nodes = nodes
    if line and nodes and len(ends) != 2:
        line = False  # (cannot happen with these rules; the general layout copes anyway)

    if line:
        if nodes == 0:
            bit = _lead_bit(game, held[s], tiles, random_())
            tile = tiles[slot[bit]]
            held[s] ^= bit
            passes = drew = 0
            add((s, tile, _LED, 0))
            if tile.high == tile.low:  # both sides open: one place to play (mirrors)
                d0, p0, d1, p1 = True, tile.high, True, tile.high
                mirror, plain = True, False
            else:
                d0, p0, d1, p1 = False, tile.high, False, tile.low
                mirror, plain = False, True
            nodes = 1
            if not held[s]:
                result, out_seat = _DOMINO, s
            else:
                s = nxt[s]
        else:
            e0, e1 = ends
            d0, p0 = e0[1] >= 2, e0[2]  # (edges 2 and 3: a double's sides)
            d1, p1 = e1[1] >= 2, e1[2]
            mirror = e0[0] == e1[0] and d0  # a double led, untouched
            plain = not (d0 or d1)

    if line and result is None:
        # A line: two ends, `p0` and `p1` their numbers, `d0` and `d1` whether each is a
        # double's side, in the layout's order (the end played on goes, the new one
        # comes last), so that a play is recorded as the index of its end in
        # `Layout.ends` (no layout codes made: `_Pending.settle` reads the ends).
        # `plain`: both are plain tiles' ends, and the moves come end by end; otherwise
        # (a double's side open) tile by tile. `mirror`: a double led, its two sides one
        # place to play.
        while True:
            h = held[s]
            a = h & spip[p0]
            b = 0 if mirror else h & spip[p1]
            if a or b:
                if not (a and b):  # one end: its tiles in hand order (both orders agree)
                    at = 0
                    if not a:
                        a = b
                        at = 1
                    if a & (a - 1):
                        k = floor(random_() * a.bit_count())
                        while k:
                            a &= a - 1
                            k -= 1
                        bit = a & -a
                    else:
                        random_()  # (the one move is still drawn for)
                        bit = a
                elif plain:
                    na = a.bit_count()
                    k = floor(random_() * (na + b.bit_count()))
                    if k < na:
                        while k:
                            a &= a - 1
                            k -= 1
                        bit = a & -a
                        at = 0
                    else:
                        k -= na
                        while k:
                            b &= b - 1
                            k -= 1
                        bit = b & -b
                        at = 1
                else:
                    k = floor(random_() * (a.bit_count() + b.bit_count()))
                    f = a | b
                    while True:
                        bit = f & -f
                        if a & bit:
                            if not k:
                                at = 0
                                break
                            k -= 1
                        if b & bit:
                            if not k:
                                at = 1
                                break
                            k -= 1
                        f ^= bit
                tile = tiles[slot[bit]]
                if at:
                    jp = p1
                else:
                    jp, d0, p0 = p0, d1, p1
                add((s, tile, at, 0))
                hi = tile.high
                if hi == tile.low:
                    d1 = True
                    p1 = hi
                    plain = False
                else:
                    d1 = False
                    p1 = tile.low if hi == jp else hi
                    plain = not d0
                mirror = False
                passes = drew = 0
                h ^= bit
                held[s] = h
                if not h:
                    result, out_seat = _DOMINO, s
                    break
                s = nxt[s]
            elif draws and len(boneyard) > keep and not (draw_one and drew):
                tile = boneyard.pop()
                bit = next_bit
                next_bit <<= 1
                tiles.append(tile)  # (slot `bit`: the next one)
                held[s] = h | bit
                spip[tile.high] |= bit
                spip[tile.low] |= bit
                drew += 1
                draws_made += 1
                add((s, None, _DRAW, 0))
            else:
                passes += 1
                drew = 0
                add((s, None, _PASS, 1 << p0 | 1 << p1))
                if passes >= seats and (not draw_one or len(boneyard) <= keep):
                    result = _BLOCKED
                    break
                s = nxt[s]
    else:
        # Any other layout (spinners, scoring during play), in integers: an open end is
        # node << 8 | edge << 5 | pip, `ends` in the layout's order and `offers` them
        # less mirror images (`ends` itself when there are none), as `Layout` keeps
        # them; doubles' covered edges and sides are counted per node. The moves come
        # as `legal_moves()` lists them.
        scores = game._scores_in_play
        points_table = game._play_points
        scoring = rules.play_scoring
        competitors = game.team_scores if game.teams.groups else game.seat_scores
        target = game.target
        exact = game._exact_target and target is not None
        at_once = game._at_once and target is not None
        spin_rule = rules.spinner
        every, lead_only = spin_rule is _EVERY_DOUBLE, spin_rule is _LEAD_DOUBLE
        first_only = spin_rule is _FIRST_DOUBLE
        at_once_arms = rules.arms is _AT_ONCE
        both = rules.double_counts_both
        one_edge = rules.spinner_counts is _ONE_EDGE
        arms_keep = rules.spinner_counts is _ARMS_KEEP
        size = len(game._set_list)
        used = [0] * size  # a double's covered edges
        sides = [0] * size  # a double's covered sides
        spinners = 0  # the nodes that are spinners, as bits
        web: list[int] = [e[0] << 8 | e[1] << 5 | e[2] for e in ends]
        total = 0
        if t is not None:
            for index, node in enumerate(t.layout.nodes):
                if node.tile.is_double:
                    used[index] = len(node.used)
                    sides[index] = node.sides_covered()
                    if node.spinner:
                        spinners |= 1 << index
            total = t.layout._total
        offers = _web_offers(web)
        while True:
            h = held[s]
            if not nodes:  # the lead
                bit = _lead_bit(game, h, tiles, random_())
                at = -1
            elif len(offers) == 2 and not (offers[0] | offers[1]) & 192:
                # Two plain ends: the moves come end by end.
                at = offers[0]
                a = h & spip[at & 31]
                b = h & spip[offers[1] & 31]
                if a or b:
                    na = a.bit_count()
                    k = floor(random_() * (na + b.bit_count()))
                    if k < na:
                        while k:
                            a &= a - 1
                            k -= 1
                        bit = a & -a
                    else:
                        k -= na
                        while k:
                            b &= b - 1
                            k -= 1
                        bit = b & -b
                        at = offers[1]
                else:
                    at = -2
            else:
                # Tile by tile in hand order, each at the ends it fits in order.
                n = 0
                f = 0
                for e in offers:
                    m = h & spip[e & 31]
                    if m:
                        n += m.bit_count()
                        f |= m
                if n:
                    k = floor(random_() * n)
                    at = -2
                    while at == -2:
                        bit = f & -f
                        for e in offers:
                            if spip[e & 31] & bit:
                                if not k:
                                    at = e
                                    break
                                k -= 1
                        f ^= bit
                else:
                    at = -2
            if at != -2:
                tile = tiles[slot[bit]]
                add((s, tile, at, 0))
                hi = tile.high
                pip = at & 31
                if at < 0:
                    far = -1
                elif hi != tile.low:
                    if not at & 192:
                        # A plain tile on a plain end: its far end opens, nothing else
                        # moves (the ends' value changes by the difference).
                        far = nodes << 8 | 32 | tile.low if hi == pip else nodes << 8 | hi
                        total += (far & 31) - pip
                    elif not spinners >> (at >> 8) & 1 and used[at >> 8] == 1:
                        # On the open side of a double in the line (not a spinner): the
                        # double stops counting and the far end opens.
                        far = nodes << 8 | 32 | tile.low if hi == pip else nodes << 8 | hi
                        used[at >> 8] = sides[at >> 8] = 2
                        total += (far & 31) - (2 * pip if both else pip)
                    else:
                        far = -1
                elif not (every or (first_only and not spinners)):  # (not the lead here)
                    # A double in the line, not a spinner: its other side opens.
                    far = nodes << 8 | 96 | hi
                    used[nodes] = sides[nodes] = 1
                    total += (2 * hi if both else hi) - pip
                else:
                    far = -1
                if far >= 0:
                    # Nothing else moves: the end played on goes, the new one comes last
                    # (no mirror image of another, and none lost one).
                    web.remove(at)
                    web.append(far)
                    if offers is not web:
                        offers.remove(at)
                        offers.append(far)
                else:
                    spinner = hi == tile.low and (
                        every or (lead_only and not nodes) or (first_only and not spinners)
                    )
                    if spinner:
                        spinners |= 1 << nodes
                    base = nodes << 8 | hi
                    if at < 0:  # the lead
                        if hi != tile.low:
                            web.append(base)
                            web.append(nodes << 8 | 32 | tile.low)
                        else:
                            web.append(base | 64)
                            web.append(base | 96)
                            if spinner and at_once_arms:
                                web.append(base | 128)
                                web.append(base | 160)
                    else:
                        web.remove(at)
                        parent = at >> 8
                        pip = at & 31
                        edge = at >> 5 & 7
                        used[parent] += 1
                        if edge >> 1 == 1:
                            sides[parent] += 1
                        if hi != tile.low:
                            web.append(nodes << 8 | 32 | tile.low if hi == pip else base)
                        else:
                            used[nodes] = sides[nodes] = 1
                            web.append(base | 96)
                            if spinner and at_once_arms:
                                web.append(base | 128)
                                web.append(base | 160)
                        if (
                            spinners >> parent & 1
                            and not at_once_arms
                            and edge >> 1 == 1
                            and sides[parent] == 2
                        ):
                            web.append(at & ~255 | 128 | pip)
                            web.append(at & ~255 | 160 | pip)
                    offers = _web_offers(web)
                    if scores:
                        total = _web_total(web, used, sides, spinners, both, one_edge, arms_keep)
                nodes += 1
                passes = drew = 0
                h ^= bit
                held[s] = h
                if scores and total > 0:
                    points = table_points = (
                        points_table[total]
                        if total < _POINTS_TABLE
                        else play_points(scoring, total)
                    )
                    if table_points:
                        points = _add_points(game, s, table_points, exact)
                        if points and at_once and max(competitors) >= target:  # type: ignore[operator]
                            _finish(
                                game,
                                held,
                                tiles,
                                record,
                                t,
                                journal,
                                len(record) - draws_made,
                                False,
                            )
                            game.phase = _PLAY
                            game._game_over()
                            _leave(game, lazy)
                            return nodes
                if not h:
                    result, out_seat = _DOMINO, s
                    break
                s = nxt[s]
            elif draws and len(boneyard) > keep and not (draw_one and drew):
                tile = boneyard.pop()
                bit = next_bit
                next_bit <<= 1
                tiles.append(tile)  # (slot `bit`: the next one)
                held[s] = h | bit
                spip[tile.high] |= bit
                spip[tile.low] |= bit
                drew += 1
                draws_made += 1
                add((s, None, _DRAW, 0))
            else:
                passes += 1
                drew = 0
                mask = 0
                if knock:
                    for e in web:
                        mask |= 1 << (e & 31)
                add((s, None, _PASS, mask))
                if passes >= seats and (not draw_one or len(boneyard) <= keep):
                    result = _BLOCKED
                    break
                s = nxt[s]
    pips = _finish(game, held, tiles, record, t, journal, len(record) - draws_made, line)
    if line:  # (not counted as it went) every tile gone from the hands was laid
        nodes = first_nodes + len(tiles) - sum(map(len, game.hands))
    # `Game._end_play` and `_score_hand`, without the events.
    assert result is not None
    game.result = result
    game.out_seat = out_seat
    game.turn = None
    game._tally_hand(pips)
    game.phase = _HAND_OVER
    # `_target_reached_at_once() or _target_reached_end_of_hand()`, in one.
    target = game.target
    if target is not None:
        standing = game.team_scores if game.teams.groups else game.seat_scores
        best = max(standing)
        unique = len(standing) == 1 or standing.count(best) == 1
        if best >= target and (game._checks_at_once or unique):
            game._game_over()
    if game.last_hand and game.phase is _HAND_OVER:  # the clock ran out (`Game.call_time`)
        game._game_over(Termination.TIME)
    _leave(game, lazy)
    return nodes


def _leave(game: Game, lazy: bool) -> None:
    """A `_Lazy` game until its journal or turn record is read; or made now."""
    if lazy:
        game.__class__ = _Lazy
    else:
        game._settle()


def _lead_bit(game: Game, h: int, tiles: list[Tile], r: float) -> int:
    """The slot of the tile led: the forced lead, or the hand's tile `r` picks (in
    hand order, as `legal_moves()` lists the leads)."""
    start = game._start
    assert start is not None
    forced = start.forced_lead
    if forced is not None:
        for b, tile in zip(_SLOT_BITS, tiles, strict=False):
            if tile is forced and b & h:
                return b
        raise ValueError(f"{forced} must lead but the turn seat does not hold it")
    k = floor(r * h.bit_count())
    while k:
        h &= h - 1
        k -= 1
    return h & -h


def _add_points(game: Game, seat: int, points: int, exact: bool) -> int:
    """`Game._add_points`: the points a play scores, credited (0: an overshoot that
    `match.exact` disregards)."""
    team = game._team_of[seat]
    scores = game.seat_scores if team is None else game.team_scores
    who = seat if team is None else team
    if exact and game.target is not None and scores[who] + points > game.target:
        return 0
    scores[who] += points
    return points


def _web_offers(ends: list[int]) -> list[int]:
    """`layout._offers` for ends as integers: `ends` less mirror images (a double's
    second side or a spinner's second arm: the same node, edge pair and pip, so that
    only the edge's lowest bit, bit 5, differs); `ends` itself when it has none."""
    out: list[int] = []
    last = -1
    for end in ends:
        if last >= 0 and (last ^ end) | 32 == 32:
            continue
        out.append(end)
        last = end
    return ends if len(out) == len(ends) else out


def _web_total(
    ends: list[int],
    used: list[int],
    sides: list[int],
    spinners: int,
    both: bool,
    one_edge: bool,
    arms_keep: bool,
) -> int:
    """`Layout.ends_total()` for ends as integers."""
    total = 0
    seen = 0
    for end in ends:
        pip = end & 31
        if not end & 192:
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


def _finish(
    game: Game,
    held: list[int],
    tiles: list[Tile],
    record: list[tuple[int, Tile | None, int, int]],
    turn: _Turn | None,
    journal: Journal,
    refs: int,
    line: bool,
) -> list[int]:
    """The hands back from slots to lists, the inputs left to be made when read; the
    pips left in each hand."""
    hands: list[list[Tile]] = []
    pips: list[int] = []
    for seat_slots in held:
        slots = seat_slots
        hand: list[Tile] = []
        count = 0
        while slots:
            low = slots & -slots
            tile = tiles[_SLOT_INDEX[low]]
            hand.append(tile)
            count += tile.pips
            slots ^= low
        hands.append(hand)
        pips.append(count)
    game.hands = hands
    pending = _Pending()
    pending.turn = turn
    pending.journal = journal
    pending.record = record
    pending.ref = game._refs
    pending.line = line
    game._refs += refs
    game._pending = pending
    d = game.__dict__  # made when read (`_Lazy`): the hands' bits too
    d.pop("_turn", None)
    d.pop("_journal", None)
    d.pop("_held", None)
    return pips


def _general(game: Game, rng: random.Random) -> int:
    """The per-turn path, choosing as `RandomPlayer` does (rules the play-out leaves to
    the general code)."""
    game._settle()  # (a hand dealt after a play-out: made now)
    random_ = rng.random
    legal_moves, push = game.legal_moves, game.push
    while game.phase is _LEAD or game.phase is _PLAY:
        moves = legal_moves()
        if moves:
            push(moves[int(random_() * len(moves))])
        elif game._may_draw():
            game.push_draw()
        else:
            game.push_pass()
    return len(game.layout.nodes)


def replay_events(game: Game, inputs: Sequence[PlayInput | PassInput | DrawInput]) -> list[Event]:
    """Feed a hand's journal (`hand_inputs()` of a game dealt the same way) to `game`,
    judged as the table's inputs are: the events the hand makes."""
    events: list[Event] = []
    for action in inputs:
        if isinstance(action, PlayInput):
            judged = game.play(action.tile, action.where)
        elif isinstance(action, PassInput):
            judged = game.pass_turn()
        else:
            judged = game.draw(count=action.tiles)
        if not judged.ok:
            raise ValueError(f"{action} refused: {judged.reason.value}")
        events.extend(judged.events)
    return events


__all__ = ["Layout", "play_out", "replay_events"]
