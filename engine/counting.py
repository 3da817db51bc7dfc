"""Judging the count: what each seat holds at the end of a hand, in table mode.

The table never sees the hands; at the end of a hand the players show them, and the
table counts each seat's pips (shared/TABLE.md, "Counting"). `Counting.count` takes
those counts (pips per seat, and the tiles where they were shown), checks them against
the set, the table and what each seat can hold, works out how the hand ended when the
players did not say, proves after the fact what the shown tiles prove
(`engine.proofs`), and scores the hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter

from engine.events import HandResult, Judgement, Reason
from engine.hand import Phase
from engine.proofs import reneges, wrong_lead_shown
from engine.referee import Referee
from engine.tiles import Tile

_PLAY, _COUNTING = Phase.PLAY, Phase.COUNTING
_BLOCKED = HandResult.BLOCKED
_PIPS = attrgetter("pips")
_PLAY_ON = "play on, or say who went out or that the hand is blocked"

Ending = tuple[HandResult, int | None]


class Counting(Referee):
    """The counts of a game's hands (see the module doc)."""

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
        if len(pips) != self.seats or any(p is not None and p < 0 for p in pips):
            return self.refuse(
                Reason.COUNT_MISMATCH, detail=f"give {self.seats} counts of 0 or more"
            )
        if tiles is not None and len(tiles) != self.seats:
            return self.refuse(Reason.COUNT_MISMATCH, detail=f"give {self.seats} seats' tiles")
        if self.phase is not _PLAY and self.phase is not _COUNTING:
            return self.refuse(Reason.WRONG_PHASE, detail="no hand to count")
        shown = list(tiles) if tiles is not None else [None] * self.seats
        pips = [_pips_of(p, t) for p, t in zip(pips, shown, strict=True)]
        refused = self._check_shown(pips, shown)
        if refused is not None:
            return refused
        ending = self._ending(pips, out, blocked)
        if isinstance(ending, Judgement):
            return ending
        events = self.end_play(*ending) if self.phase is _PLAY else []
        assert self.phase is _COUNTING, "an ending checked by _ending ends the hand"
        if self.hands is None:  # table mode: what the tiles shown prove
            t = self.record
            events += reneges(self, t, shown)
            events += wrong_lead_shown(self, t, shown)
        self.counts = list(pips)
        return Judgement(Reason.OK, (*events, *self.score_hand([p or 0 for p in pips])))

    def count_tiles(self, shown: Sequence[Sequence[Tile]]) -> Judgement:
        """The tiles each seat shows at the end: checked against the game, then counted."""
        return self.count([None] * len(shown), shown)

    def _check_shown(
        self, pips: Sequence[int | None], shown: Sequence[Sequence[Tile] | None]
    ) -> Judgement | None:
        """Why the tiles shown cannot be what the seats hold (None: they can)."""
        on_table = set(self.layout.tiles())
        seen: set[Tile] = set()
        for seat, tiles in enumerate(shown):
            if tiles is None:
                continue
            for tile in tiles:
                if tile not in self.set_tiles:
                    return self.refuse(Reason.UNKNOWN_TILE, tile, seat=seat)
                if tile in on_table or tile in seen:
                    return self.refuse(Reason.DUPLICATE_TILE, tile, seat=seat)
                seen.add(tile)
            name, held = self.names[seat], sum(map(_PIPS, tiles))
            if pips[seat] != held:
                detail = f"{name} counts {pips[seat]} pips but shows {held}"
                return self.refuse(Reason.COUNT_MISMATCH, seat=seat, detail=detail)
            least, most = self._held_bounds(seat)
            if not least <= len(tiles) <= (most if most is not None else len(tiles)):
                should = f"{least} tiles" if most is not None else f"at least {least} tiles"
                detail = f"{name} should hold {should}, shows {len(tiles)}"
                return self.refuse(Reason.COUNT_MISMATCH, seat=seat, detail=detail)
        return None

    def _held_bounds(self, seat: int) -> tuple[int, int | None]:
        """How many tiles the seat holds now: at least, and at most (None: no bound) by
        the deal, the draws told and its plays. Nothing is known (0, None) while a lead is
        not attributed; draw-until-playable games need not tell their draws."""
        t = self.record
        if None in t.layout.seats() or not t.played:
            return 0, None
        left = self.tiles_left(seat)
        if left is not None:
            return left, left
        return self.hand_size + t.drawn[seat] - t.played[seat], None

    def _ending(
        self, pips: Sequence[int | None], out: int | None, blocked: bool
    ) -> Ending | Judgement:
        """How the hand ended, as said or as the game knows it (refused: it has not, or
        not so), with the seat that went out holding nothing."""
        if out is not None and blocked:
            return self.refuse(Reason.COUNT_MISMATCH, detail="a hand is blocked or won, not both")
        if out is not None and not 0 <= out < self.seats:
            return self.refuse(Reason.COUNT_MISMATCH, detail=f"there is no seat {out}")
        said: Ending | None = None
        if out is not None:
            said = (HandResult.DOMINO, out)
        elif blocked:
            said = (HandResult.BLOCKED, None)
        ending: Ending | Judgement
        if self.phase is _COUNTING:
            assert self.result is not None
            ending = (self.result, self.out_seat)
            if said is not None and said != ending:
                who = self.names[self.out_seat or 0]
                how = "blocked" if self.result is _BLOCKED else f"with {who} out"
                return self.refuse(Reason.COUNT_MISMATCH, detail=f"the hand ended {how}")
        elif out is not None:
            ending = self._gone_out(out)
        else:
            ending = said if said is not None else self._ended_by_play()
        if isinstance(ending, Judgement):
            return ending
        seat = ending[1]
        if seat is not None and pips[seat]:
            detail = f"{self.names[seat]} went out but holds pips"
            return self.refuse(Reason.COUNT_MISMATCH, seat=seat, detail=detail)
        return ending

    def _ended_by_play(self) -> Ending | Judgement:
        """How a hand in play ended, when nobody said: blocked when every seat passed in
        turn and the boneyard is known to be empty, else gone out by the seat that played
        last (refused when the game knows neither)."""
        t = self.record
        if t.passes_in_row >= self.active_seats():
            if self.boneyard_known_empty():
                return HandResult.BLOCKED, None
            left = self.drawable()
            holds = f"holds {left} tiles" if left is not None else "may hold tiles"
            detail = f"the hand is not over, the boneyard {holds}: {_PLAY_ON}"
            return self.refuse(Reason.COUNT_MISMATCH, detail=detail)
        seat = t.layout.nodes[-1].seat if t.layout.nodes else None
        if seat is None:
            return self.refuse(Reason.LEAD_UNKNOWN, detail="who went out?")
        if t.passes_in_row:
            name = self.names[self._last_passer()]
            detail = f"the hand is not over, {name} passed since the last play: {_PLAY_ON}"
            return self.refuse(Reason.COUNT_MISMATCH, detail=detail)
        return self._gone_out(seat)

    def _gone_out(self, seat: int) -> Ending | Judgement:
        """The hand won by `seat` going out, or why it cannot have gone out."""
        refused = self.check_out(seat)
        return refused if refused is not None else (HandResult.DOMINO, seat)

    def _last_passer(self) -> int:
        """The seat that passed last (passes came since the last play)."""
        seat = self.turn
        assert seat is not None
        return (seat - 1) % self.seats


def _pips_of(pips: int | None, tiles: Sequence[Tile] | None) -> int | None:
    """A seat's pips: as given, else those of the tiles it shows (None: neither)."""
    if pips is not None or tiles is None:
        return pips
    return sum(t.pips for t in tiles)
