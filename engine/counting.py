"""Judging the count: what each seat holds at the end of a hand, in table mode.

The table never sees the hands; at the end of a hand the players show them, and the
table counts each seat's pips (shared/TABLE.md, "Counting"). `Counting.count` takes
those counts (pips per seat, and the tiles where they were shown), checks them against
the set, the table and what each seat can hold, works out how the hand ended when the
players did not say, proves after the fact what the shown tiles prove
(`engine.proofs`), and scores the hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import attrgetter

from engine.events import HandResult, Judgement, Reason
from engine.hand import HandState, Phase
from engine.match import Match
from engine.proofs import reneges, wrong_lead_shown
from engine.referee import Referee
from engine.tiles import Tile

_PLAY, _COUNTING = Phase.PLAY, Phase.COUNTING
_BLOCKED = HandResult.BLOCKED
_PIPS = attrgetter("pips")
_PLAY_ON = "play on, or say who went out or that the hand is blocked"

Ending = tuple[HandResult, int | None]


class Counting:
    """The counts of a game's hands: a part of a `Game`, which holds it (see the module
    doc), beside the match whose hand it scores and the referee whose refusals it
    gives."""

    def __init__(self, game: HandState, match: Match, referee: Referee) -> None:
        self.game = game
        self.match = match
        self.referee = referee

    def count(
        self,
        pips: Sequence[int | None],
        tiles: Sequence[Sequence[Tile] | None] | None = None,
        *,
        out: int | None = None,
        blocked: bool = False,
    ) -> Judgement:
        """What each seat holds at the end of a hand (table mode): scores the hand.

        `pips` per seat (None: not given); `tiles`, the tiles a seat shows (None for a
        seat that gives only pips), are checked against the set, the table, the pips
        given and how many tiles the seat should hold (dealt, plus drawn, minus
        played), and against the seat's knocks: each knock made while a shown tile
        fitted is a `FALSE_KNOCK`; a tile the lead rule puts before the lead, shown by
        a seat that drew nothing, is a `BAD_LEAD` (`engine.proofs`).

        Given during play the count also ends the hand: as the players say (`out`, the
        seat that went out; `blocked`), else blocked when every seat passed in turn and
        the boneyard is known to be empty, or gone out by the seat that played last once
        it holds no tile. Anything else is refused: the hand is not over.
        """
        g = self.game
        if len(pips) != g.seats or any(p is not None and p < 0 for p in pips):
            return self.referee.refuse(
                Reason.COUNT_MISMATCH, detail=f"give {g.seats} counts of 0 or more"
            )
        if tiles is not None and len(tiles) != g.seats:
            return self.referee.refuse(Reason.COUNT_MISMATCH, detail=f"give {g.seats} seats' tiles")
        if g.phase is not _PLAY and g.phase is not _COUNTING:
            return self.referee.refuse(Reason.WRONG_PHASE, detail="no hand to count")
        shown = list(tiles) if tiles is not None else [None] * g.seats
        pips = [_pips_of(p, t) for p, t in zip(pips, shown, strict=True)]
        refused = self._check_shown(pips, shown)
        if refused is not None:
            return refused
        ending = self._ending(pips, out, blocked)
        if isinstance(ending, Judgement):
            return ending
        events = g.end_play(*ending) if g.phase is _PLAY else []
        assert g.phase is _COUNTING, "an ending checked by _ending ends the hand"
        if g.hands is None:  # table mode: what the tiles shown prove
            t = g.record
            events += reneges(g, t, shown)
            events += wrong_lead_shown(g, t, shown)
        self.match.counts = list(pips)
        return Judgement(Reason.OK, (*events, *self.match.score_hand([p or 0 for p in pips])))

    def count_tiles(self, shown: Sequence[Sequence[Tile]]) -> Judgement:
        """The tiles each seat shows at the end: checked against the game, then counted."""
        return self.count([None] * len(shown), shown)

    def count_seat(
        self, seat: int, pips: int | None = None, tiles: Sequence[Tile] | None = None
    ) -> Judgement:
        """One seat's count, given by hand (spec/mqtt.md's `count`): its `pips`, or the
        `tiles` it shows. Checked as it comes, as `count` checks each seat and against the
        counts other seats gave, and only once the hand is over (or known to be over:
        see `count`); kept (`counted`) until every seat that may hold tiles has given
        one, then the hand is scored with them all."""
        g = self.game
        if not 0 <= seat < g.seats:
            return self.referee.refuse(Reason.COUNT_MISMATCH, detail=f"there is no seat {seat}")
        if pips is None and tiles is None:
            detail = f"give {g.names[seat]}'s pips or tiles"
            return self.referee.refuse(Reason.COUNT_MISMATCH, seat=seat, detail=detail)
        shown = tuple(tiles) if tiles is not None else None
        taken = {x: s for s, (_, ts) in self.match.counted.items() if s != seat for x in ts or ()}
        given = pips if pips is not None or shown is None else sum(x.pips for x in shown)
        refused = self._check_seat(seat, given, shown, taken)  # (what cannot be, first)
        if refused is not None:
            return refused
        ending = self._counting_ending()
        if isinstance(ending, Judgement):
            return ending
        if ending[1] == seat and (given or shown):
            detail = f"{g.names[seat]} went out and holds no tile"
            return self.referee.refuse(Reason.COUNT_MISMATCH, seat=seat, detail=detail)
        counted = {**self.match.counted, seat: (pips, shown)}
        if any(s not in counted for s in range(g.seats) if s != g.out_seat):
            self.match.counted = counted
            return Judgement(Reason.OK)
        every = [counted.get(s, (0, None)) for s in range(g.seats)]
        judged = self.count([p for p, _ in every], [t for _, t in every])
        if judged.ok:
            self.match.counted = {}
        return judged

    def _counting_ending(self) -> Ending | Judgement:
        """How the hand ended, when counts are taken now: over (counting), or known to
        be over in play (blocked, or gone out); refused otherwise, saying why."""
        g = self.game
        if g.phase is _COUNTING:
            assert g.result is not None
            return g.result, g.out_seat
        if g.phase is not _PLAY:
            return self.referee.refuse(Reason.WRONG_PHASE, detail="no hand to count")
        ending = self._ended_by_play()
        if isinstance(ending, Judgement) and ending.reason is Reason.EARLY_OUT:
            return self.referee.refuse(
                Reason.COUNT_MISMATCH, detail=f"the hand is not over: {_PLAY_ON}"
            )
        return ending

    def _check_shown(
        self, pips: Sequence[int | None], shown: Sequence[Sequence[Tile] | None]
    ) -> Judgement | None:
        """Why the counts given cannot be what the seats hold (None: they can)."""
        taken: dict[Tile, int] = {}
        for seat, tiles in enumerate(shown):
            refused = self._check_seat(seat, pips[seat], tiles, taken)
            if refused is not None:
                return refused
            taken.update((x, seat) for x in tiles or ())
        return None

    def _check_seat(
        self,
        seat: int,
        pips: int | None,
        tiles: Sequence[Tile] | None,
        taken: Mapping[Tile, int],
    ) -> Judgement | None:
        """Why `seat` cannot hold `tiles` (and `pips`, their pips or given alone) when
        the seats of `taken` hold those tiles (None: it can): a tile not in the set, on
        the table, counted twice or for another seat; more or fewer tiles, or pips, than
        the seat can hold by the deal, the draws told and its plays."""
        g = self.game
        if tiles is None:
            return self._check_pips(seat, pips, taken)
        on_table = set(g.layout.tiles())
        name, seen = g.names[seat], set()
        for tile in tiles:
            if tile not in g.set_tiles:
                return self.referee.refuse(Reason.UNKNOWN_TILE, tile, seat=seat)
            if tile in on_table:
                return self.referee.refuse(Reason.DUPLICATE_TILE, tile, seat=seat)
            where = taken.get(tile, seat if tile in seen else None)
            if where is not None:
                said = f"in {name}'s count" if where == seat else f"for {g.names[where]}"
                return self.referee.refuse(Reason.COUNTED_TWICE, tile, seat=seat, detail=said)
            seen.add(tile)
        held = sum(x.pips for x in tiles)
        if pips is not None and pips != held:
            detail = f"{name} counts {pips} pips but shows {held}"
            return self.referee.refuse(Reason.COUNT_MISMATCH, seat=seat, detail=detail)
        least, most = self._held_bounds(seat)
        if not least <= len(tiles) <= (most if most is not None else len(tiles)):
            should = (
                f"at least {least} tiles"
                if most is None
                else f"{least} tiles"
                if least == most
                else f"{least} to {most} tiles"
            )
            detail = f"{name} should hold {should}, shows {len(tiles)}"
            return self.referee.refuse(Reason.COUNT_MISMATCH, seat=seat, detail=detail)
        return None

    def _check_pips(
        self, seat: int, pips: int | None, taken: Mapping[Tile, int]
    ) -> Judgement | None:
        """Why `seat` cannot hold `pips` (None: it can, or none were given): more than the
        most tiles it may hold can show, of those not on the table or counted. (Fewer is
        let be: the leaflets' worked examples count hands no deal could leave.)"""
        g = self.game
        if pips is None:
            return None
        on_table = set(g.layout.tiles())
        left = sorted(x.pips for x in g.set_tiles if x not in on_table and x not in taken)
        most = self._held_bounds(seat)[1]
        most = len(left) if most is None else min(most, len(left))
        high = sum(left[len(left) - most :]) if most else 0
        if pips <= high:
            return None
        name = g.names[seat]
        detail = (
            f"{name} holds no tile, not {pips} pips"
            if not most
            else f"{name} cannot hold {pips} pips: {most} tiles hold {high} at most"
        )
        return self.referee.refuse(Reason.COUNT_MISMATCH, seat=seat, detail=detail)

    def _held_bounds(self, seat: int) -> tuple[int, int | None]:
        """How many tiles the seat holds now: at least, and at most (None: no bound) by
        the deal, the draws told and its plays. A lead not attributed yet may be its own
        (at least: 0); in draw-until-playable games, whose draws need not be told, it may
        also have drawn every tile the others are not told to have drawn."""
        g = self.game
        t = g.record
        left = g.tiles_left(seat)
        most = left if left is not None else self._most_held(seat)
        if None in t.layout.seats():
            return 0, most
        least = left if left is not None else g.hand_size + t.drawn[seat] - t.played[seat]
        return least, most

    def _most_held(self, seat: int) -> int | None:
        """The most tiles the seat can hold where draws need not be told: its deal less its
        plays, and every tile of the boneyard but those kept and those told drawn by the
        other seats (None: the boneyard at the deal is not known)."""
        g = self.game
        start = g.hand_start
        if start is None or start.boneyard_count is None:
            return None
        t = g.record
        drawable = start.boneyard_count - g.rules.boneyard_keep - (sum(t.drawn) - t.drawn[seat])
        return g.hand_size - t.played[seat] + max(drawable, 0)

    def _ending(
        self, pips: Sequence[int | None], out: int | None, blocked: bool
    ) -> Ending | Judgement:
        """How the hand ended, as said or as the game knows it (refused: it has not, or
        not so), with the seat that went out holding nothing."""
        g = self.game
        if out is not None and blocked:
            return self.referee.refuse(
                Reason.COUNT_MISMATCH, detail="a hand is blocked or won, not both"
            )
        if out is not None and not 0 <= out < g.seats:
            return self.referee.refuse(Reason.COUNT_MISMATCH, detail=f"there is no seat {out}")
        said: Ending | None = None
        if out is not None:
            said = (HandResult.DOMINO, out)
        elif blocked:
            said = (HandResult.BLOCKED, None)
        ending: Ending | Judgement
        if g.phase is _COUNTING:
            assert g.result is not None
            ending = (g.result, g.out_seat)
            if said is not None and said != ending:
                who = g.names[g.out_seat or 0]
                how = "blocked" if g.result is _BLOCKED else f"with {who} out"
                return self.referee.refuse(Reason.COUNT_MISMATCH, detail=f"the hand ended {how}")
        elif out is not None:
            ending = self._gone_out(out)
        else:
            ending = said if said is not None else self._ended_by_play()
        if isinstance(ending, Judgement):
            return ending
        seat = ending[1]
        if seat is not None and pips[seat]:
            detail = f"{g.names[seat]} went out but holds pips"
            return self.referee.refuse(Reason.COUNT_MISMATCH, seat=seat, detail=detail)
        return ending

    def _ended_by_play(self) -> Ending | Judgement:
        """How a hand in play ended, when nobody said: blocked when every seat passed in
        turn and the boneyard is known to be empty, else gone out by the seat that played
        last (refused when the game knows neither)."""
        g = self.game
        t = g.record
        if t.passes_in_row >= g.active_seats():
            if g.boneyard_known_empty():
                return HandResult.BLOCKED, None
            left = g.drawable()
            holds = f"holds {left} tiles" if left is not None else "may hold tiles"
            detail = f"the hand is not over, the boneyard {holds}: {_PLAY_ON}"
            return self.referee.refuse(Reason.COUNT_MISMATCH, detail=detail)
        seat = t.layout.nodes[-1].seat if t.layout.nodes else None
        if seat is None:
            return self.referee.refuse(Reason.LEAD_UNKNOWN, detail="who went out?")
        if t.passes_in_row:
            name = g.names[self._last_passer()]
            detail = f"the hand is not over, {name} passed since the last play: {_PLAY_ON}"
            return self.referee.refuse(Reason.COUNT_MISMATCH, detail=detail)
        return self._gone_out(seat)

    def _gone_out(self, seat: int) -> Ending | Judgement:
        """The hand won by `seat` going out, or why it cannot have gone out."""
        refused = self.referee.check_out(seat)
        return refused if refused is not None else (HandResult.DOMINO, seat)

    def _last_passer(self) -> int:
        """The seat that passed last (passes came since the last play)."""
        g = self.game
        seat = g.turn
        assert seat is not None
        return (seat - 1) % g.seats


def _pips_of(pips: int | None, tiles: Sequence[Tile] | None) -> int | None:
    """A seat's pips: as given, else those of the tiles it shows (None: neither)."""
    if pips is not None or tiles is None:
        return pips
    return sum(t.pips for t in tiles)
