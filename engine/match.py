"""The match: hands dealt and led, finished hands scored, the game to its end.

`Match` is a part a `Game` holds beside the hand in play (`engine.hand`, which the game
is built on): it deals each hand (full information) or sets out what the table will be
told (table mode), chooses who leads, scores a finished hand by the ruleset
(`engine.scoring`), keeps the scoresheet (`history`) and ends the game at the target,
after the best of N, or when the round's clock ran out. It answers the hand's two
hooks, `score_hand` and `game_over` (through the game). Judging inputs is the
referee's (`engine.referee`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial
from itertools import starmap
from operator import attrgetter, itemgetter
from typing import Any

from engine.events import Coords, Event, GameEvent, HandEvent, HandResult, Termination
from engine.hand import HandState, Mode, Phase
from engine.record import HandStart
from engine.rules import FirstLeader, LeadRule, NextLeader, NoDouble, Rules, RulesError, Ties
from engine.scoring import HandOutcome, hand_outcome
from engine.tiles import Tile

_HAND_OVER = Phase.HAND_OVER
_LIGHTEST_TILE = Ties.LIGHTEST_TILE
_ANY_LEAD, _SET_DOUBLE = LeadRule.ANY, LeadRule.SET_DOUBLE  # (asked every deal)
_FULL = Mode.FULL
_PIPS = attrgetter("pips")  # a tile's pips, in C
SeatCount = tuple[int | None, tuple[Tile, ...] | None]  # a seat's count: (pips, tiles shown)


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
# their descriptors, which `hand_record` does (frozen applies to __setattr__ only).
_RECORD_SLOTS = tuple(
    HandRecord.__dict__[name].__set__
    for name in ("hand", "result", "winner", "team", "points", "pips", "scores")
)
_new_object = object.__new__


def hand_record(
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
class MatchState:
    """What the match keeps beyond the hand in play, as `Match.snapshot` saved it."""

    history: list[HandRecord]  # the scoresheet
    counts: list[int | None]
    last_winner: int | None
    winner: int | None
    winning_team: int | None
    termination: Termination | None
    last_hand: bool
    counted: dict[int, SeatCount]


class Match:
    """The game to its end, over the hand in play: a part of a `Game`, which holds it
    (see the module doc). It keeps the scoresheet and the game's end; the hand in play
    is the game's own (`engine.hand.HandState`)."""

    def __init__(self, game: HandState, seed: int | None) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.history: list[HandRecord] = []
        self.winner: int | None = None
        self.winning_team: int | None = None
        self.termination: Termination | None = None
        self.last_hand = False  # the clock ran out: the hand in play ends the game
        self.counts: list[int | None] = [None] * game.seats
        self.counted: dict[int, SeatCount] = {}  # each seat's count given so far this hand
        self.last_winner: int | None = None
        self._plan_deal(game.rules, game.seats)

    def _plan_deal(self, rules: Rules, seats: int) -> None:
        """What every deal reads, worked out once (the rules are immutable)."""
        g = self.game
        self._set_list = g.set.tiles()
        self._no_args = [()] * len(self._set_list)  # (the deal's random keys: one call each)
        n = g.hand_size
        self._dealt = n * seats
        self._slice_hands = itemgetter(*[slice(i * n, (i + 1) * n) for i in range(seats)])
        self._rotate = rules.next_leader is NextLeader.ROTATE
        self._winner_leads = rules.next_leader is NextLeader.WINNER

    # --- starting hands -------------------------------------------------------------------

    def start(self) -> list[Event]:
        """Start the game and its first hand."""
        g = self.game
        if g.phase is not Phase.IDLE:
            return []
        started = GameEvent(
            "started",
            None,
            None,
            g.scores(),
            tuple(g.team_scores),
            tuple(g.names),
            g.rules.name,
            g.target,
        )
        return [started, *self.begin_hand()]

    def begin_hand(self, *, redeal: bool = False) -> list[Event]:
        """Deal the next hand (`redeal`: the same hand again, with the same leader unless
        the deal decides it) and choose its leader."""
        g = self.game
        previous = g.hand_start
        number = g.hand_no + 1
        self.counts = [None] * g.seats
        self.counted = {}
        hands: list[list[Tile]] | None = None
        boneyard: list[Tile] | None = None
        if g.mode is _FULL:
            hands, boneyard = self.deal()
        leader, forced, must_double, hands, boneyard = self._choose_leader(
            number, previous, hands, boneyard
        )
        if redeal and previous is not None and forced is None and not must_double:
            leader = previous.leader  # a redeal keeps the hand's leader
        boneyard_count: int | None = None
        if hands is None:  # (extra draws for a double, before the lead, are told too)
            boneyard_count = g.set.size - self._dealt if g.rules.draws else 0
        # `HandStart(...)` field by field: a dataclass's __init__ is a dear call.
        start: HandStart = _new_object(HandStart)
        start.number = number
        start.leader = leader
        start.forced_lead = forced
        start.lead_must_be_double = must_double
        start.hands = list(map(list, hands)) if hands is not None else None
        start.boneyard = list(boneyard) if boneyard is not None else None
        start.boneyard_count = boneyard_count
        start.seat_scores = list(g.seat_scores)
        start.team_scores = list(g.team_scores)
        g.begin(start, hands, boneyard)
        return []

    def deal(self) -> tuple[list[list[Tile]], list[Tile]]:
        """A shuffled deal from the game's random numbers: the hands and the boneyard."""
        # A uniform shuffle: the set sorted by random float keys (one C-level sort, the
        # float comparisons being the cheapest, instead of a Python loop). `sorted` works
        # out each tile's key once, in order, so the key function draws the i-th number
        # for the i-th tile of the set, in C: the same shuffle as sorting the indices by
        # a list of keys (tests/engine/test_perf_fastpaths.py). The hands are sliced by
        # slices made once per game.
        tiles = sorted(self._set_list, key=partial(next, starmap(self.rng.random, self._no_args)))
        return list(self._slice_hands(tiles)), tiles[self._dealt :]

    def _choose_leader(
        self,
        number: int,
        previous: HandStart | None,
        hands: list[list[Tile]] | None,
        boneyard: list[Tile] | None,
    ) -> tuple[int | None, Tile | None, bool, list[list[Tile]] | None, list[Tile] | None]:
        """(leader or None if unknown, forced lead tile, lead must be a double, hands, yard)."""
        g = self.game
        rules = g.rules
        first = number == 1
        before = previous.leader if previous is not None else None
        if not first and self._rotate:
            return (
                (None if before is None else (before + 1) % g.seats),
                None,
                False,
                hands,
                boneyard,
            )
        if not first and self._winner_leads:
            prev = self.last_winner if self.last_winner is not None else before
            return prev, None, False, hands, boneyard
        if rules.lead is _ANY_LEAD:
            if rules.first_leader is FirstLeader.SEAT_ZERO:
                return 0, None, False, hands, boneyard
            if hands is None:
                return None, None, False, None, None
            return self._draw_for_lead(), None, False, hands, boneyard
        return self._lead_by_tile(hands, boneyard)

    def _draw_for_lead(self) -> int:
        g = self.game
        tiles = list(g.set.tiles())
        self.rng.shuffle(tiles)
        drawn = tiles[: g.seats]
        best = max(drawn, key=lambda t: (t.pips, t.is_double, t.high))
        return drawn.index(best)

    def _lead_by_tile(
        self, hands: list[list[Tile]] | None, boneyard: list[Tile] | None
    ) -> tuple[int | None, Tile | None, bool, list[list[Tile]] | None, list[Tile] | None]:
        g = self.game
        rules = g.rules
        if hands is None:  # table mode: the players tell who holds it
            everything_dealt = self._dealt == g.set.size
            forced: Tile | None = None
            if rules.lead is LeadRule.SET_DOUBLE and everything_dealt:
                forced = Tile(rules.lead_double or 0, rules.lead_double or 0)
            elif rules.lead is LeadRule.HIGHEST_DOUBLE and everything_dealt:
                forced = Tile(g.set.max_pip, g.set.max_pip)
            must_double = rules.lead is LeadRule.HIGHEST_DOUBLE and (
                rules.no_double is not NoDouble.HIGHEST_TILE
            )
            return None, forced, must_double or rules.lead is LeadRule.SET_DOUBLE, None, None
        assert boneyard is not None
        for _ in range(1000):
            found = self._holder_of_lead(hands)
            if found is not None:
                return found[0], found[1], False, hands, boneyard
            if rules.no_double is NoDouble.DRAW_MORE and len(boneyard) >= g.seats:
                for hand in hands:
                    hand.append(boneyard.pop())
                continue
            if rules.no_double is NoDouble.HIGHEST_TILE or rules.lead is (
                LeadRule.HIGHEST_DOUBLE_ELSE_HIGHEST_TILE
            ):
                tile = max((t for h in hands for t in h), key=lambda t: (t.pips, t.high))
                seat = next(s for s, h in enumerate(hands) if tile in h)
                return seat, tile, False, hands, boneyard
            hands, boneyard = self.deal()
        raise RulesError(f"{rules.name}: no hand could lead after 1000 deals")

    def _holder_of_lead(self, hands: list[list[Tile]]) -> tuple[int, Tile] | None:
        g = self.game
        rules = g.rules
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

    # --- finished hands ---------------------------------------------------------------------

    def score_hand(self, pips: list[int]) -> list[Event]:
        """The hand's end, scored with each seat's `pips`: its event, and the game's end
        when it came."""
        g = self.game
        outcome, points, scores = self._tally_hand(pips)
        assert g.result is not None
        events: list[Event] = [
            HandEvent(
                g.hand_no,
                g.result,
                outcome.winner,
                outcome.team,
                points,
                tuple(pips),
                scores,
                tuple(g.team_scores),
            )
        ]
        events.extend(self._after_hand())
        return events

    def close_hand(self, result: HandResult | None, out_seat: int | None, pips: list[int]) -> None:
        """A hand played to its end in one go (`engine.playout`): ended as `result`
        (`out_seat` went out) and scored with `pips`, as `end_play` and `score_hand` do
        it, without the events. `result` None: a score reached an at-once target during
        play, and the game is over."""
        g = self.game
        if result is None:
            self.game_over()
            return
        g.result = result
        g.out_seat = out_seat
        g.turn = None
        self._tally_hand(pips)
        self._after_hand()

    def _after_hand(self) -> list[Event]:
        """The hand scored: over, and the game too at the target or when time ran out."""
        g = self.game
        g.phase = _HAND_OVER
        if g.target_reached_at_once() or self._target_reached_end_of_hand():
            return self.game_over()
        if self.last_hand:
            return self.game_over(Termination.TIME)
        return []

    def _tally_hand(self, pips: list[int]) -> tuple[HandOutcome, int, tuple[int, ...]]:
        """The hand's winner and points credited, its record written (the outcome,
        points, scores)."""
        g = self.game
        result = g.result
        assert result is not None
        hands = g.hands
        lightest = (
            [min(map(_PIPS, h), default=99) for h in hands]
            if hands and g.rules.ties is _LIGHTEST_TILE  # (the only rule that asks)
            else None
        )
        outcome: HandOutcome = hand_outcome(g.rules, g.teams, result, pips, g.out_seat, lightest)
        points = 0
        if outcome.split:
            for seat in outcome.split:
                points = g.credit(seat, outcome.points)
        elif outcome.winner is not None and outcome.points:
            points = g.credit(outcome.winner, outcome.points)
        self.last_winner = outcome.winner if outcome.winner is not None else g.leader
        scores = g.scores()
        counts = self.counts
        counted = counts.count(None) < len(counts)  # counts given (table mode)
        self.history.append(
            hand_record(
                g.hand_no,
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

    def points_made(self) -> int:
        """Every point credited so far, in this game."""
        g = self.game
        return sum(g.seat_scores) + sum(g.team_scores)

    # --- the end of the game ---------------------------------------------------------------

    def _standings(self) -> list[tuple[int, int | None, int]]:
        """(score, team or None, a seat) per competitor."""
        g = self.game
        if g.teams:
            return [(g.team_scores[i], i, group[0]) for i, group in enumerate(g.teams.groups)]
        return [(g.seat_scores[s], None, s) for s in range(g.seats)]

    def _target_reached_end_of_hand(self) -> bool:
        """A competitor at the target or above, alone in the lead."""
        g = self.game
        target = g.target
        if target is None:
            return False
        scores = g.team_scores if g.teams.groups else g.seat_scores
        best = max(scores)
        return best >= target and (len(scores) == 1 or scores.count(best) == 1)

    def game_over(self, termination: Termination | None = None) -> list[Event]:
        """The game ends now (by default at the target, or after the best of N)."""
        g = self.game
        standings = self._standings()
        best, team, seat = max(standings, key=lambda s: s[0])
        winner: int | None = seat
        if termination is Termination.TIME and [s[0] for s in standings].count(best) > 1:
            team = winner = None  # level on time: nobody won
        self.winner = winner if team is None else None
        self.winning_team = team
        g.phase = Phase.OVER
        g.turn = None
        if termination is None:
            termination = Termination.BEST_OF_WON if g.rules.best_of else Termination.TARGET_REACHED
        self.termination = termination
        return [
            GameEvent(
                "over",
                self.winner,
                team,
                g.scores(),
                tuple(g.team_scores),
                tuple(g.names),
                g.rules.name,
                g.target,
                self.termination,
            )
        ]

    # --- snapshot and restore ---------------------------------------------------------------

    def state(self) -> MatchState:
        """What the match keeps, copied: `put_back` restores it (`Game.snapshot`)."""
        return MatchState(
            list(self.history),
            list(self.counts),
            self.last_winner,
            self.winner,
            self.winning_team,
            self.termination,
            self.last_hand,
            dict(self.counted),
        )

    def put_back(self, kept: MatchState) -> None:
        """What `state` saved, back (copied again: the state may be put back twice)."""
        self.history = list(kept.history)
        self.counts = list(kept.counts)
        self.last_winner, self.winner = kept.last_winner, kept.winner
        self.winning_team, self.termination = kept.winning_team, kept.termination
        self.last_hand = kept.last_hand
        self.counted = dict(kept.counted)

    # --- reading ----------------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """The game as the engine knows it (the service adds what only it knows)."""
        g = self.game
        t = g.record
        layout = t.layout
        teams = g.teams
        return {
            "rules": g.rules.name,
            "target": g.target,
            "hand": g.hand_no,
            "phase": g.phase.value,
            "turn": g.turn,
            "seats": [
                {
                    "seat": s,
                    "name": g.names[s],
                    "team": teams.of[s],
                    "score": g.score(s),
                    "tiles_left": g.tiles_left(s) if g.phase is not Phase.IDLE else None,
                }
                for s in range(g.seats)
            ],
            "teams": [
                {"team": i, "seats": list(group), "score": g.team_scores[i]}
                for i, group in enumerate(teams.groups)
            ],
            "layout": {
                "tiles": [_placed(n.tile, n.seat, n.coords) for n in layout.nodes],
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
            "boneyard": len(g.boneyard) if g.boneyard is not None else g.boneyard_count,
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


def _placed(tile: Tile, seat: int | None, coords: Coords | None) -> dict[str, Any]:
    out: dict[str, Any] = {"tile": tile.text, "seat": seat}
    if coords is not None:
        out.update(coords.fields())
    return out
