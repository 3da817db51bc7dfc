"""The hand in play: its layout, hands, boneyard and turn, and the scores made in it.

`HandState` is the class a `Game` is built on (as python-chess's `Board` is on its
`BaseBoard`): it keeps the hand and changes it as it is told, trusting what it is told.
Judging what players and the table say is the referee's (`engine.referee`), dealing,
choosing the leader and scoring finished hands the match's (`engine.match`): parts the
game holds. The hand calls the match through two hooks the game answers,
`score_hand` and `game_over`.

`lay` is the one rule for laying a tile, in both modes: the referee's judged `play` and
the trusted `push` of simulation both come here. Passes and draws have theirs
(`apply`). What a hand has been told is its journal (`engine.record`).

Made when first read, so that a hand played in one go (`engine.playout`) or dealt and
never looked at costs nothing for them: the turn record with its `Layout` (`record`),
the journal, and each hand as bits (`Tile.bit`) for `legal_moves`. `snapshot` and
`restore` save and put back the whole hand in play (`HandSnapshot`); a play-out takes
the hand through them and gives it back with its inputs to be written when read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from itertools import repeat
from operator import attrgetter, is_, itemgetter
from typing import Any, NamedTuple

from engine.events import (
    Coords,
    DrawEvent,
    Event,
    HandResult,
    PassEvent,
    PlayEvent,
    Termination,
)
from engine.layout import JoinProblem, Layout, OpenEnd
from engine.proofs import knocks_disproved, lead_disproved
from engine.record import (
    DRAW_ONE,
    DrawInput,
    HandInput,
    HandStart,
    Journal,
    PassInput,
    PlayInput,
    RecordMaker,
    TurnRecord,
    settled,
)
from engine.rules import Boneyard, PlayScoring, Rules, TargetCheck
from engine.scoring import Teams, play_points
from engine.tiles import PIP_BITS, TILE_OF_BIT, DominoSet, Tile, bits_of


class Mode(Enum):
    TABLE = "table"
    FULL = "full"


class Phase(Enum):
    IDLE = "idle"
    LEAD = "lead"
    PLAY = "play"
    COUNTING = "counting"
    HAND_OVER = "hand_over"
    OVER = "over"


class Move(NamedTuple):
    """A legal play in full information: `tile` at `end` (None: the lead)."""

    tile: Tile
    end: OpenEnd | None


# tuple.__new__ builds a named tuple in C, skipping its Python-level __new__ (hot path).
_new = tuple.__new__

# Module-level names for the enum members the hot path tests (a global load, not an
# attribute lookup on the enum class).
_LEAD, _PLAY, _COUNTING = Phase.LEAD, Phase.PLAY, Phase.COUNTING
_DOMINO, _BLOCKED = HandResult.DOMINO, HandResult.BLOCKED
_STITCHED = ("stitched_up",)
_PIPS = attrgetter("pips")  # a tile's pips, in C
_END_PIP = itemgetter(2)  # an OpenEnd's pip, in C
_POINTS_TABLE = 256  # play points are looked up for ends totals below this
_POINTS_TABLES: dict[PlayScoring, list[int]] = {}


def _points_table(scoring: PlayScoring) -> list[int]:
    """play_points(scoring, n) for n below _POINTS_TABLE, made once per process."""
    table = _POINTS_TABLES.get(scoring)
    if table is None:
        table = _POINTS_TABLES[scoring] = [play_points(scoring, n) for n in range(_POINTS_TABLE)]
    return table


@dataclass(slots=True)
class HandSnapshot:
    """The whole hand in play, as `HandState.snapshot` saved it and `restore` puts it
    back. `record` None: not made yet (a fresh hand's, or `pending`'s to make)."""

    hand_no: int
    phase: Phase
    turn: int | None
    leader: int | None
    result: HandResult | None
    out_seat: int | None
    hands: list[list[Tile]] | None
    boneyard: list[Tile] | None
    boneyard_count: int | None
    seat_scores: list[int]
    team_scores: list[int]
    refs: int
    hand_start: HandStart | None
    record: TurnRecord | None
    journal: Journal
    pending: RecordMaker | None = None
    match: object | None = None  # what the match keeps (`engine.match.MatchState`)


@dataclass(frozen=True, slots=True)
class Setup:
    """What a game is played with, as `engine.game.Game` checked it: the rules, the
    seats with their names and teams, the mode, the target and the table's language."""

    rules: Rules
    seats: int
    mode: Mode
    names: list[str]
    teams: Teams
    target: int | None
    language: str


