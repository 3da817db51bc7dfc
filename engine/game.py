"""A game (a match to the target) as a state machine, in two modes.

*Table mode* serves the real table (shared/TABLE.md): hands are hidden; the game is
told each play and pass as it happens, knows only the layout, judges what it can, and
scores a hand from the pip counts given at its end. Who led may not be known when the
lead lands: plays are then recorded without a seat and attributed when the leader is
named.

*Full information* (simulation, tests, the demo): the game deals from a seeded shuffle,
knows every hand and the boneyard, and judges everything.

A hand is a pure function of how it began and the inputs taken since (its journal), so
naming the leader late, taking back a play or correcting a misread tile rebuild the
hand from its journal. Every input returns a `Judgement`; a refused input changes
nothing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import partial
from itertools import repeat, starmap
from operator import attrgetter, is_, itemgetter
from typing import Any, NamedTuple, Protocol, SupportsIndex

from engine.events import (
    AlertEvent,
    Coords,
    DrawEvent,
    Event,
    GameEvent,
    HandEvent,
    HandResult,
    Judgement,
    LeadEvent,
    PassEvent,
    PlayEvent,
    Reason,
    Termination,
    UndoEvent,
)
from engine.layout import EdgeKind, JoinProblem, Layout, OpenEnd
from engine.messages import Case, message
from engine.rules import (
    Boneyard,
    FirstLeader,
    LeadRule,
    NextLeader,
    NoDouble,
    PlayScoring,
    Rules,
    RulesError,
    TargetCheck,
    Ties,
)
from engine.scoring import HandOutcome, Teams, hand_outcome, play_points
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


@dataclass(frozen=True, slots=True)
class Target:
    """Where a tile joins, as a player says it: the tile `to`, optionally which number
    (`pip`) and, on a spinner, `side` or `arm`."""

    to: Tile
    pip: int | None = None
    kind: EdgeKind | None = None


Where = OpenEnd | Target | None


class Move(NamedTuple):
    """A legal play in full information: `tile` at `end` (None: the lead)."""

    tile: Tile
    end: OpenEnd | None


# tuple.__new__ builds a named tuple in C, skipping its Python-level __new__ (hot path).
_new_move = tuple.__new__

# Module-level names for the enum members the hot path tests (a global load, not an
# attribute lookup on the enum class).
_LEAD, _PLAY, _COUNTING, _HAND_OVER = Phase.LEAD, Phase.PLAY, Phase.COUNTING, Phase.HAND_OVER
_DOMINO, _BLOCKED = HandResult.DOMINO, HandResult.BLOCKED
_OK = Reason.OK
_LIGHTEST_TILE = Ties.LIGHTEST_TILE
_ANY_LEAD, _SET_DOUBLE = LeadRule.ANY, LeadRule.SET_DOUBLE  # (asked every deal)
_FULL = Mode.FULL
_STITCHED = ("stitched_up",)
_PIPS = attrgetter("pips")  # a tile's pips, in C
_END_PIP = itemgetter(2)  # an OpenEnd's pip, in C
_POINTS_TABLE = 256  # play points are looked up for ends totals below this
_PLAY_ON = "play on, or say who went out or that the hand is blocked"


# --- the journal of a hand ------------------------------------------------------------


class PlayInput(NamedTuple):
    """A play accepted this hand (the hand's journal; `where` as it was given)."""

    tile: Tile
    where: Where
    coords: Coords | None
    ref: int


class PassInput(NamedTuple):
    ref: int


class DrawInput(NamedTuple):
    tiles: int


HandInput = PlayInput | PassInput | DrawInput
# The journal as kept: `push` journals plays as plain tuples (see `_settle_journal`).
Journal = list[HandInput | tuple[Tile, OpenEnd | None, None, int]]
_DRAW_ONE = DrawInput(1)


@dataclass(slots=True)
class _HandStart:
    """How a hand began: enough to rebuild it from its journal."""

    number: int
    leader: int | None
    forced_lead: Tile | None
    lead_must_be_double: bool
    hands: list[list[Tile]] | None
    boneyard: list[Tile] | None
    boneyard_count: int | None
    seat_scores: list[int]
    team_scores: list[int]


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One finished hand, for the scoresheet."""

    hand: int
    result: HandResult
    winner: int | None
    team: int | None
    points: int
    pips: tuple[int | None, ...]
    scores: tuple[int, ...]


# A hand record is made once a hand: `HandRecord(...)` (a frozen dataclass's __init__, one
# object.__setattr__ per field) costs several times as much as writing its slots through
# their descriptors, which `_hand_record` does (frozen applies to __setattr__ only).
_RECORD_SLOTS = tuple(
    HandRecord.__dict__[name].__set__
    for name in ("hand", "result", "winner", "team", "points", "pips", "scores")
)
_new_object = object.__new__


def _hand_record(
    hand: int,
    result: HandResult,
    winner: int | None,
    team: int | None,
    points: int,
    pips: tuple[int | None, ...],
    scores: tuple[int, ...],
) -> HandRecord:
    """`HandRecord(hand, result, winner, team, points, pips, scores)`, cheaper."""
    record: HandRecord = _new_object(HandRecord)
    set_hand, set_result, set_winner, set_team, set_points, set_pips, set_scores = _RECORD_SLOTS
    set_hand(record, hand)
    set_result(record, result)
    set_winner(record, winner)
    set_team(record, team)
    set_points(record, points)
    set_pips(record, pips)
    set_scores(record, scores)
    return record


@dataclass(slots=True)
class _Turn:
    """What happened in the current hand so far (rebuilt from the journal)."""

    layout: Layout
    seats_of_plays: list[int | None] = field(default_factory=list)
    coords: list[Coords | None] = field(default_factory=list)
    played: list[int] = field(default_factory=list)
    drawn: list[int] = field(default_factory=list)
    passes_in_row: int = 0
    drew_this_turn: int = 0
    # Each knock: the seat and the numbers open when it knocked (every knock in table
    # mode; in full information those of block games). Table mode only: with each knock,
    # the tiles its seat had drawn by then (`knock_drawn`) and the tiles on the layout
    # (`knock_plays`); `caught`, each knock a later play has proven false, with its alert.
    knocks: list[tuple[int, frozenset[int]]] = field(default_factory=list)
    knock_drawn: list[int] = field(default_factory=list)
    knock_plays: list[int] = field(default_factory=list)
    caught: dict[int, AlertEvent] = field(default_factory=dict)
    # Table mode: the alert of a lead a later play proved wrong (`Game._lead_disproved`).
    wrong_lead: AlertEvent | None = None


class _Pending(Protocol):
    """Inputs taken but not yet written into the turn record and journal (a play-out's,
    `engine.playout`): `settle` writes them and gives the game its `_turn` and
    `_journal` back."""

    def settle(self, game: Game) -> None: ...


_POINTS_TABLES: dict[PlayScoring, list[int]] = {}


def _points_table(scoring: PlayScoring) -> list[int]:
    """play_points(scoring, n) for n below _POINTS_TABLE, made once per process."""
    table = _POINTS_TABLES.get(scoring)
    if table is None:
        table = _POINTS_TABLES[scoring] = [play_points(scoring, n) for n in range(_POINTS_TABLE)]
    return table


class Game:
    """One game to the target. See the module doc for the two modes."""

    def __init__(
        self,
        rules: Rules,
        seats: int,
        *,
        mode: Mode = Mode.TABLE,
        names: Sequence[str] | None = None,
        teams: Sequence[Sequence[int]] | None = None,
        target: int | None = None,
        seed: int | None = None,
        language: str = "en",
    ) -> None:
        rules.check_players(seats)
        self.rules = rules
        self.seats = seats
        self.mode = mode
        self.language = language
        self.names = list(names) if names else [f"Player {i + 1}" for i in range(seats)]
        if len(self.names) != seats:
            raise RulesError(f"{len(self.names)} names for {seats} seats")
        groups = rules.teams_for(seats) if teams is None else tuple(tuple(t) for t in teams)
        _check_teams(groups, seats)
        self.teams = Teams(seats, groups)
        self._team_of = self.teams.of
        self.target = target if target is not None else rules.win_target
        self._at_once = rules.target_check is TargetCheck.AT_ONCE and self.target is not None
        self._scores_in_play = rules.play_scoring is not PlayScoring.NONE
        self._announce_stitched = rules.announce_stitched
        self.set: DominoSet = rules.domino_set(seats)
        self._set_list = self.set.tiles()
        self._set_tiles = frozenset(self._set_list)
        self.hand_size = rules.hand_size(seats)
        self._plan(rules, seats)
        self.rng = random.Random(seed)
        self.seat_scores = [0] * seats
        self.team_scores = [0] * len(self.teams.groups)
        self.phase = Phase.IDLE
        self.hand_no = 0
        self.history: list[HandRecord] = []
        self.winner: int | None = None
        self.winning_team: int | None = None
        self.termination: Termination | None = None
        self.last_hand = False  # the clock ran out: the hand in play ends the game
        self._start: _HandStart | None = None
        self._journal: Journal = []
        self._refs = 0
        self._pending: _Pending | None = None
        self._turn = _Turn(Layout(rules))
        self.hands: list[list[Tile]] | None = None
        self._held: list[int] = []  # full information: each hand as bits (`Tile.bit`)
        self.boneyard: list[Tile] | None = None
        self.boneyard_count: int | None = None
        self.turn: int | None = None
        self.leader: int | None = None
        self.out_seat: int | None = None
        self.result: HandResult | None = None
        self.counts: list[int | None] = [None] * seats
        self.last_winner: int | None = None

    def _plan(self, rules: Rules, seats: int) -> None:
        """What the hot path reads on every play, pass or deal, worked out once (the
        rules are immutable)."""
        self._draws = rules.draws
        self._both_out = rules.both_partners_out
        self._next_seat = [(s + 1) % seats for s in range(seats)]
        self._play_points = _points_table(rules.play_scoring)
        self._knock_check = not rules.draws
        self._draw_one = rules.boneyard is Boneyard.DRAW_ONE
        self._boneyard_keep = rules.boneyard_keep
        self._exact_target = rules.exact_target
        self._rotate = rules.next_leader is NextLeader.ROTATE
        self._winner_leads = rules.next_leader is NextLeader.WINNER
        self._checks_at_once = rules.target_check is TargetCheck.AT_ONCE
        self._no_args = [()] * len(self._set_list)  # (the deal's random keys: one call each)
        n = self.hand_size
        self._hand_slices = [slice(i * n, (i + 1) * n) for i in range(seats)]
        self._dealt = n * seats
        self._slice_hands = itemgetter(*self._hand_slices)  # every hand's slice, in C

    def _settle(self) -> None:
        """Make what a play-out (`engine.playout`) or a fresh deal left to be made when
        read: the turn record and journal, the hands' bits (see `_Lazy`)."""
        if self.__class__ is _Lazy:
            self.__class__ = Game  # type: ignore[assignment]  # (narrowed to _Lazy)
        pending = self._pending
        if pending is not None:
            pending.settle(self)  # the journal and turn record, from the inputs taken
        d = self.__dict__
        if "_turn" not in d:
            self._turn = self._fresh_turn()
        if "_held" not in d:
            self._held = [bits_of(h) for h in self.hands] if self.hands is not None else []

    def _fresh_turn(self) -> _Turn:
        """The turn record of a hand no input has reached yet."""
        return _Turn(Layout(self.rules), played=[0] * self.seats, drawn=[0] * self.seats)

    # --- reading ----------------------------------------------------------------------

    @property
    def layout(self) -> Layout:
        return self._turn.layout

    def score(self, seat: int) -> int:
        """The seat's score: its team's in partnership games."""
        team = self.teams.of[seat]
        return self.seat_scores[seat] if team is None else self.team_scores[team]

    def scores(self) -> tuple[int, ...]:
        # Teams place every seat (`_check_teams`), or there are none: either way in C.
        if self.teams.groups:
            return tuple(map(self.team_scores.__getitem__, self._team_of))  # type: ignore[arg-type]
        return tuple(self.seat_scores)

    def ends_total(self) -> int:
        return self._turn.layout.ends_total()

    def tiles_left(self, seat: int) -> int | None:
        if self.hands is not None:
            return len(self.hands[seat])
        if self.rules.draws and self.rules.boneyard is not Boneyard.DRAW_ONE:
            return None  # draws are not told in draw-until-playable games
        t = self._turn
        return self.hand_size + t.drawn[seat] - t.played[seat] if t.played else self.hand_size

    def seat_of_play(self, index: int) -> int | None:
        return self._turn.seats_of_plays[index]

    def coords_of_play(self, index: int) -> Coords | None:
        """Where the `index`-th tile of the layout lies, when the table said."""
        return self._turn.coords[index]

    def hand_inputs(self) -> tuple[HandInput, ...]:
        """The plays, passes and draws accepted this hand, in order (its journal)."""
        return tuple(self._settle_journal())

    def legal_moves(self, seat: int | None = None) -> list[Move]:  # noqa: PLR0912 (hot path, one call)
        """Full information: the plays the seat (default: the turn seat) may make now."""
        turn = self.turn
        hands = self.hands
        if turn is None or hands is None or (seat is not None and seat != turn):
            return []
        phase = self.phase
        if phase is not _PLAY and phase is not _LEAD:
            return []
        layout = self._turn.layout
        if not layout.nodes:
            return self._lead_moves(hands[turn])
        # The moves come in the order they always have (the same seed plays the same
        # game): a plain line end by end, otherwise tile by tile, each in hand order.
        # The hand is also kept as bits, so the tiles that fit are one `&` away: no fit
        # and a single fit (the common cases) need no walk through the hand. The layout
        # keeps its ends less mirror images (a double's two sides are one place to play).
        held = self._held[turn]
        offers = layout._offers
        new = _new_move
        if len(offers) == 2:
            first, second = offers
            if first[1] < 2 and second[1] < 2:  # a plain line: two ends, no mirrors
                moves = []
                a = held & PIP_BITS[first[2]]
                if a:
                    if a & (a - 1):  # two tiles or more: in hand order
                        moves = [new(Move, (t, first)) for t in hands[turn] if t.bit & a]
                    else:
                        moves = [new(Move, (TILE_OF_BIT[a], first))]
                b = held & PIP_BITS[second[2]]
                if b:
                    if b & (b - 1):
                        moves += [new(Move, (t, second)) for t in hands[turn] if t.bit & b]
                    else:
                        moves.append(new(Move, (TILE_OF_BIT[b], second)))
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
                            moves.append(new(Move, (tile, end)))
        return moves

    def _lead_moves(self, hand: list[Tile]) -> list[Move]:
        start = self._start
        assert start is not None
        if start.forced_lead is not None:
            return [Move(start.forced_lead, None)]
        return [_new_move(Move, (t, None)) for t in hand]

    def can_draw(self, seat: int | None = None) -> bool:
        """Full information: whether the seat may (and, unable to play, must) draw now."""
        if not self._may_draw():
            return False
        return self.rules.draw_while_playable or not self.legal_moves(seat)

    def _may_draw(self) -> bool:
        """`can_draw()` for a seat known to have no legal move."""
        boneyard = self.boneyard
        if boneyard is None or self.phase is not _PLAY or not self._draws:
            return False
        if len(boneyard) <= self._boneyard_keep:
            return False
        return not (self._draw_one and self._turn.drew_this_turn)

    def _drawable(self) -> int | None:
        """How many tiles may still be drawn this hand (None: the boneyard is not known)."""
        if self.boneyard is not None:
            return len(self.boneyard) - self._boneyard_keep
        if self.boneyard_count is None:
            return None
        return self.boneyard_count - self._boneyard_keep

    # --- starting -----------------------------------------------------------------------

    def start(self) -> list[Event]:
        """Start the game and its first hand."""
        if self.phase is not Phase.IDLE:
            return []
        started = GameEvent(
            "started",
            None,
            None,
            self.scores(),
            tuple(self.team_scores),
            tuple(self.names),
            self.rules.name,
            self.target,
        )
        return [started, *self._begin_hand()]

    def next_hand(self) -> Judgement:
        if self.phase is not _HAND_OVER:
            return self._refuse(Reason.WRONG_PHASE, detail="the hand is not over")
        return _new_move(Judgement, (_OK, tuple(self._begin_hand())))  # (no Python __new__)

    def redeal(self) -> Judgement:
        """Abandon the hand unscored and deal it again (same number, same leader rule)."""
        if self.phase not in (Phase.LEAD, Phase.PLAY, Phase.COUNTING):
            return self._refuse(Reason.WRONG_PHASE, detail="no hand in play")
        start = self._start
        assert start is not None
        self.seat_scores, self.team_scores = list(start.seat_scores), list(start.team_scores)
        self.hand_no -= 1
        return Judgement(Reason.OK, tuple(self._begin_hand(redeal=True)))

    def _begin_hand(self, *, redeal: bool = False) -> list[Event]:
        lazy = self.__class__ is _Lazy  # the last hand was played out (`engine.playout`)
        if lazy:
            self.__class__ = Game  # (nothing of the last hand is needed any more)
        self.hand_no += 1
        self.out_seat = None
        self.result = None
        self.counts = [None] * self.seats
        hands: list[list[Tile]] | None = None
        boneyard: list[Tile] | None = None
        if self.mode is _FULL:
            hands, boneyard = self._deal()
        leader, forced, must_double, hands, boneyard = self._choose_leader(hands, boneyard)
        if redeal and self._start is not None and forced is None and not must_double:
            leader = self._start.leader  # a redeal keeps the hand's leader
        if hands is None:
            dealt = self.hand_size * self.seats
            boneyard_count: int | None = self.set.size - dealt if self.rules.draws else 0
            if self.rules.lead is LeadRule.HIGHEST_DOUBLE and self.rules.no_double is (
                NoDouble.DRAW_MORE
            ):
                boneyard_count = None  # extra draws for a double are not seen
        else:
            boneyard_count = None
        # `_HandStart(...)` field by field: a dataclass's __init__ is a dear call.
        self._start = start = _new_object(_HandStart)
        start.number = self.hand_no
        start.leader = leader
        start.forced_lead = forced
        start.lead_must_be_double = must_double
        start.hands = list(map(list, hands)) if hands is not None else None
        start.boneyard = list(boneyard) if boneyard is not None else None
        start.boneyard_count = boneyard_count
        start.seat_scores = list(self.seat_scores)
        start.team_scores = list(self.team_scores)
        self._journal = []
        self._pending = None
        if hands is None or boneyard is None:
            self._rebuild()
            return []
        # What `_rebuild` makes of an empty journal, without copying the deal twice (the
        # dealt lists are the game's own; `start` keeps copies).
        self.seat_scores, self.team_scores = list(start.seat_scores), list(start.team_scores)
        self.hands = hands
        self.boneyard = boneyard
        self.boneyard_count = boneyard_count
        self.leader = self.turn = leader
        self.phase = _LEAD
        if lazy:  # played out again, most likely: the bits and turn record when read
            d = self.__dict__
            d.pop("_held", None)
            d.pop("_turn", None)
            self.__class__ = _Lazy
        else:
            self._held = [bits_of(h) for h in hands]
            self._turn = self._fresh_turn()
        return []

    def _deal(self) -> tuple[list[list[Tile]], list[Tile]]:
        # A uniform shuffle: the set sorted by random float keys (one C-level sort, the
        # float comparisons being the cheapest, instead of a Python loop). `sorted` works
        # out each tile's key once, in order, so the key function draws the i-th number
        # for the i-th tile of the set, in C: the same shuffle as sorting the indices by
        # a list of keys (tests/engine/test_perf_fastpaths.py). The hands are sliced by
        # slices made once per game.
        tiles = sorted(self._set_list, key=partial(next, starmap(self.rng.random, self._no_args)))
        return list(self._slice_hands(tiles)), tiles[self._dealt :]

    def _choose_leader(
        self, hands: list[list[Tile]] | None, boneyard: list[Tile] | None
    ) -> tuple[int | None, Tile | None, bool, list[list[Tile]] | None, list[Tile] | None]:
        """(leader or None if unknown, forced lead tile, lead must be a double, hands, yard)."""
        rules = self.rules
        first = self.hand_no == 1
        if not first and self._rotate:
            prev = self._start.leader if self._start else None
            return (None if prev is None else (prev + 1) % self.seats), None, False, hands, boneyard
        if not first and self._winner_leads:
            prev = self.last_winner
            if prev is None:
                prev = self._start.leader if self._start else None
            return prev, None, False, hands, boneyard
        if rules.lead is _ANY_LEAD:
            if rules.first_leader is FirstLeader.SEAT_ZERO:
                return 0, None, False, hands, boneyard
            if hands is None:
                return None, None, False, None, None
            return self._draw_for_lead(), None, False, hands, boneyard
        return self._lead_by_tile(hands, boneyard)

    def _draw_for_lead(self) -> int:
        tiles = list(self.set.tiles())
        self.rng.shuffle(tiles)
        drawn = tiles[: self.seats]
        best = max(drawn, key=lambda t: (t.pips, t.is_double, t.high))
        return drawn.index(best)

    def _lead_by_tile(
        self, hands: list[list[Tile]] | None, boneyard: list[Tile] | None
    ) -> tuple[int | None, Tile | None, bool, list[list[Tile]] | None, list[Tile] | None]:
        rules = self.rules
        if hands is None:  # table mode: the players tell who holds it
            everything_dealt = self.hand_size * self.seats == self.set.size
            forced: Tile | None = None
            if rules.lead is LeadRule.SET_DOUBLE and everything_dealt:
                forced = Tile(rules.lead_double or 0, rules.lead_double or 0)
            elif rules.lead is LeadRule.HIGHEST_DOUBLE and everything_dealt:
                forced = Tile(self.set.max_pip, self.set.max_pip)
            must_double = rules.lead is LeadRule.HIGHEST_DOUBLE and (
                rules.no_double is not NoDouble.HIGHEST_TILE
            )
            return None, forced, must_double or rules.lead is LeadRule.SET_DOUBLE, None, None
        assert boneyard is not None
        for _ in range(1000):
            found = self._holder_of_lead(hands)
            if found is not None:
                return found[0], found[1], False, hands, boneyard
            if rules.no_double is NoDouble.DRAW_MORE and len(boneyard) >= self.seats:
                for hand in hands:
                    hand.append(boneyard.pop())
                continue
            if rules.no_double is NoDouble.HIGHEST_TILE or rules.lead is (
                LeadRule.HIGHEST_DOUBLE_ELSE_HIGHEST_TILE
            ):
                tile = max((t for h in hands for t in h), key=lambda t: (t.pips, t.high))
                seat = next(s for s, h in enumerate(hands) if tile in h)
                return seat, tile, False, hands, boneyard
            hands, boneyard = self._deal()
        raise RulesError(f"{rules.name}: no hand could lead after 1000 deals")

    def _holder_of_lead(self, hands: list[list[Tile]]) -> tuple[int, Tile] | None:
        rules = self.rules
        if rules.lead is _SET_DOUBLE:
            want = Tile(rules.lead_double or 0, rules.lead_double or 0)
            for seat, hand in enumerate(hands):
                if want in hand:
                    return seat, want
            return None
        best: tuple[int, Tile] | None = None
        for seat, hand in enumerate(hands):
            for tile in hand:
                if tile.is_double and (best is None or tile.high > best[1].high):
                    best = (seat, tile)
        return best

    # --- inputs -------------------------------------------------------------------------

    def play(
        self,
        tile: Tile,
        where: Where = None,
        *,
        seat: int | None = None,
        coords: Coords | None = None,
    ) -> Judgement:
        """A tile laid: the lead (`where` None on an empty layout) or joined at `where`."""
        if self.phase is Phase.HAND_OVER or self.phase is Phase.COUNTING:
            return self._refuse(Reason.WRONG_PHASE, tile, detail="the hand is over", at=coords)
        if self.phase is not Phase.LEAD and self.phase is not Phase.PLAY:
            return self._refuse(Reason.WRONG_PHASE, tile, detail="no hand in play", at=coords)
        if tile not in self._set_tiles:
            return self._refuse(Reason.UNKNOWN_TILE, tile, at=coords)
        layout = self._turn.layout
        if layout.index_of(tile) is not None:
            return self._refuse(Reason.DUPLICATE_TILE, tile, at=coords)
        if seat is not None and self.turn is not None and seat != self.turn:
            return self._refuse(Reason.OUT_OF_TURN, tile, seat=seat, at=coords)
        if not layout.nodes and self.turn is None and seat is not None:
            named = self.name_leader(seat)  # a lead that says who laid it names the leader
            if not named.ok:
                return named
        actor = self.turn
        if self.hands is not None and actor is not None and tile not in self.hands[actor]:
            return self._refuse(Reason.NOT_IN_HAND, tile, seat=actor, at=coords)
        problem = self._check_place(tile, where, coords)
        if problem is not None:
            return problem
        self._refs += 1
        action = PlayInput(tile, where, coords, self._refs)
        events = self._apply(action)
        self._journal.append(action)
        return Judgement(Reason.OK, tuple(events))

    def _check_place(self, tile: Tile, where: Where, coords: Coords | None) -> Judgement | None:
        layout = self._turn.layout
        start = self._start
        assert start is not None
        if not layout.nodes:
            if start.forced_lead is not None and tile is not start.forced_lead:
                return self._refuse(
                    Reason.BAD_LEAD, tile, detail=f"{start.forced_lead} must lead", at=coords
                )
            if start.lead_must_be_double and not tile.is_double:
                return self._refuse(Reason.BAD_LEAD, tile, detail="a double leads", at=coords)
            return None
        end = self._resolve(tile, where)
        if isinstance(end, JoinProblem):
            pips = self._shown_at(where) if end is JoinProblem.NO_MATCH else ()
            return self._refuse(_JOIN_REASONS[end], tile, pip=pips, at=coords)
        return None

    def _shown_at(self, where: Where) -> tuple[int, ...]:
        """The numbers the open end(s) a play named show (every open end: none named)."""
        if isinstance(where, OpenEnd):
            return (where.pip,)
        ends = self._turn.layout.ends
        if isinstance(where, Target):
            at = self._turn.layout.index_of(where.to)
            ends = [
                e
                for e in ends
                if e.node == at
                and (where.kind is None or e.edge.kind is where.kind)
                and (where.pip is None or e.pip == where.pip)
            ]
        return tuple(dict.fromkeys(e.pip for e in ends))

    def _resolve(self, tile: Tile, where: Where) -> OpenEnd | JoinProblem:
        layout = self._turn.layout
        if isinstance(where, OpenEnd):
            if where not in layout.ends:
                return JoinProblem.NOT_TOUCHING
            return where if tile.has(where.pip) else JoinProblem.NO_MATCH
        if isinstance(where, Target):
            return layout.resolve(tile, where.to, where.pip, where.kind)
        ends = layout.joins(tile)
        if not ends:
            return JoinProblem.NO_MATCH
        if len({e.pip for e in ends}) > 1:
            return JoinProblem.AMBIGUOUS
        return ends[0]

    def pass_turn(self, seat: int | None = None) -> Judgement:
        """A knock: the seat (default: the turn seat) cannot or may not play."""
        if self.phase is not Phase.PLAY:
            return self._refuse(Reason.WRONG_PHASE, seat=seat, detail="no play to pass on")
        if seat is not None and self.turn is not None and seat != self.turn:
            return self._refuse(Reason.OUT_OF_TURN, seat=seat)
        if self.hands is not None:
            refused = self._check_full_pass()
            if refused is not None:
                return refused
        elif self._draw_one and not self._turn.drew_this_turn and (self._drawable() or 0) > 0:
            return self._refuse(Reason.MUST_DRAW, seat=seat)
        self._refs += 1
        action = PassInput(self._refs)
        events = self._apply(action)
        self._journal.append(action)
        return Judgement(Reason.OK, tuple(events))

    def _check_full_pass(self) -> Judgement | None:
        seat = self.turn
        assert seat is not None and self.hands is not None
        moves = self.legal_moves(seat)
        if moves and self.rules.must_play:
            return self._refuse(Reason.FALSE_KNOCK, moves[0].tile, seat=seat)
        if not moves and self.can_draw(seat):
            return self._refuse(Reason.MUST_DRAW, seat=seat)
        return None

    def draw(self, seat: int | None = None, count: int = 1) -> Judgement:
        """Tiles drawn from the boneyard by the seat (default: the turn seat).

        In both modes a draw-one game takes one tile a turn, and no draw takes more tiles
        than the boneyard is known to hold (less those never drawn, `draw.keep`); full
        information also knows whether the seat could play instead.
        """
        if not self.rules.draws:
            return self._refuse(Reason.NO_DRAWING, seat=seat, detail="this is a block game")
        if self.phase is not Phase.PLAY:
            return self._refuse(Reason.WRONG_PHASE, seat=seat, detail="no drawing now")
        if seat is not None and self.turn is not None and seat != self.turn:
            return self._refuse(Reason.OUT_OF_TURN, seat=seat)
        if count < 1:
            return self._refuse(Reason.NO_DRAWING, seat=seat, detail="draw at least one tile")
        if self._draw_one and (count > 1 or self._turn.drew_this_turn):
            detail = (
                f"draw one tile, not {count}"
                if count > 1
                else "one tile a turn: play it if it fits, else pass"
            )
            return self._refuse(Reason.NO_DRAWING, seat=seat, detail=detail)
        if self.hands is not None and not self.can_draw():
            return self._refuse(Reason.NO_DRAWING, seat=seat, detail="play or pass")
        drawable = self._drawable()
        if drawable is not None and drawable < count:
            if drawable <= 0:
                return self._refuse(Reason.BONEYARD_EMPTY, seat=seat)
            detail = f"only {drawable} tile{'s' if drawable > 1 else ''} can be drawn"
            return self._refuse(Reason.NO_DRAWING, seat=seat, detail=detail)
        action = DrawInput(count)
        events = self._apply(action)
        self._journal.append(action)
        return Judgement(Reason.OK, tuple(events))

    def name_leader(self, seat: int) -> Judgement:
        """Who led, when the table could not know: earlier plays are attributed now."""
        if not 0 <= seat < self.seats:
            return self._refuse(Reason.BAD_LEAD, seat=seat, detail=f"no seat {seat}")
        if self.phase not in (Phase.LEAD, Phase.PLAY):
            return self._refuse(Reason.WRONG_PHASE, seat=seat, detail="no hand in play")
        start = self._start
        assert start is not None
        if start.leader == seat:
            return Judgement(Reason.OK)
        if start.leader is not None and self.hands is not None:
            return self._refuse(Reason.BAD_LEAD, seat=seat, detail="the deal decided the lead")
        start.leader = seat
        proven = dict(self._turn.caught), self._turn.wrong_lead
        self._rebuild()
        return Judgement(
            Reason.OK,
            (
                LeadEvent(self.hand_no, seat),
                *self._proven_by_rebuild(*proven),
                *self._ended_by_rebuild(),
            ),
        )

    def declare_out(self, seat: int) -> Judgement:
        """A seat says it went out (draw games, where the table cannot tell)."""
        if self.phase is not Phase.PLAY or not 0 <= seat < self.seats:
            return self._refuse(Reason.WRONG_PHASE, seat=seat, detail="no hand in play")
        refused = self._check_out(seat)
        if refused is not None:
            return refused
        return Judgement(Reason.OK, tuple(self._end_play(HandResult.DOMINO, seat)))

    def _check_out(self, seat: int) -> Judgement | None:
        """Why `seat` cannot have gone out (None: it can): it holds tiles by the deal, the
        draws told and its plays, or a partner who must go out too still holds some."""
        if self.hands is not None:
            if self.hands[seat]:
                return self._refuse(Reason.EARLY_OUT, seat=seat)
        else:
            t = self._turn
            left = self.tiles_left(seat)
            if (left is not None and left > 0) or (t.played and t.played[seat] < self.hand_size):
                return self._refuse(Reason.EARLY_OUT, seat=seat)
        if self._both_out and any(not self._is_out(s) for s in self.teams.side(seat) if s != seat):
            return self._refuse(Reason.EARLY_OUT, seat=seat)
        return None

    def end_hand(self) -> Judgement:
        """The players agree the hand is blocked (the table cannot see the boneyard)."""
        if self.phase is not Phase.PLAY:
            return self._refuse(Reason.WRONG_PHASE, detail="no hand in play")
        return Judgement(Reason.OK, tuple(self._end_play(HandResult.BLOCKED, None)))

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
        fitted is a `FALSE_KNOCK` (see `_reneges`); a tile the lead rule puts before the
        lead, shown by a seat that drew nothing, is a `BAD_LEAD` (`_wrong_lead_shown`).

        Given during play the count also ends the hand: as the players say (`out`, the
        seat that went out; `blocked`), else blocked when every seat passed in turn and
        the boneyard is known to be empty, or gone out by the seat that played last once
        it holds no tile. Anything else is refused: the hand is not over.
        """
        if len(pips) != self.seats or any(p is not None and p < 0 for p in pips):
            return self._refuse(
                Reason.COUNT_MISMATCH, detail=f"give {self.seats} counts of 0 or more"
            )
        if tiles is not None and len(tiles) != self.seats:
            return self._refuse(Reason.COUNT_MISMATCH, detail=f"give {self.seats} seats' tiles")
        if self.phase is not Phase.PLAY and self.phase is not Phase.COUNTING:
            return self._refuse(Reason.WRONG_PHASE, detail="no hand to count")
        shown = list(tiles) if tiles is not None else [None] * self.seats
        pips = [_pips_of(p, t) for p, t in zip(pips, shown, strict=True)]
        refused = self._check_shown(pips, shown)
        if refused is not None:
            return refused
        ending = self._ending(pips, out, blocked)
        if isinstance(ending, Judgement):
            return ending
        events = self._end_play(*ending) if self.phase is Phase.PLAY else []
        assert self.phase is Phase.COUNTING, "an ending checked by _ending ends the hand"
        events += self._reneges(shown)
        events += self._wrong_lead_shown(shown)
        self.counts = list(pips)
        return Judgement(Reason.OK, (*events, *self._score_hand([p or 0 for p in pips])))

    def count_tiles(self, shown: Sequence[Sequence[Tile]]) -> Judgement:
        """The tiles each seat shows at the end: checked against the game, then counted."""
        return self.count([None] * len(shown), shown)

    def _check_shown(
        self, pips: Sequence[int | None], shown: Sequence[Sequence[Tile] | None]
    ) -> Judgement | None:
        """Why the tiles shown cannot be what the seats hold (None: they can)."""
        on_table = set(self._turn.layout.tiles())
        seen: set[Tile] = set()
        for seat, tiles in enumerate(shown):
            if tiles is None:
                continue
            for tile in tiles:
                if tile not in self._set_tiles:
                    return self._refuse(Reason.UNKNOWN_TILE, tile, seat=seat)
                if tile in on_table or tile in seen:
                    return self._refuse(Reason.DUPLICATE_TILE, tile, seat=seat)
                seen.add(tile)
            name, held = self.names[seat], sum(t.pips for t in tiles)
            if pips[seat] != held:
                detail = f"{name} counts {pips[seat]} pips but shows {held}"
                return self._refuse(Reason.COUNT_MISMATCH, seat=seat, detail=detail)
            least, most = self._held_bounds(seat)
            if not least <= len(tiles) <= (most if most is not None else len(tiles)):
                should = f"{least} tiles" if most is not None else f"at least {least} tiles"
                detail = f"{name} should hold {should}, shows {len(tiles)}"
                return self._refuse(Reason.COUNT_MISMATCH, seat=seat, detail=detail)
        return None

    def _held_bounds(self, seat: int) -> tuple[int, int | None]:
        """How many tiles the seat holds now: at least, and at most (None: no bound) by
        the deal, the draws told and its plays. Nothing is known (0, None) while a lead is
        not attributed; draw-until-playable games need not tell their draws."""
        t = self._turn
        if None in t.seats_of_plays or not t.played:
            return 0, None
        left = self.tiles_left(seat)
        if left is not None:
            return left, left
        return self.hand_size + t.drawn[seat] - t.played[seat], None

    def _ending(
        self, pips: Sequence[int | None], out: int | None, blocked: bool
    ) -> tuple[HandResult, int | None] | Judgement:
        """How the hand ended, as said or as the game knows it (refused: it has not, or
        not so), with the seat that went out holding nothing."""
        if out is not None and blocked:
            return self._refuse(Reason.COUNT_MISMATCH, detail="a hand is blocked or won, not both")
        if out is not None and not 0 <= out < self.seats:
            return self._refuse(Reason.COUNT_MISMATCH, detail=f"there is no seat {out}")
        said: tuple[HandResult, int | None] | None = None
        if out is not None:
            said = (HandResult.DOMINO, out)
        elif blocked:
            said = (HandResult.BLOCKED, None)
        ending: tuple[HandResult, int | None] | Judgement
        if self.phase is Phase.COUNTING:
            assert self.result is not None
            ending = (self.result, self.out_seat)
            if said is not None and said != ending:
                who = self.names[self.out_seat or 0]
                how = "blocked" if self.result is _BLOCKED else f"with {who} out"
                return self._refuse(Reason.COUNT_MISMATCH, detail=f"the hand ended {how}")
        elif out is not None:
            ending = self._gone_out(out)
        else:
            ending = said if said is not None else self._ended_by_play()
        if isinstance(ending, Judgement):
            return ending
        seat = ending[1]
        if seat is not None and pips[seat]:
            detail = f"{self.names[seat]} went out but holds pips"
            return self._refuse(Reason.COUNT_MISMATCH, seat=seat, detail=detail)
        return ending

    def _ended_by_play(self) -> tuple[HandResult, int | None] | Judgement:
        """How a hand in play ended, when nobody said: blocked when every seat passed in
        turn and the boneyard is known to be empty, else gone out by the seat that played
        last (refused when the game knows neither)."""
        t = self._turn
        if t.passes_in_row >= self._active_seats():
            if self._boneyard_known_empty():
                return HandResult.BLOCKED, None
            left = self._drawable()
            holds = f"holds {left} tiles" if left is not None else "may hold tiles"
            detail = f"the hand is not over, the boneyard {holds}: {_PLAY_ON}"
            return self._refuse(Reason.COUNT_MISMATCH, detail=detail)
        seat = t.seats_of_plays[-1] if t.seats_of_plays else None
        if seat is None:
            return self._refuse(Reason.LEAD_UNKNOWN, detail="who went out?")
        if t.passes_in_row:
            name = self.names[self._last_passer()]
            detail = f"the hand is not over, {name} passed since the last play: {_PLAY_ON}"
            return self._refuse(Reason.COUNT_MISMATCH, detail=detail)
        return self._gone_out(seat)

    def _gone_out(self, seat: int) -> tuple[HandResult, int | None] | Judgement:
        """The hand won by `seat` going out, or why it cannot have gone out."""
        refused = self._check_out(seat)
        return refused if refused is not None else (HandResult.DOMINO, seat)

    def _last_passer(self) -> int:
        """The seat that passed last (passes came since the last play)."""
        seat = self.turn
        assert seat is not None
        return (seat - 1) % self.seats

    def _reneges(self, shown: Sequence[Sequence[Tile] | None]) -> list[Event]:
        """A `FALSE_KNOCK` for each knock (table mode, must-play rules) made while a tile
        its seat now shows, or has played since, fitted an open end. A tile drawn after
        the knock may be among those: a knock is proven false when more of them fitted
        than the seat drew since (named, when it drew none; else the fitting tiles, one
        of which it held). In a block game and after a draw-until-playable pass nobody
        draws. A knock a play already proved false (`_knocks_disproved`) is not told
        again."""
        if not self.rules.must_play or self.hands is not None:
            return []
        t = self._turn
        out: list[Event] = []
        for k, ((seat, open_pips), drawn_then) in enumerate(
            zip(t.knocks, t.knock_drawn, strict=True)
        ):
            if k in t.caught:
                continue
            fitting = [x for x in shown[seat] or () if _fits(x, open_pips)]
            fitting += self._fitted_since(k)
            drawn_since = t.drawn[seat] - drawn_then
            if len(fitting) > drawn_since:
                out.append(self._false_knock(seat, fitting, drawn_since))
        return out

    def _knocks_disproved(self, seat: int) -> list[Event]:
        """A `FALSE_KNOCK` for each knock of `seat` (table mode, must-play rules) that the
        play just made proves false: since the knock the seat has played more tiles that
        fitted an end open then than it drew (`_reneges`' reasoning, with the tiles played
        in place of tiles shown). The play stands; each knock is told once."""
        t = self._turn
        if not self.rules.must_play:
            return []
        out: list[Event] = []
        for k, (who, _) in enumerate(t.knocks):
            if who != seat or k in t.caught:
                continue
            fitted = self._fitted_since(k)
            drawn_since = t.drawn[seat] - t.knock_drawn[k]
            if len(fitted) > drawn_since:
                t.caught[k] = alert = self._false_knock(seat, fitted, drawn_since)
                out.append(alert)
        return out

    def _fitted_since(self, knock: int) -> list[Tile]:
        """The tiles the seat of the `knock`-th knock has played since that fitted an end
        open when it knocked."""
        t = self._turn
        seat, open_pips = t.knocks[knock]
        nodes, seats = t.layout.nodes, t.seats_of_plays
        return [
            nodes[i].tile
            for i in range(t.knock_plays[knock], len(nodes))
            if seats[i] == seat and _fits(nodes[i].tile, open_pips)
        ]

    def _false_knock(self, seat: int, fitting: Sequence[Tile], drawn_since: int) -> AlertEvent:
        """The alert for a knock proven false by `fitting` tiles: the tile, when the seat
        drew none since (it held them all); else the tiles, one of which it held."""
        sure = fitting[0] if not drawn_since else None
        said = (sure,) if sure is not None else tuple(fitting)
        text = message(Reason.FALSE_KNOCK, self.language, seat=self.names[seat], tile=said)
        return AlertEvent(Reason.FALSE_KNOCK, text, seat, sure.text if sure else None)

    # --- the lead rule, after the fact (table mode) -----------------------------------------

    def _lead_checkable(self) -> bool:
        """Whether a tile seen later can prove this hand's lead wrong: table mode, a hand
        led by the lead rule (not any tile), every lead attributed, and draws that are
        told or impossible (so a seat that drew nothing holds what it held at the lead)."""
        rules = self.rules
        if self.hands is not None or rules.lead is _ANY_LEAD:
            return False
        if self.hand_no != 1 and rules.next_leader is not NextLeader.LEAD_RULE:
            return False  # later hands are led with any tile
        if self._draws and not self._draw_one:
            return False  # draw-until-playable: draws need not be told
        return None not in self._turn.seats_of_plays

    def _leads_before(self, tile: Tile, lead: Tile) -> bool:
        """Whether the lead rule puts `tile` before `lead` (its holder should have led)."""
        rules = self.rules
        if rules.lead is _SET_DOUBLE:
            return tile.is_double and tile.high == (rules.lead_double or 0) and tile is not lead
        if tile.is_double:
            return not lead.is_double or tile.high > lead.high
        highest_tile = rules.lead is LeadRule.HIGHEST_DOUBLE_ELSE_HIGHEST_TILE or (
            rules.no_double is NoDouble.HIGHEST_TILE
        )
        return highest_tile and not lead.is_double and tile.pips > lead.pips

    def _lead_disproved(self, seat: int, tile: Tile) -> list[Event]:
        """A `BAD_LEAD` when `seat`, having drawn nothing this hand, plays a tile the lead
        rule puts before the lead: it held it at the lead. Told once a hand."""
        t = self._turn
        if t.drawn[seat] or not self._lead_checkable():
            return []
        if not self._leads_before(tile, t.layout.nodes[0].tile):
            return []
        t.wrong_lead = alert = self._wrong_lead(seat, tile)
        return [alert]

    def _wrong_lead_shown(self, shown: Sequence[Sequence[Tile] | None]) -> list[Event]:
        """A `BAD_LEAD` when a seat that drew nothing this hand shows a tile the lead rule
        puts before the lead (unless a play already proved it)."""
        t = self._turn
        if t.wrong_lead is not None or not t.layout.nodes or not self._lead_checkable():
            return []
        lead = t.layout.nodes[0].tile
        for seat, tiles in enumerate(shown):
            if tiles is None or t.drawn[seat]:
                continue
            better = [x for x in tiles if self._leads_before(x, lead)]
            if better:
                best = max(better, key=lambda x: (x.is_double, x.high if x.is_double else x.pips))
                return [self._wrong_lead(seat, best)]
        return []

    def _wrong_lead(self, holder: int, better: Tile) -> AlertEvent:
        """The alert for a lead that `holder`'s `better` tile proves wrong, for the leader."""
        t = self._turn
        lead, leader = t.layout.nodes[0].tile, t.seats_of_plays[0]
        text = message(
            Case.WRONG_LEAD, self.language, tile=lead, seat=self.names[holder], detail=better
        )
        return AlertEvent(Reason.BAD_LEAD, text, leader, lead.text)

    def _proven_by_rebuild(
        self, caught: dict[int, AlertEvent], wrong_lead: AlertEvent | None
    ) -> list[Event]:
        """The after-the-fact alerts a rebuild proved that were not proven before it (a
        leader named late attributes the plays that prove them; a corrected tile)."""
        t = self._turn
        out: list[Event] = [a for k, a in t.caught.items() if k not in caught]
        if t.wrong_lead is not None and wrong_lead is None:
            out.append(t.wrong_lead)
        return out

    def undo(self) -> Judgement:
        """Take back the last play or pass of this hand, and the draws told after it.

        A draw belongs to the turn it was made in: draws after the play (or pass) taken
        back answered a layout, or a turn, that is no longer there, so they go too (their
        tiles go back to the boneyard). Draws before it stay with the seats that drew
        them. With no play or pass to take back the undo is refused.
        """
        journal = self._settle_journal()
        undoable = (Phase.LEAD, Phase.PLAY, Phase.COUNTING)
        index = next(
            (i for i in range(len(journal) - 1, -1, -1) if not isinstance(journal[i], DrawInput)),
            None,
        )
        if self.phase not in undoable or index is None:
            return self._refuse(Reason.NOTHING_TO_UNDO)
        action = journal[index]
        assert isinstance(action, PlayInput | PassInput)
        before = self._points_made()
        self._journal = self._journal[:index]
        self._rebuild()
        points = before - self._points_made()
        return Judgement(Reason.OK, (UndoEvent(self.hand_no, action.ref, points),))

    def correct(self, read: Tile, actual: Tile) -> Judgement:
        """A tile on the table was misread: it is really `actual`. Rebuilds the hand."""
        self._settle_journal()
        index = next(
            (i for i, a in enumerate(self._journal) if isinstance(a, PlayInput) and a.tile is read),
            None,
        )
        if index is None or self.phase not in (Phase.LEAD, Phase.PLAY):
            return self._refuse(Reason.NOT_TOUCHING, read, detail=f"{read} is not in play")
        if actual not in self._set_tiles:
            return self._refuse(Reason.UNKNOWN_TILE, actual)
        old = self._journal[index]
        assert isinstance(old, PlayInput)
        saved_journal, saved_turn = list(self._journal), self._turn
        proven = dict(saved_turn.caught), saved_turn.wrong_lead
        self._journal[index] = old._replace(tile=actual)
        try:
            self._rebuild(strict=True)
        except _RejectedError as exc:
            self._journal = saved_journal
            self._rebuild()
            assert self._turn.layout.tiles() == saved_turn.layout.tiles()
            return exc.judgement
        return Judgement(Reason.OK, (*self._proven_by_rebuild(*proven), *self._ended_by_rebuild()))

    def _ended_by_rebuild(self) -> list[Event]:
        """A rebuilt hand whose points now reach an at-once target ends the game: say so.

        (The rebuild keeps no events, so naming a leader late or correcting a tile that
        credits the winning points would otherwise end the game in silence.)
        """
        return self._game_over() if self.phase is Phase.OVER else []

    # --- applying -------------------------------------------------------------------------

    def _rebuild(self, *, strict: bool = False) -> None:
        """Replay the hand's journal from how it began (no events kept)."""
        start = self._start
        assert start is not None
        self.seat_scores, self.team_scores = list(start.seat_scores), list(start.team_scores)
        self.hands = list(map(list, start.hands)) if start.hands is not None else None
        self._held = [bits_of(h) for h in self.hands] if self.hands is not None else []
        self.boneyard = list(start.boneyard) if start.boneyard is not None else None
        self.boneyard_count = start.boneyard_count
        self.leader = start.leader
        self.turn = start.leader
        self.phase = _LEAD
        self.result = None
        self.out_seat = None
        self._turn = _Turn(Layout(self.rules), played=[0] * self.seats, drawn=[0] * self.seats)
        for action in self._settle_journal():
            if strict and isinstance(action, PlayInput):
                refused = self._check_place(action.tile, action.where, action.coords)
                if refused is None and action.tile in self._turn.layout.tiles():
                    refused = self._refuse(Reason.DUPLICATE_TILE, action.tile)
                if refused is not None:  # (a refused Judgement is falsy: no `or` here)
                    raise _RejectedError(refused)
            self._apply(action)

    def _apply(self, action: HandInput) -> list[Event]:
        if isinstance(action, PlayInput):
            return self._apply_play(action)
        if isinstance(action, PassInput):
            return self._apply_pass(action)
        return self._apply_draw(action)

    def _apply_play(self, action: PlayInput) -> list[Event]:
        tile = action.tile
        end = None
        if self._turn.layout.nodes:
            resolved = self._resolve(tile, action.where)
            assert not isinstance(resolved, JoinProblem)
            end = resolved
        return self._lay(tile, end, action.coords, action.ref)

    def push(self, move: Move) -> list[Event]:
        """Full information: make a move from `legal_moves()`, trusted (not judged again).

        The fast path for simulation; anything else goes through `play`, which judges.
        """
        tile, end = move
        seat = self.turn
        hands = self.hands
        self._refs = ref = self._refs + 1
        if seat is None or hands is None:  # not full information: the general path
            self._journal.append(_new_move(PlayInput, (tile, end, None, ref)))
            return self._lay(tile, end, None, ref)
        # What follows is `_lay` for a known seat with known hands, inlined (one Python
        # call less per play, and no branches for the table). The journal gets a plain
        # tuple, made a PlayInput when the journal is read (`_settle_journal`): a named
        # tuple costs several times as much to make, and most journals are never read.
        self._journal.append((tile, end, None, ref))
        t = self._turn
        layout = t.layout
        layout.place(tile, end)
        t.seats_of_plays.append(seat)
        t.coords.append(None)
        t.passes_in_row = t.drew_this_turn = 0
        total = layout._total  # kept by `place`: ends_total() without the walk
        points = (
            self._play_points[total]
            if total < _POINTS_TABLE
            else play_points(self.rules.play_scoring, total)
        )
        t.played[seat] += 1
        # The bits first: a fresh hand's are made from the hand when first read.
        self._held[seat] ^= tile.bit
        hand = hands[seat]
        # By identity, in C: list.remove would call Tile's Python-level comparison (it
        # defines __lt__) on every tile before this one.
        del hand[list(map(is_, hand, repeat(tile))).index(True)]
        if points:
            points = self._add_points(seat, points)
        team = self._team_of[seat]
        score = self.seat_scores[seat] if team is None else self.team_scores[team]
        announce = _STITCHED if self._announce_stitched and layout.stitched() else ()
        events: list[Event] = [
            _new_move(
                PlayEvent,
                (self.hand_no, seat, tile.text, points, total, score, announce, None, ref),
            )
        ]
        self.phase = _PLAY
        if points and self._at_once and self._target_reached_at_once():
            events.extend(self._game_over())
        elif not hand:
            events.extend(self._end_play(_DOMINO, seat))
        elif self._both_out:
            self.turn = seat
            self._advance()
        else:
            self.turn = self._next_seat[seat]
        return events

    def _settle_journal(self) -> list[HandInput]:
        """Make the plain tuples `push` journals into PlayInputs, in place; the journal."""
        journal = self._journal
        for i, action in enumerate(journal):
            if action.__class__ is tuple:
                journal[i] = PlayInput._make(action)
        return journal  # type: ignore[return-value]  # (typing.cast is a Python call)

    def push_pass(self) -> list[Event]:
        """Full information: the turn seat passes, trusted (it has no move and cannot draw)."""
        self._refs += 1
        action = _new_move(PassInput, (self._refs,))
        self._journal.append(action)
        return self._apply_pass(action)

    def push_draw(self) -> list[Event]:
        """Full information: the turn seat draws one tile, trusted (it has no move and
        `can_draw()`)."""
        action = _DRAW_ONE
        self._journal.append(action)
        return self._apply_draw(action)

    def _lay(self, tile: Tile, end: OpenEnd | None, coords: Coords | None, ref: int) -> list[Event]:
        t = self._turn
        layout = t.layout
        seat = self.turn
        layout.place(tile, end)
        t.seats_of_plays.append(seat)
        t.coords.append(coords)
        t.passes_in_row = 0
        t.drew_this_turn = 0
        total = layout._total  # kept by `place`: ends_total() without the walk
        points = (  # always 0 in games that do not score in play
            self._play_points[total]
            if total < _POINTS_TABLE
            else play_points(self.rules.play_scoring, total)
        )
        score = 0
        out = False
        if seat is not None:
            t.played[seat] += 1
            hands = self.hands
            if hands is not None:
                self._held[seat] ^= tile.bit  # first: made from the hand when first read
                hand = hands[seat]
                # By identity, in C: list.remove would call Tile's Python-level
                # comparison (it defines __lt__) on every tile before this one.
                del hand[list(map(is_, hand, repeat(tile))).index(True)]
                out = not hand
            else:
                out = self.tiles_left(seat) == 0
            if points:
                points = self._add_points(seat, points)
            team = self._team_of[seat]
            score = self.seat_scores[seat] if team is None else self.team_scores[team]
        announce = _STITCHED if self._announce_stitched and layout.stitched() else ()
        events: list[Event] = [
            _new_move(
                PlayEvent,
                (self.hand_no, seat, tile.text, points, total, score, announce, coords, ref),
            )
        ]
        if seat is not None and self.hands is None:  # table mode: what the play proves
            if t.knocks:
                events.extend(self._knocks_disproved(seat))
            if t.wrong_lead is None and len(t.seats_of_plays) > 1:
                events.extend(self._lead_disproved(seat, tile))
        self.phase = _PLAY
        if points and self._at_once and self._target_reached_at_once():
            events.extend(self._game_over())
        elif out:
            events.extend(self._end_play(_DOMINO, seat))
        elif seat is not None:
            if self._both_out:
                self.turn = seat
                self._advance()
            else:
                self.turn = self._next_seat[seat]
        return events

    def _apply_pass(self, action: PassInput) -> list[Event]:
        t = self._turn
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
        events: list[Event] = [_new_move(PassEvent, (self.hand_no, seat, action.ref))]
        active = self._active_seats() if self._both_out else self.seats
        if t.passes_in_row >= active and self._boneyard_known_empty():
            events.extend(self._end_play(HandResult.BLOCKED, None))
            return events
        self._advance()
        return events

    def _apply_draw(self, action: DrawInput) -> list[Event]:
        t = self._turn
        seat = self.turn
        count = action.tiles
        t.drew_this_turn += count
        hands, boneyard = self.hands, self.boneyard
        if hands is not None and boneyard is not None and seat is not None:
            hand = hands[seat]
            held = self._held[seat]
            for _ in range(count):
                tile = boneyard.pop()
                hand.append(tile)
                held |= tile.bit
            self._held[seat] = held
        if self.boneyard_count is not None:
            self.boneyard_count -= count
        if seat is None:
            return []
        t.drawn[seat] += count
        return [_new_move(DrawEvent, (self.hand_no, seat, count))]

    def _add_points(self, seat: int, points: int) -> int:
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

    def _is_out(self, seat: int) -> bool:
        if self.hands is not None:
            return not self.hands[seat]
        left = self.tiles_left(seat)
        return left == 0

    def _active_seats(self) -> int:
        if not self.rules.both_partners_out:
            return self.seats
        return self.seats - sum(1 for s in range(self.seats) if self._is_out(s))

    def _boneyard_known_empty(self) -> bool:
        if not self._draw_one:
            return True  # block: passes end it; draw-until-playable: a pass means empty
        drawable = self._drawable()
        return drawable is not None and drawable <= 0

    def _advance(self) -> None:
        seat = self.turn
        if seat is None:
            return
        seat = self._next_seat[seat]
        if self._both_out:
            for _ in range(self.seats):
                if not self._is_out(seat):
                    break
                seat = (seat + 1) % self.seats
        self.turn = seat

    def _end_play(self, result: HandResult, out_seat: int | None) -> list[Event]:
        if result is _DOMINO and self._both_out and out_seat is not None:
            side = self.teams.side(out_seat)
            if not all(self._is_out(s) for s in side if s != out_seat):
                self._advance()
                return []
        self.result = result
        self.out_seat = out_seat
        self.turn = None
        self.phase = _COUNTING
        if self.hands is None:
            return []
        return self._score_hand([sum(map(_PIPS, h)) for h in self.hands])

    def _score_hand(self, pips: list[int]) -> list[Event]:
        outcome, points, scores = self._tally_hand(pips)
        assert self.result is not None
        events: list[Event] = [
            HandEvent(
                self.hand_no,
                self.result,
                outcome.winner,
                outcome.team,
                points,
                tuple(pips),
                scores,
                tuple(self.team_scores),
            )
        ]
        self.phase = _HAND_OVER
        if self._target_reached_at_once() or self._target_reached_end_of_hand():
            events.extend(self._game_over())
        elif self.last_hand:
            events.extend(self._game_over(Termination.TIME))
        return events

    def _tally_hand(self, pips: list[int]) -> tuple[HandOutcome, int, tuple[int, ...]]:
        """`_score_hand` but for the events, the phase and the target: the hand's winner
        and points credited, its record written (the outcome, points, scores)."""
        result = self.result
        assert result is not None
        hands = self.hands
        lightest = (
            [min(map(_PIPS, h), default=99) for h in hands]
            if hands and self.rules.ties is _LIGHTEST_TILE  # (the only rule that asks)
            else None
        )
        outcome: HandOutcome = hand_outcome(
            self.rules, self.teams, result, pips, self.out_seat, lightest
        )
        points = 0
        if outcome.split:
            for seat in outcome.split:
                points = self._add_points(seat, outcome.points)
        elif outcome.winner is not None and outcome.points:
            points = self._add_points(outcome.winner, outcome.points)
        self.last_winner = outcome.winner if outcome.winner is not None else self.leader
        scores = self.scores()
        counts = self.counts
        counted = counts.count(None) < len(counts)  # counts given (table mode)
        self.history.append(
            _hand_record(
                self.hand_no,
                result,
                outcome.winner,
                outcome.team,
                points,
                tuple(counts if counted else pips),
                scores,
            )
        )
        self.counts = list(pips)
        return outcome, points, scores

    def _points_made(self) -> int:
        return sum(self.seat_scores) + sum(self.team_scores)

    # --- the end of the game ---------------------------------------------------------------

    def _standings(self) -> list[tuple[int, int | None, int]]:
        """(score, team or None, a seat) per competitor."""
        if self.teams:
            return [(self.team_scores[i], i, g[0]) for i, g in enumerate(self.teams.groups)]
        return [(self.seat_scores[s], None, s) for s in range(self.seats)]

    def _target_reached_at_once(self) -> bool:
        if not self._checks_at_once or self.target is None:
            return False
        # Every competitor's score is its team's or, without partnerships, its seat's.
        scores = self.team_scores if self.teams.groups else self.seat_scores
        return max(scores) >= self.target

    def _target_reached_end_of_hand(self) -> bool:
        """A competitor at the target or above, alone in the lead."""
        target = self.target
        if target is None:
            return False
        scores = self.team_scores if self.teams.groups else self.seat_scores
        best = max(scores)
        return best >= target and (len(scores) == 1 or scores.count(best) == 1)

    def call_time(self) -> Judgement:
        """The round's clock ran out: the hand in play is the last one.

        Scored, it ends the game (`Termination.TIME`), won by the seat or team ahead
        (nobody when the lead is shared), unless it reached the target first. Between two
        hands (`HAND_OVER`) the game ends at once.
        """
        if self.phase is Phase.OVER:
            return self._refuse(Reason.WRONG_PHASE, detail="the game is over")
        self.last_hand = True
        if self.phase is _HAND_OVER:
            return Judgement(Reason.OK, tuple(self._game_over(Termination.TIME)))
        return Judgement(Reason.OK)

    def _game_over(self, termination: Termination | None = None) -> list[Event]:
        standings = self._standings()
        best, team, seat = max(standings, key=lambda s: s[0])
        winner: int | None = seat
        if termination is Termination.TIME and [s[0] for s in standings].count(best) > 1:
            team = winner = None  # level on time: nobody won
        self.winner = winner if team is None else None
        self.winning_team = team
        self.phase = Phase.OVER
        self.turn = None
        if termination is None:
            termination = (
                Termination.BEST_OF_WON if self.rules.best_of else Termination.TARGET_REACHED
            )
        self.termination = termination
        return [
            GameEvent(
                "over",
                self.winner,
                team,
                self.scores(),
                tuple(self.team_scores),
                tuple(self.names),
                self.rules.name,
                self.target,
                self.termination,
            )
        ]

    # --- helpers ------------------------------------------------------------------------------

    def _refuse(
        self,
        reason: Reason,
        tile: Tile | None = None,
        *,
        seat: int | None = None,
        pip: int | tuple[int, ...] | None = None,
        detail: str | None = None,
        at: Coords | None = None,
    ) -> Judgement:
        who = seat if seat is not None else self.turn
        text = message(
            reason,
            self.language,
            tile=tile,
            pip=pip,
            detail=detail,
            seat=self.names[who] if who is not None and 0 <= who < self.seats else None,
            turn=self.names[self.turn] if self.turn is not None else None,
        )
        tile_text = str(tile) if tile is not None else None
        return Judgement(reason, (AlertEvent(reason, text, who, tile_text, at),))

    def summary(self) -> dict[str, Any]:
        """The game as the engine knows it (the service adds what only it knows)."""
        layout = self._turn.layout
        teams = self.teams
        return {
            "rules": self.rules.name,
            "target": self.target,
            "hand": self.hand_no,
            "phase": self.phase.value,
            "turn": self.turn,
            "seats": [
                {
                    "seat": s,
                    "name": self.names[s],
                    "team": teams.of[s],
                    "score": self.score(s),
                    "tiles_left": self.tiles_left(s) if self.phase is not Phase.IDLE else None,
                }
                for s in range(self.seats)
            ],
            "teams": [
                {"team": i, "seats": list(g), "score": self.team_scores[i]}
                for i, g in enumerate(teams.groups)
            ],
            "layout": {
                "tiles": [
                    _placed(n.tile, self._turn.seats_of_plays[i], self._turn.coords[i])
                    for i, n in enumerate(layout.nodes)
                ],
                "spinner": str(layout.spinner) if layout.spinner is not None else None,
                "open_ends": [
                    {
                        "tile": str(layout.nodes[e.node].tile),
                        "pip": e.pip,
                        "counts": layout.end_counts(e),
                    }
                    for e in layout.ends
                ],
                "ends_total": layout.ends_total(),
            },
            "boneyard": len(self.boneyard) if self.boneyard is not None else self.boneyard_count,
            "history": [
                {
                    "hand": h.hand,
                    "result": h.result.value,
                    "winner": h.winner,
                    "team": h.team,
                    "points": h.points,
                    "pips": list(h.pips),
                    "scores": list(h.scores),
                }
                for h in self.history
            ],
        }


class _Lazy(Game):
    """A game with parts left to be made when first read: `_turn`, `_journal` and
    `_held` after a play-out (`engine.playout`, which keeps its inputs in a cheaper form)
    or after dealing the hand that follows one. A game is a `_Lazy` only while such
    parts are missing (the first read makes them and makes it a `Game` again): a class
    with `__getattr__` loses CPython's fast attribute loads, so `Game` has none.
    """

    def __getattr__(self, name: str) -> Any:
        if name == "_turn" or name == "_journal" or name == "_held":
            self._settle()
            return getattr(self, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        """`copy`, `deepcopy` and `pickle` see a `Game` with everything made: a shallow
        copy of the parts left to be made would share them, and each game would make
        the same inputs into the one journal."""
        self._settle()  # (a `Game` from here on)
        return self.__reduce_ex__(protocol)


def _fits(tile: Tile, numbers: frozenset[int]) -> bool:
    """Whether `tile` shows one of `numbers` (it could join an end showing it)."""
    return tile.high in numbers or tile.low in numbers


def _pips_of(pips: int | None, tiles: Sequence[Tile] | None) -> int | None:
    """A seat's pips: as given, else those of the tiles it shows (None: neither)."""
    if pips is not None or tiles is None:
        return pips
    return sum(t.pips for t in tiles)


def _placed(tile: Tile, seat: int | None, coords: Coords | None) -> dict[str, Any]:
    out: dict[str, Any] = {"tile": tile.text, "seat": seat}
    if coords is not None:
        out.update(coords.fields())
    return out


class _RejectedError(Exception):
    def __init__(self, judgement: Judgement) -> None:
        super().__init__(judgement.reason.value)
        self.judgement = judgement


_JOIN_REASONS = {
    JoinProblem.NO_MATCH: Reason.NO_MATCH,
    JoinProblem.NOT_TOUCHING: Reason.NOT_TOUCHING,
    JoinProblem.CLOSED_END: Reason.CLOSED_END,
    JoinProblem.AMBIGUOUS: Reason.AMBIGUOUS_END,
}


def _check_teams(groups: Sequence[Sequence[int]], seats: int) -> None:
    if not groups:
        return
    flat = [s for g in groups for s in g]
    if sorted(flat) != list(range(seats)) or any(len(g) < 1 for g in groups):
        raise RulesError(f"teams {list(map(list, groups))} must place each of {seats} seats once")
