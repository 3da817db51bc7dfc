"""Judging: every input a table or a player gives becomes a `Judgement`.

`Referee` is the part of a `Game` that judges (python-chess's `Board.is_legal` beside
`push`): a play, pass, draw, lead named, seat gone out, count, undo or correction is
checked against the rules and what the game knows, then either refused with a `Reason`
(its alert says why, in the table's language; nothing changes) or taken by the hand
(`engine.hand`), whose events it returns. Full information knows the hands and judges
everything; table mode judges what the table can know and proves the rest after the
fact (`engine.proofs`). Counts at the end of a hand are judged in `engine.counting`.
"""

from __future__ import annotations

from dataclasses import replace

from engine.events import (
    AlertEvent,
    Coords,
    Event,
    HandEvent,
    HandResult,
    Judgement,
    LeadEvent,
    Reason,
    Termination,
    UndoEvent,
)
from engine.hand import HandState, Phase
from engine.layout import JoinProblem
from engine.match import Match
from engine.messages import message
from engine.proofs import proven_by_rebuild
from engine.record import DrawInput, HandInput, PassInput, PlayInput, Where
from engine.rules import Boneyard, NoDouble
from engine.tiles import Tile

_LEAD, _PLAY, _COUNTING = Phase.LEAD, Phase.PLAY, Phase.COUNTING
_HAND_OVER = Phase.HAND_OVER
_OK = Reason.OK
_new = tuple.__new__

_JOIN_REASONS = {
    JoinProblem.NO_MATCH: Reason.NO_MATCH,
    JoinProblem.NOT_TOUCHING: Reason.NOT_TOUCHING,
    JoinProblem.CLOSED_END: Reason.CLOSED_END,
    JoinProblem.AMBIGUOUS: Reason.AMBIGUOUS_END,
}


class RejectedError(Exception):
    """A journal replayed strictly met an input it refuses (`Referee.correct`)."""

    def __init__(self, judgement: Judgement) -> None:
        super().__init__(judgement.reason.value)
        self.judgement = judgement