class HandState:
    """The hand in play (see the module doc). A `Game` is one; read it through `Game`."""

    def __init__(self, setup: Setup) -> None:
        self.rules = rules = setup.rules
        self.seats = seats = setup.seats
        self.mode = setup.mode
        self.names = setup.names
        self.teams = teams = setup.teams
        self.target = setup.target
        self.language = setup.language
        self.set: DominoSet = rules.domino_set(seats)
        self.hand_size = rules.hand_size(seats)
        self._plan(rules, seats)
        self.seat_scores = [0] * seats
        self.team_scores = [0] * len(teams.groups)
        self.phase = Phase.IDLE
        self.hand_no = 0
        self.hand_start: HandStart | None = None  # how the hand in play began
        self.refs = 0  # the number of the last play or pass (undo names them)
        self.hands: list[list[Tile]] | None = None
        self.boneyard: list[Tile] | None = None
        self.boneyard_count: int | None = None
        self.turn: int | None = None
        self.leader: int | None = None
        self.out_seat: int | None = None
        self.result: HandResult | None = None
        # Made when first read (see the module doc): None until then.
        self._record: TurnRecord | None = None
        self._journal: Journal = []
        self._held: list[int] | None = None
        self._pending: RecordMaker | None = None  # makes `_record` and `_journal`

    def _plan(self, rules: Rules, seats: int) -> None:
        """What the hot path reads on every play, pass or draw, worked out once (the
        rules are immutable)."""
        self.set_tiles = frozenset(self.set.tiles())
        self._team_of = self.teams.of
        self._at_once = rules.target_check is TargetCheck.AT_ONCE and self.target is not None
        self._announce_stitched = rules.announce_stitched
        self._draws = rules.draws
        self._both_out = rules.both_partners_out
        self._next_seat = [(s + 1) % seats for s in range(seats)]
        self._play_points = _points_table(rules.play_scoring)
        self._knock_check = not rules.draws
        self._draw_one = rules.boneyard is Boneyard.DRAW_ONE
        self._boneyard_keep = rules.boneyard_keep
        self._exact_target = rules.exact_target

    # --- made when first read -----------------------------------------------------------

    @property
    def record(self) -> TurnRecord:
        """The turn record of the hand in play (made now if it was not yet)."""
        t = self._record
        return t if t is not None else self._made_record()

    def _made_record(self) -> TurnRecord:
        pending = self._pending
        if pending is None:
            t = self._record = self._fresh_record()
        else:
            self._pending = None
            t, self._journal = pending.make(self._fresh_record)
            self._record = t
        return t

    def _fresh_record(self) -> TurnRecord:
        """The turn record of a hand no input has reached yet."""
        seats = self.seats
        return TurnRecord(Layout(self.rules), played=[0] * seats, drawn=[0] * seats)

    def _made_held(self) -> list[int]:
        held = self._held = [bits_of(h) for h in self.hands] if self.hands is not None else []
        return held

    def held_bits(self) -> list[int]:
        """Full information: each hand as bits (`Tile.bit`), kept for `legal_moves`."""
        held = self._held
        return held if held is not None else self._made_held()

    def journal(self) -> list[HandInput]:
        """The inputs this hand has taken, in order: the game's own list."""
        if self._record is None:
            self._made_record()  # (a play-out's journal is made with its record)
        return settled(self._journal)

    def settle(self) -> None:
        """Make now what is left to be made when read."""
        self.journal()
        self.held_bits()

    def __getstate__(self) -> dict[str, Any]:
        """`copy`, `deepcopy` and `pickle` see the game with everything made: a copy of
        the parts left to be made would share them with the game."""
        self.settle()
        return self.__dict__

    # --- reading ------------------------------------------------------------------------

    @property
    def layout(self) -> Layout:
        return self.record.layout

    def score(self, seat: int) -> int:
        """The seat's score: its team's in partnership games."""
        team = self.teams.of[seat]
        return self.seat_scores[seat] if team is None else self.team_scores[team]

    def scores(self) -> tuple[int, ...]:
        # Teams place every seat (`Game` checks), or there are none: either way in C.
        if self.teams.groups:
            return tuple(map(self.team_scores.__getitem__, self._team_of))  # type: ignore[arg-type]
        return tuple(self.seat_scores)

    def ends_total(self) -> int:
        return self.record.layout.ends_total()

    def tiles_left(self, seat: int) -> int | None:
        if self.hands is not None:
            return len(self.hands[seat])
        if self._draws and not self._draw_one:
            return None  # draws are not told in draw-until-playable games
        t = self.record
        return self.hand_size + t.drawn[seat] - t.played[seat] if t.played else self.hand_size

    def seat_of_play(self, index: int) -> int | None:
        return self.record.layout.nodes[index].seat

    def hand_inputs(self) -> tuple[HandInput, ...]:
        """The plays, passes and draws accepted this hand, in order (its journal)."""
        return tuple(self.journal())

    def legal_moves(self, seat: int | None = None) -> list[Move]:  # noqa: PLR0912 (hot path)
        """Full information: the plays the seat (default: the turn seat) may make now."""
        turn = self.turn
        hands = self.hands
        if turn is None or hands is None or (seat is not None and seat != turn):
            return []
        phase = self.phase
        if phase is not _PLAY and phase is not _LEAD:
            return []
        t = self._record
        layout = (t if t is not None else self._made_record()).layout
        if not layout.nodes:
            return self._lead_moves(hands[turn])
        # The moves come in the order they always have (the same seed plays the same
        # game): a plain line end by end, otherwise tile by tile, each in hand order.
        # The hand is also kept as bits, so the tiles that fit are one `&` away: no fit
        # and a single fit (the common cases) need no walk through the hand. The layout
        # keeps its ends less mirror images (a double's two sides are one place to play).
        held_bits = self._held
        held = (held_bits if held_bits is not None else self._made_held())[turn]
        offers = layout.offers
        if len(offers) == 2:
            first, second = offers
            if first[1] < 2 and second[1] < 2:  # a plain line: two ends, no mirrors
                moves = []
                a = held & PIP_BITS[first[2]]
                if a:
                    if a & (a - 1):  # two tiles or more: in hand order
                        moves = [_new(Move, (t, first)) for t in hands[turn] if t.bit & a]
                    else:
                        moves = [_new(Move, (TILE_OF_BIT[a], first))]
                b = held & PIP_BITS[second[2]]
                if b:
                    if b & (b - 1):
                        moves += [_new(Move, (t, second)) for t in hands[turn] if t.bit & b]
                    else:
                        moves.append(_new(Move, (TILE_OF_BIT[b], second)))
                return moves
        fits = 0
        for end in offers:
            fits |= PIP_BITS[end[2]]
        fits &= held
        moves = []
        if fits:
            tiles = hands[turn] if fits & (fits - 1) else (TILE_OF_BIT[fits],)
            for tile in tiles:
                if tile.bit & fits:
                    tmask = tile.mask
                    for end in offers:
                        if tmask >> end[2] & 1:
                            moves.append(_new(Move, (tile, end)))
        return moves

    def _lead_moves(self, hand: list[Tile]) -> list[Move]:
        start = self.hand_start
        assert start is not None
        if start.forced_lead is not None:
            return [Move(start.forced_lead, None)]
        return [_new(Move, (t, None)) for t in hand]

    def can_draw(self, seat: int | None = None) -> bool:
        """Full information: whether the seat may (and, unable to play, must) draw now."""
        if not self.may_draw():
            return False
        return self.rules.draw_while_playable or not self.legal_moves(seat)

    def may_draw(self) -> bool:
        """Full information: `can_draw()` for a turn seat known to have no legal move."""
        boneyard = self.boneyard
        if boneyard is None or self.phase is not _PLAY or not self._draws:
            return False
        if len(boneyard) <= self._boneyard_keep:
            return False
        return not (self._draw_one and self.record.drew_this_turn)

    def drawable(self) -> int | None:
        """How many tiles may still be drawn this hand (None: the boneyard is not known)."""
        if self.boneyard is not None:
            return len(self.boneyard) - self._boneyard_keep
        if self.boneyard_count is None:
            return None
        return self.boneyard_count - self._boneyard_keep

    def is_out(self, seat: int) -> bool:
        """Whether the seat holds no tile (as far as the table knows)."""
        if self.hands is not None:
            return not self.hands[seat]
        return self.tiles_left(seat) == 0

    def active_seats(self) -> int:
        """The seats still playing (partners who went out do not, in both-out games)."""
        if not self._both_out:
            return self.seats
        return self.seats - sum(1 for s in range(self.seats) if self.is_out(s))

    def boneyard_known_empty(self) -> bool:
        if not self._draw_one:
            return True  # block: passes end it; draw-until-playable: a pass means empty
        drawable = self.drawable()
        return drawable is not None and drawable <= 0

    # --- trusted inputs (full information) -------------------------------------------------

    def push(self, move: Move) -> list[Event]:
        """Full information: make a move from `legal_moves()`, trusted (not judged again).

        The fast path for simulation; anything else goes through `play`, which judges.
        """
        tile, end = move
        self.refs = ref = self.refs + 1
        events = self.lay(tile, end, None, ref)
        # A plain tuple, made a PlayInput when the journal is read (`record.settled`).
        self._journal.append((tile, end, None, ref))
        return events

    def push_pass(self) -> list[Event]:
        """Full information: the turn seat passes, trusted (it has no move and cannot draw)."""
        self.refs = ref = self.refs + 1
        action = _new(PassInput, (ref,))
        events = self._apply_pass(action)
        self._journal.append(action)
        return events

    def push_draw(self) -> list[Event]:
        """Full information: the turn seat draws one tile, trusted (it has no move and
        `can_draw()`)."""
        events = self._apply_draw(DRAW_ONE)
        self._journal.append(DRAW_ONE)
        return events

    def take(self, action: HandInput) -> list[Event]:
        """An input judged acceptable: applied and journaled; its events."""
        events = self.apply(action)
        self._journal.append(action)
        return events

    # --- applying -------------------------------------------------------------------------

    def apply(self, action: HandInput) -> list[Event]:
        """Apply one input of the journal (a play's end is found again from its `where`)."""
        if isinstance(action, PlayInput):
            layout = self.record.layout
            end = layout.find_end(action.tile, action.where) if layout.nodes else None
            assert not isinstance(end, JoinProblem), f"{action} was judged to fit"
            return self.lay(action.tile, end, action.coords, action.ref)
        if isinstance(action, PassInput):
            return self._apply_pass(action)
        return self._apply_draw(action)

    def lay(  # noqa: PLR0912 (the hot path, one call a play)
        self, tile: Tile, end: OpenEnd | None, coords: Coords | None, ref: int
    ) -> list[Event]:
        """The one rule for laying a tile: `tile` laid by the turn seat at `end` (None:
        the lead), numbered `ref`. The turn record and the seat's hand, the points the
        play scores, what it proves in table mode (`engine.proofs`), and what comes next:
        the game over at an at-once target, the hand over when the seat went out, else
        the next seat's turn. Trusted: the play was judged, or came from `legal_moves`."""
        t = self._record
        if t is None:
            t = self._made_record()
        seat = self.turn
        layout = t.layout
        layout.place(tile, end, seat, coords)
        t.passes_in_row = t.drew_this_turn = 0
        total = layout.total
        points = (  # always 0 in games that do not score in play
            self._play_points[total]
            if total < _POINTS_TABLE
            else play_points(self.rules.play_scoring, total)
        )
        score = 0
        out = False
        hands = self.hands
        if seat is not None:
            t.played[seat] += 1
            if hands is not None:
                held = self._held  # (None: made from the hands when first read)
                if held is not None:
                    held[seat] ^= tile.bit
                hand = hands[seat]
                # By identity, in C: list.remove would call Tile's Python-level
                # comparison (it defines __lt__) on every tile before this one.
                del hand[list(map(is_, hand, repeat(tile))).index(True)]
                out = not hand
            else:
                out = self.tiles_left(seat) == 0
            if points:
                points = self.credit(seat, points)
            team = self._team_of[seat]
            score = self.seat_scores[seat] if team is None else self.team_scores[team]
        announce = _STITCHED if self._announce_stitched and layout.stitched() else ()
        events: list[Event] = [
            _new(
                PlayEvent,
                (self.hand_no, seat, tile.text, points, total, score, announce, coords, ref),
            )
        ]
        if hands is None and seat is not None:  # table mode: what the play proves
            if t.knocks:
                events.extend(knocks_disproved(self, t, seat))
            if t.wrong_lead is None and len(layout.nodes) > 1:
                events.extend(lead_disproved(self, t, seat, tile))
        self.phase = _PLAY
        if points and self._at_once and self.target_reached_at_once():
            events.extend(self.game_over())
        elif out:
            events.extend(self.end_play(_DOMINO, seat))
        elif seat is not None:
            if self._both_out:
                self.turn = seat
                self.advance()
            else:
                self.turn = self._next_seat[seat]
        return events

    def _apply_pass(self, action: PassInput) -> list[Event]:
        t = self._record
        if t is None:
            t = self._made_record()
        seat = self.turn
        t.passes_in_row += 1
        t.drew_this_turn = 0
        if seat is not None:
            table = self.hands is None  # (the renege check at the count: table mode)
            if table or self._knock_check:
                t.knocks.append((seat, frozenset(map(_END_PIP, t.layout.ends))))
                if table:
                    t.knock_drawn.append(t.drawn[seat])
                    t.knock_plays.append(len(t.layout.nodes))
        left = self.boneyard_count  # (table mode; None in full information)
        if left is not None and left > self._boneyard_keep and self._draws and not self._draw_one:
            self.boneyard_count = self._boneyard_keep  # draw until playable: a pass empties it
        events: list[Event] = [_new(PassEvent, (self.hand_no, seat, action.ref))]
        active = self.active_seats() if self._both_out else self.seats
        if t.passes_in_row >= active and self.boneyard_known_empty():
            events.extend(self.end_play(_BLOCKED, None))
            return events
        self.advance()
        return events

    def _apply_draw(self, action: DrawInput) -> list[Event]:
        t = self._record
        if t is None:
            t = self._made_record()
        count = action.tiles
        seat = action.seat
        if seat is None:
            seat = self.turn
            t.drew_this_turn += count  # (a draw before the lead is no turn's)
        hands, boneyard = self.hands, self.boneyard
        if hands is not None and boneyard is not None and seat is not None:
            hand = hands[seat]
            held = self._held
            for _ in range(count):
                tile = boneyard.pop()
                hand.append(tile)
                if held is not None:
                    held[seat] |= tile.bit
        if self.boneyard_count is not None:
            self.boneyard_count -= count
        if seat is None:
            return []
        t.drawn[seat] += count
        return [_new(DrawEvent, (self.hand_no, seat, count))]

    def credit(self, seat: int, points: int) -> int:
        """Credit `points` to the seat (its team in partnership games); the points
        credited (none when an exact target would be overshot)."""
        team = self._team_of[seat]
        if self._exact_target and self.target is not None:
            current = self.seat_scores[seat] if team is None else self.team_scores[team]
            if current + points > self.target:
                return 0  # overshoot disregarded
        if team is None:
            self.seat_scores[seat] += points
        else:
            self.team_scores[team] += points
        return points

    def target_reached_at_once(self) -> bool:
        """Whether a score has reached the target, in games won the moment it is."""
        if not self._at_once:
            return False
        # Every competitor's score is its team's or, without partnerships, its seat's.
        scores = self.team_scores if self.teams.groups else self.seat_scores
        return max(scores) >= self.target  # type: ignore[operator]  # (`_at_once`: a target)

    def advance(self) -> None:
        """The turn passes to the next seat still playing."""
        seat = self.turn
        if seat is None:
            return
        seat = self._next_seat[seat]
        if self._both_out:
            for _ in range(self.seats):
                if not self.is_out(seat):
                    break
                seat = (seat + 1) % self.seats
        self.turn = seat

    def end_play(self, result: HandResult, out_seat: int | None) -> list[Event]:
        """Play is over (`out_seat` went out, or blocked): the hand goes to counting, and
        in full information, where the hands are known, it is scored at once."""
        if result is _DOMINO and self._both_out and out_seat is not None:
            side = self.teams.side(out_seat)
            if not all(self.is_out(s) for s in side if s != out_seat):
                self.advance()
                return []
        self.result = result
        self.out_seat = out_seat
        self.turn = None
        self.phase = _COUNTING
        if self.hands is None:
            return []
        return self.score_hand([sum(map(_PIPS, h)) for h in self.hands])

    def score_hand(self, pips: list[int]) -> list[Event]:
        """The hook for the hand's end: scored with each seat's `pips` (the match's)."""
        raise NotImplementedError

    def game_over(self, termination: Termination | None = None) -> list[Event]:
        """The hook for the game's end (the match's)."""
        raise NotImplementedError

    def rebuild(
        self,
        journal: list[HandInput] | None = None,
        check: Callable[[PlayInput], Any] | None = None,
    ) -> None:
        """Replay the hand's journal (or `journal`, which becomes it) from how the hand
        began, no events kept; `check` judges each play first and raises to stop."""
        start = self.hand_start
        assert start is not None
        inputs = self.journal() if journal is None else journal
        self.seat_scores, self.team_scores = list(start.seat_scores), list(start.team_scores)
        self.hands = list(map(list, start.hands)) if start.hands is not None else None
        self._held = None
        self.boneyard = list(start.boneyard) if start.boneyard is not None else None
        self.boneyard_count = start.boneyard_count
        self.leader = self.turn = start.leader
        self.phase = _LEAD
        self.result = self.out_seat = None
        self._record = self._fresh_record()
        self._journal = [*inputs]
        for action in inputs:
            if check is not None and isinstance(action, PlayInput):
                check(action)
            self.apply(action)

    def begin(
        self, start: HandStart, hands: list[list[Tile]] | None, boneyard: list[Tile] | None
    ) -> None:
        """A new hand, as `start` says, dealt `hands` and `boneyard` (the game's own
        lists: `start` keeps copies): nothing taken yet, the turn record made when read."""
        self.hand_start = start
        self.hand_no = start.number
        self.hands = hands
        self.boneyard = boneyard
        self.boneyard_count = start.boneyard_count
        self.seat_scores, self.team_scores = list(start.seat_scores), list(start.team_scores)
        self.leader = self.turn = start.leader
        self.phase = _LEAD
        self.result = self.out_seat = None
        self._record = self._held = self._pending = None
        self._journal = []

    # --- snapshot and restore ---------------------------------------------------------------

    def snapshot(self, *, copy: bool = True) -> HandSnapshot:
        """The whole hand in play: `restore` puts it back however the hand went on.

        `copy` False: the hand's own lists and turn record rather than copies, for a
        caller that plays the hand on them and gives it back with `restore` before
        anything else reads the game (a play-out, `engine.playout`)."""
        if self._pending is not None:
            self._made_record()  # (a maker makes its inputs once: not shared with a copy)
        t, journal = self._record, self._journal
        hands, boneyard = self.hands, self.boneyard
        seat_scores, team_scores = self.seat_scores, self.team_scores
        if copy:
            t = t.copy() if t is not None else None
            journal = list(journal)
            hands = list(map(list, hands)) if hands is not None else None
            boneyard = list(boneyard) if boneyard is not None else None
            seat_scores, team_scores = list(seat_scores), list(team_scores)
        return HandSnapshot(
            self.hand_no,
            self.phase,
            self.turn,
            self.leader,
            self.result,
            self.out_seat,
            hands,
            boneyard,
            self.boneyard_count,
            seat_scores,
            team_scores,
            self.refs,
            self.hand_start,
            t,
            journal,
        )

    def restore(self, snapshot: HandSnapshot) -> None:
        """Put back the hand `snapshot` holds. The game plays on the snapshot's lists from
        here: restore a snapshot once, or take another."""
        s = snapshot
        self.hand_no, self.phase, self.turn, self.leader = s.hand_no, s.phase, s.turn, s.leader
        self.result, self.out_seat = s.result, s.out_seat
        self.hands, self.boneyard, self.boneyard_count = s.hands, s.boneyard, s.boneyard_count
        self.seat_scores, self.team_scores = s.seat_scores, s.team_scores
        self.refs, self.hand_start = s.refs, s.hand_start
        self._record, self._journal, self._pending = s.record, s.journal, s.pending
        self._held = None

    @property
    def pending(self) -> bool:
        """Whether the turn record is still to be made when read: a fresh hand's, or a
        play-out's with its journal (`engine.playout`)."""
        return self._record is None
