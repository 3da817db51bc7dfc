"""Scoring: points made during play, and the end of a hand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from engine.events import HandResult
from engine.rules import BlockedWinner, HandPoints, PlayScoring, Rounding, Rules, Ties

# Enum members as module names: a lookup on an enum class goes through the enum
# metaclass's __getattr__ hook (slow on the per-hand path), a global load does not.
_ALL = HandPoints.ALL
_DOMINO = HandResult.DOMINO
_DOWN_5 = Rounding.DOWN_5
_FIVES = PlayScoring.FIVES
_FIVES_DIVIDED = PlayScoring.FIVES_DIVIDED
_LIGHTEST_TEAM = BlockedWinner.LIGHTEST_TEAM
_LIGHTEST_TILE = Ties.LIGHTEST_TILE
_NEAREST_5 = Rounding.NEAREST_5
_NOBODY = BlockedWinner.NOBODY
_NONE = PlayScoring.NONE
_ONE = HandPoints.ONE
_OPPONENTS = HandPoints.OPPONENTS
_OPPONENTS_MINUS_OWN = HandPoints.OPPONENTS_MINUS_OWN
_OTHERS = HandPoints.OTHERS
_SPLIT = Ties.SPLIT
_UP_5 = Rounding.UP_5


def play_points(scoring: PlayScoring, ends_total: int) -> int:
    """Points a play scores when the open ends add up to `ends_total`."""
    if scoring is _NONE or ends_total <= 0:
        return 0
    if scoring is _FIVES:
        return ends_total if ends_total % 5 == 0 else 0
    if scoring is _FIVES_DIVIDED:
        return ends_total // 5 if ends_total % 5 == 0 else 0
    points = 0
    if ends_total % 5 == 0:
        points += ends_total // 5
    if ends_total % 3 == 0:
        points += ends_total // 3
    return points


def round_points(rounding: Rounding, points: int) -> int:
    if rounding is _NEAREST_5:
        return (points + 2) // 5 * 5  # 0-2 down, 3-4 up: whole pips never meet a half
    if rounding is _UP_5:
        return -(-points // 5) * 5
    if rounding is _DOWN_5:
        return points // 5 * 5
    return points


class HandOutcome(NamedTuple):
    """Who wins a hand and what they score (a named tuple: cheap to make, once a hand)."""

    winner: int | None
    team: int | None
    points: int
    split: tuple[int, ...] = ()  # seats sharing the points (Ties.SPLIT)


# tuple.__new__ builds a named tuple in C, skipping its Python-level __new__.
_new = tuple.__new__


class Teams:
    """Who plays with whom: `of[seat]` is the seat's team, or None without partnerships."""

    def __init__(self, seats: int, teams: Sequence[Sequence[int]]) -> None:
        self.seats = seats
        self.groups: tuple[tuple[int, ...], ...] = tuple(tuple(t) for t in teams)
        self.of: list[int | None] = [None] * seats
        for i, group in enumerate(self.groups):
            for seat in group:
                self.of[seat] = i

    def __bool__(self) -> bool:
        return bool(self.groups)

    def side(self, seat: int) -> tuple[int, ...]:
        """The seats that win or lose with `seat` (itself alone without partnerships)."""
        team = self.of[seat]
        return (seat,) if team is None else self.groups[team]


def hand_outcome(
    rules: Rules,
    teams: Teams,
    result: HandResult,
    pips: Sequence[int],
    out_seat: int | None,
    lightest_tile: Sequence[int] | None = None,
) -> HandOutcome:
    """Who wins a finished hand and what they score, before any target check."""
    if result is _DOMINO:
        assert out_seat is not None
        return _points(rules, rules.domino_points, teams, pips, out_seat)
    winner = _blocked_winner(rules, teams, pips, lightest_tile)
    if isinstance(winner, tuple):
        share = _points(rules, rules.blocked_points, teams, pips, winner[0])
        return _new(HandOutcome, (None, None, share.points // len(winner), winner))
    if winner is None:
        return _new(HandOutcome, (None, None, 0, ()))
    return _points(rules, rules.blocked_points, teams, pips, winner)


def _blocked_winner(
    rules: Rules, teams: Teams, pips: Sequence[int], lightest_tile: Sequence[int] | None
) -> int | tuple[int, ...] | None:
    if rules.blocked_winner is _NOBODY:
        return None
    if rules.blocked_winner is _LIGHTEST_TEAM and teams.groups:
        totals = [sum(map(pips.__getitem__, group)) for group in teams.groups]
        best = min(totals)
        if totals.count(best) > 1:
            return None
        group = teams.groups[totals.index(best)]
        return min(group, key=lambda s: pips[s])
    best = min(pips)
    tied = [s for s, p in enumerate(pips) if p == best]
    if len(tied) == 1 or (len({teams.of[s] for s in tied} - {None}) == 1 and teams.groups):
        return tied[0]
    if rules.ties is _LIGHTEST_TILE and lightest_tile is not None:
        lightest = min(lightest_tile[s] for s in tied)
        holders = [s for s in tied if lightest_tile[s] == lightest]
        return holders[0] if len(holders) == 1 else None
    if rules.ties is _SPLIT:
        return tuple(tied)
    return None


def _points(
    rules: Rules, kind: HandPoints, teams: Teams, pips: Sequence[int], winner: int
) -> HandOutcome:
    side = teams.side(winner)  # distinct seats, the winner's among them
    side_pips = sum(map(pips.__getitem__, side))  # in C: no generator once a hand
    own = side_pips if teams.groups else pips[winner]
    opponents = sum(pips) - side_pips
    if kind is _OPPONENTS:
        raw = opponents
    elif kind is _OTHERS:
        raw = sum(pips) - pips[winner]
    elif kind is _ALL:
        raw = sum(pips)
    elif kind is _OPPONENTS_MINUS_OWN:
        raw = max(0, opponents - own)
    elif kind is _ONE:
        raw = 1
    else:
        raw = 0
    if kind is not _ONE:
        raw = round_points(rules.rounding, raw) // rules.divide_by
    return _new(HandOutcome, (winner, teams.of[winner], raw, ()))