class Referee:
    """The judged inputs of a game: a part of a `Game`, which holds it (see the module
    doc). It keeps nothing of its own: it reads the hand in play (the game's) and the
    match, and changes them only through what they offer."""

    def __init__(self, game: HandState, match: Match) -> None:
        self.game = game
        self.match = match

    # --- plays, passes and draws -----------------------------------------------------------

    def play(
        self,
        tile: Tile,
        where: Where = None,
        *,
        seat: int | None = None,
        coords: Coords | None = None,
    ) -> Judgement:
        """A tile laid: the lead (`where` None on an empty layout) or joined at `where`."""
        g = self.game
        if g.phase is _HAND_OVER or g.phase is _COUNTING:
            return self.refuse(Reason.WRONG_PHASE, tile, detail="the hand is over", at=coords)
        if g.phase is not _LEAD and g.phase is not _PLAY:
            return self.refuse(Reason.WRONG_PHASE, tile, detail="no hand in play", at=coords)
        if tile not in g.set_tiles:
            return self.refuse(Reason.UNKNOWN_TILE, tile, at=coords)
        layout = g.layout
        if layout.index_of(tile) is not None:
            return self.refuse(Reason.DUPLICATE_TILE, tile, at=coords)
        if seat is not None and g.turn is not None and seat != g.turn:
            return self.refuse(Reason.OUT_OF_TURN, tile, seat=seat, at=coords)
        if not layout.nodes and g.turn is None and seat is not None:
            named = self.name_leader(seat)  # a lead that says who laid it names the leader
            if not named.ok:
                return named
        actor = g.turn
        if g.hands is not None and actor is not None and tile not in g.hands[actor]:
            return self.refuse(Reason.NOT_IN_HAND, tile, seat=actor, at=coords)
        problem = self._check_place(tile, where, coords)
        if problem is not None:
            return problem
        g.refs += 1
        return Judgement(_OK, tuple(self.told(PlayInput(tile, where, coords, g.refs))))

    def told(self, action: HandInput) -> list[Event]:
        """A play, pass or draw judged acceptable, taken: the hand goes on, so the counts
        given since it seemed over go (`Counting.count_seat`); its events."""
        g = self.game
        self.match.counted = {}
        return g.take(action)

    def _check_place(self, tile: Tile, where: Where, coords: Coords | None) -> Judgement | None:
        """Why `tile` cannot go where the play says (None: it can)."""
        g = self.game
        layout = g.layout
        start = g.hand_start
        assert start is not None
        if not layout.nodes:
            if start.forced_lead is not None and tile is not start.forced_lead:
                return self.refuse(
                    Reason.BAD_LEAD, tile, detail=f"{start.forced_lead} must lead", at=coords
                )
            if start.lead_must_be_double and not tile.is_double:
                return self.refuse(Reason.BAD_LEAD, tile, detail="a double leads", at=coords)
            return None
        end = layout.find_end(tile, where)
        if isinstance(end, JoinProblem):
            pips = layout.numbers_at(where) if end is JoinProblem.NO_MATCH else ()
            return self.refuse(_JOIN_REASONS[end], tile, pip=pips, at=coords)
        return None

    def pass_turn(self, seat: int | None = None) -> Judgement:
        """A knock: the seat (default: the turn seat) cannot or may not play."""
        g = self.game
        if g.phase is not _PLAY:
            return self.refuse(Reason.WRONG_PHASE, seat=seat, detail="no play to pass on")
        if seat is not None and g.turn is not None and seat != g.turn:
            return self.refuse(Reason.OUT_OF_TURN, seat=seat)
        if g.hands is not None:
            refused = self._check_full_pass()
            if refused is not None:
                return refused
        elif self._must_draw_first():
            return self.refuse(Reason.MUST_DRAW, seat=seat)
        g.refs += 1
        return Judgement(_OK, tuple(self.told(PassInput(g.refs))))

    def _must_draw_first(self) -> bool:
        """Table mode, draw-one games: the turn seat has not drawn and tiles are left."""
        g = self.game
        if g.rules.boneyard is not Boneyard.DRAW_ONE:
            return False
        return not g.record.drew_this_turn and (g.drawable() or 0) > 0

    def _check_full_pass(self) -> Judgement | None:
        g = self.game
        seat = g.turn
        assert seat is not None and g.hands is not None
        moves = g.legal_moves(seat)
        if moves and g.rules.must_play:
            return self.refuse(Reason.FALSE_KNOCK, moves[0].tile, seat=seat)
        if not moves and g.can_draw(seat):
            return self.refuse(Reason.MUST_DRAW, seat=seat)
        return None

    def draw(self, seat: int | None = None, count: int = 1) -> Judgement:
        """Tiles drawn from the boneyard by the seat (default: the turn seat).

        In both modes a draw-one game takes one tile a turn, and no draw takes more tiles
        than the boneyard is known to hold (less those never drawn, `draw.keep`); full
        information also knows whether the seat could play instead. In table mode, where
        a double must lead and nobody holding one means every seat draws another tile
        (walnut), a seat's draws before the lead are its own (`draws_for_the_lead`).
        """
        refused = self._check_draw(seat, count)
        if refused is not None:
            return refused
        drawer = seat if self.draws_for_the_lead() else None  # (else the turn seat)
        return Judgement(_OK, tuple(self.told(DrawInput(count, drawer))))

    def draws_for_the_lead(self) -> bool:
        """Whether the seats may draw before the lead (table mode): a double must lead and,
        where nobody holds one, every seat draws another tile until one does (walnut)."""
        g = self.game
        start = g.hand_start
        return (
            g.phase is _LEAD
            and g.hands is None
            and g.rules.no_double is NoDouble.DRAW_MORE
            and start is not None
            and start.lead_must_be_double
            and not g.layout.nodes
        )

    def _check_draw(self, seat: int | None, count: int) -> Judgement | None:
        """Why the seat cannot draw `count` tiles now (None: it can)."""
        g = self.game
        if not g.rules.draws:
            return self.refuse(Reason.NO_DRAWING, seat=seat, detail="this is a block game")
        if self.draws_for_the_lead():
            return self._check_draw_for_the_lead(seat, count)
        if g.phase is not _PLAY:
            return self.refuse(Reason.WRONG_PHASE, seat=seat, detail="no drawing now")
        if seat is not None and g.turn is not None and seat != g.turn:
            return self.refuse(Reason.OUT_OF_TURN, seat=seat)
        if count < 1:
            return self.refuse(Reason.NO_DRAWING, seat=seat, detail="draw at least one tile")
        if g.rules.boneyard is Boneyard.DRAW_ONE and (count > 1 or g.record.drew_this_turn):
            detail = (
                f"draw one tile, not {count}"
                if count > 1
                else "one tile a turn: play it if it fits, else pass"
            )
            return self.refuse(Reason.NO_DRAWING, seat=seat, detail=detail)
        if g.hands is not None and not g.can_draw():
            return self.refuse(Reason.NO_DRAWING, seat=seat, detail="play or pass")
        return self._check_boneyard(seat, count)

    def _check_draw_for_the_lead(self, seat: int | None, count: int) -> Judgement | None:
        """Why `seat` cannot draw `count` tiles before the lead (None: it can)."""
        g = self.game
        if seat is None:
            detail = "nobody has led yet: say which seat drew"
            return self.refuse(Reason.WRONG_PHASE, seat=seat, detail=detail)
        if not 0 <= seat < g.seats:
            return self.refuse(Reason.WRONG_PHASE, detail=f"there is no seat {seat}")
        if count < 1:
            return self.refuse(Reason.NO_DRAWING, seat=seat, detail="draw at least one tile")
        return self._check_boneyard(seat, count)

    def _check_boneyard(self, seat: int | None, count: int) -> Judgement | None:
        """Why `count` tiles cannot be drawn from the boneyard as the game knows it."""
        g = self.game
        drawable = g.drawable()
        if drawable is not None and drawable < count:
            if drawable <= 0:
                return self.refuse(Reason.BONEYARD_EMPTY, seat=seat)
            detail = f"only {drawable} tile{'s' if drawable > 1 else ''} can be drawn"
            return self.refuse(Reason.NO_DRAWING, seat=seat, detail=detail)
        return None

    # --- who led, who went out ---------------------------------------------------------------

    def name_leader(self, seat: int) -> Judgement:
        """Who led, when the table could not know: earlier plays are attributed now."""
        g = self.game
        if not 0 <= seat < g.seats:
            return self.refuse(Reason.BAD_LEAD, seat=seat, detail=f"no seat {seat}")
        if g.phase is not _LEAD and g.phase is not _PLAY:
            return self.refuse(Reason.WRONG_PHASE, seat=seat, detail="no hand in play")
        start = g.hand_start
        assert start is not None
        if start.leader == seat:
            return Judgement(_OK)
        if start.leader is not None and g.hands is not None:
            return self.refuse(Reason.BAD_LEAD, seat=seat, detail="the deal decided the lead")
        g.hand_start = replace(start, leader=seat)
        t = g.record
        proven = dict(t.caught), t.wrong_lead
        self.match.counted = {}  # (the hand they counted is rebuilt)
        g.rebuild()
        return Judgement(
            _OK,
            (
                LeadEvent(g.hand_no, seat),
                *proven_by_rebuild(g.record, *proven),
                *self._ended_by_rebuild(),
            ),
        )

    def declare_out(self, seat: int) -> Judgement:
        """A seat says it went out (draw games, where the table cannot tell)."""
        g = self.game
        if g.phase is not _PLAY or not 0 <= seat < g.seats:
            return self.refuse(Reason.WRONG_PHASE, seat=seat, detail="no hand in play")
        refused = self.check_out(seat)
        if refused is not None:
            return refused
        return Judgement(_OK, tuple(g.end_play(HandResult.DOMINO, seat)))

    def check_out(self, seat: int) -> Judgement | None:
        """Why `seat` cannot have gone out (None: it can): it holds tiles by the deal, the
        draws told and its plays, or a partner who must go out too still holds some."""
        g = self.game
        if g.hands is not None:
            if g.hands[seat]:
                return self.refuse(Reason.EARLY_OUT, seat=seat)
        else:
            t = g.record
            left = g.tiles_left(seat)
            if (left is not None and left > 0) or (t.played and t.played[seat] < g.hand_size):
                return self.refuse(Reason.EARLY_OUT, seat=seat)
        if g.rules.both_partners_out and any(
            not g.is_out(s) for s in g.teams.side(seat) if s != seat
        ):
            return self.refuse(Reason.EARLY_OUT, seat=seat)
        return None

    def end_hand(self) -> Judgement:
        """The players agree the hand is blocked (the table cannot see the boneyard)."""
        g = self.game
        if g.phase is not _PLAY:
            return self.refuse(Reason.WRONG_PHASE, detail="no hand in play")
        return Judgement(_OK, tuple(g.end_play(HandResult.BLOCKED, None)))

    # --- taking back and correcting ------------------------------------------------------------

    def undo(self) -> Judgement:
        """Take back the last play or pass of this hand, and the draws told after it.

        A draw belongs to the turn it was made in: draws after the play (or pass) taken
        back answered a layout, or a turn, that is no longer there, so they go too (their
        tiles go back to the boneyard). Draws before it stay with the seats that drew
        them. With no play or pass to take back the undo is refused.
        """
        g = self.game
        journal = g.journal()
        index = next(
            (i for i in range(len(journal) - 1, -1, -1) if not isinstance(journal[i], DrawInput)),
            None,
        )
        if g.phase not in (_LEAD, _PLAY, _COUNTING) or index is None:
            return self.refuse(Reason.NOTHING_TO_UNDO)
        action = journal[index]
        assert isinstance(action, PlayInput | PassInput)
        draws = sum(d.tiles for d in journal[index + 1 :] if isinstance(d, DrawInput))
        before = self.match.points_made()
        self.match.counted = {}  # (the hand they counted goes back)
        g.rebuild(journal[:index])
        points = before - self.match.points_made()
        return Judgement(_OK, (UndoEvent(g.hand_no, action.ref, points, draws),))

    def correct(self, read: Tile, actual: Tile) -> Judgement:
        """A tile on the table was misread: it is really `actual`. Rebuilds the hand."""
        g = self.game
        if g.phase is not _LEAD and g.phase is not _PLAY:
            over = "the hand is over" if g.phase is not Phase.IDLE else "no hand in play"
            return self.refuse(Reason.WRONG_PHASE, read, detail=over)
        journal = g.journal()
        index = next(
            (i for i, a in enumerate(journal) if isinstance(a, PlayInput) and a.tile is read),
            None,
        )
        if index is None:
            return self.refuse(Reason.NOT_TOUCHING, read, detail=f"{read} is not in play")
        if actual not in g.set_tiles:
            return self.refuse(Reason.UNKNOWN_TILE, actual)
        old = journal[index]
        assert isinstance(old, PlayInput)
        saved = g.record
        proven = dict(saved.caught), saved.wrong_lead
        changed = list(journal)
        changed[index] = old._replace(tile=actual)
        try:
            g.rebuild(changed, check=self._check_again)
        except RejectedError as exc:
            g.rebuild(journal)
            assert g.layout.tiles() == saved.layout.tiles()
            return exc.judgement
        self.match.counted = {}  # (the hand they counted changed)
        return Judgement(_OK, (*proven_by_rebuild(g.record, *proven), *self._ended_by_rebuild()))

    def _check_again(self, action: PlayInput) -> None:
        """A play of a journal replayed strictly, judged again: `RejectedError` if refused."""
        g = self.game
        refused = self._check_place(action.tile, action.where, action.coords)
        if refused is None and action.tile in g.layout.tiles():
            refused = self.refuse(Reason.DUPLICATE_TILE, action.tile)
        if refused is not None:  # (a refused Judgement is falsy: no `or` here)
            raise RejectedError(refused)

    def _ended_by_rebuild(self) -> list[Event]:
        """A rebuilt hand whose points now reach an at-once target ends the game: say so.

        (The rebuild keeps no events, so naming a leader late or correcting a tile that
        credits the winning points would otherwise end the game in silence.)
        """
        g = self.game
        return self.match.game_over() if g.phase is Phase.OVER else []

    # --- between hands -------------------------------------------------------------------------

    def next_hand(self) -> Judgement:
        g = self.game
        if g.phase is not _HAND_OVER:
            return self.refuse(Reason.WRONG_PHASE, detail="the hand is not over")
        return _new(Judgement, (_OK, tuple(self.match.begin_hand())))  # (no Python __new__)

    def redeal(self) -> Judgement:
        """Abandon the hand unscored and deal it again (same number, same leader rule)."""
        g = self.game
        if g.phase not in (_LEAD, _PLAY, _COUNTING):
            return self.refuse(Reason.WRONG_PHASE, detail="no hand in play")
        start = g.hand_start
        assert start is not None
        g.seat_scores, g.team_scores = list(start.seat_scores), list(start.team_scores)
        # The abandoned hand's event (spec/mqtt.md: `result` `redealt`): its points taken
        # back, so that whoever follows the events keeps the scores the table keeps.
        abandoned = HandEvent(
            start.number,
            HandResult.REDEALT,
            None,
            None,
            0,
            (),
            g.scores(),
            tuple(g.team_scores),
        )
        g.hand_no -= 1
        return Judgement(_OK, (abandoned, *self.match.begin_hand(redeal=True)))

    def call_time(self) -> Judgement:
        """The round's clock ran out: the hand in play is the last one.

        Scored, it ends the game (`Termination.TIME`), won by the seat or team ahead
        (nobody when the lead is shared), unless it reached the target first. Between two
        hands (`HAND_OVER`) the game ends at once.
        """
        g = self.game
        if g.phase is Phase.OVER:
            return self.refuse(Reason.WRONG_PHASE, detail="the game is over")
        self.match.last_hand = True
        if g.phase is _HAND_OVER:
            return Judgement(_OK, tuple(self.match.game_over(Termination.TIME)))
        return Judgement(_OK)

    # --- refusing ------------------------------------------------------------------------------

    def refuse(
        self,
        reason: Reason,
        tile: Tile | None = None,
        *,
        seat: int | None = None,
        pip: int | tuple[int, ...] | None = None,
        detail: str | None = None,
        at: Coords | None = None,
    ) -> Judgement:
        """An input refused for `reason`: its alert, in the table's language."""
        g = self.game
        who = seat if seat is not None else g.turn
        text = message(
            reason,
            g.language,
            tile=tile,
            pip=pip,
            detail=detail,
            seat=g.names[who] if who is not None and 0 <= who < g.seats else None,
            turn=g.names[g.turn] if g.turn is not None else None,
        )
        tile_text = str(tile) if tile is not None else None
        return Judgement(reason, (AlertEvent(reason, text, who, tile_text, at),))
