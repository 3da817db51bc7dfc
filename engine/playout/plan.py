"""Which rules the play-out plays itself, and what it needs of them.

Every field of `Rules` is in `RULES_PLAYED`, with how the play-out honours it and, for
the options its own code interprets, the values it implements. A ruleset with any other
value, or with a field the table does not name (one added to `Rules` since), is played
by the per-turn path (`engine.players.play_hand`, a `RandomPlayer` in every seat, the
same random numbers): the play-out never guesses. `tests/engine/test_playout_rules.py`
fails when a field of `Rules` is missing from the table.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import NamedTuple

from engine.rules import (
    ArmsOpen,
    Boneyard,
    PlayScoring,
    Rules,
    SpinnerCounts,
    SpinnerRule,
    TargetCheck,
)
from engine.scoring import play_points


class Handled(NamedTuple):
    """How the play-out honours one field of `Rules`."""

    how: str
    values: frozenset[object] | None = None  # the values it plays; None: every value


_DEAL = "the game's deal and lead (`Game.next_hand`), before the play-out starts"
_HAND_END = "the game's end-of-hand scoring (`Game.close_hand`), which the play-out calls"
_TARGET = "the game's target and its checks (`Game.close_hand`), which the play-out calls"
_NOT_PLAY = "not a rule of play"
_OWN = "the play-out's own code"

# The values of the options the play-out's own code interprets are listed member by
# member: a member added to an enum later is not played by it until it is listed here.
RULES_PLAYED: dict[str, Handled] = {
    "name": Handled(_NOT_PLAY),
    "title": Handled(_NOT_PLAY),
    "source": Handled(_NOT_PLAY),
    "decisions": Handled(_NOT_PLAY),
    "players": Handled(_DEAL),
    "sets": Handled(_DEAL),
    "hand_sizes": Handled(_DEAL),
    "boneyard": Handled(
        _OWN, frozenset({Boneyard.NONE, Boneyard.DRAW_ONE, Boneyard.DRAW_UNTIL_PLAYABLE})
    ),
    "boneyard_keep": Handled(_OWN),
    # Options the per-turn path never takes with a `RandomPlayer`: it draws only when it
    # has no play, and plays whenever it has one (only a judged `pass_turn` reads
    # `must_play`), as the play-out does.
    "draw_while_playable": Handled("a permission a `RandomPlayer` never takes"),
    "must_play": Handled("a `RandomPlayer` plays whenever it can"),
    "lead": Handled(_DEAL + "; a forced lead is led"),
    "lead_double": Handled(_DEAL),
    "no_double": Handled(_DEAL),
    "first_leader": Handled(_DEAL),
    "next_leader": Handled(_DEAL),
    "spinner": Handled(
        _OWN,
        frozenset(
            {
                SpinnerRule.NONE,
                SpinnerRule.LEAD_DOUBLE,
                SpinnerRule.FIRST_DOUBLE,
                SpinnerRule.EVERY_DOUBLE,
            }
        ),
    ),
    "arms": Handled(_OWN, frozenset({ArmsOpen.AT_ONCE, ArmsOpen.AFTER_SIDES})),
    "spinner_counts": Handled(
        _OWN,
        frozenset({SpinnerCounts.ONE_EDGE, SpinnerCounts.UNTIL_SIDES, SpinnerCounts.ARMS_KEEP}),
    ),
    "double_counts_both": Handled(_OWN, frozenset({True, False})),
    "play_scoring": Handled(
        _OWN + " (`engine.scoring.play_points`)",
        frozenset(
            {
                PlayScoring.NONE,
                PlayScoring.FIVES,
                PlayScoring.FIVES_DIVIDED,
                PlayScoring.FIVES_AND_THREES,
            }
        ),
    ),
    "domino_points": Handled(_HAND_END),
    "blocked_winner": Handled(_HAND_END),
    "blocked_points": Handled(_HAND_END),
    "rounding": Handled(_HAND_END),
    "divide_by": Handled(_HAND_END),
    "ties": Handled(_HAND_END),
    "partnerships": Handled("the game's teams (`Game.teams`)"),
    "both_partners_out": Handled(_OWN + ": one seat out ends the hand", frozenset({False})),
    "target": Handled(_TARGET),
    "best_of": Handled(_TARGET),
    "target_check": Handled(_OWN, frozenset({TargetCheck.AT_ONCE, TargetCheck.END_OF_HAND})),
    "exact_target": Handled("the game's crediting (`Game.credit`), which the play-out calls"),
    "announce_stitched": Handled("events only, and the play-out makes none"),
}
"""Every field of `Rules`: how the play-out honours it, and the values it plays."""


def unplayed(rules: Rules) -> str | None:
    """The first field of `rules` (as `name = value`) that the play-out leaves to the
    per-turn path; None when it plays every one."""
    for spec in fields(rules):
        handled = RULES_PLAYED.get(spec.name)
        value = getattr(rules, spec.name)
        if handled is None or (handled.values is not None and value not in handled.values):
            return f"{spec.name} = {value!r}"
    return None


POINTS_TABLE = 256  # play points are looked up for ends totals below this


@dataclass(frozen=True, slots=True)
class Plan:
    """What the play-out reads of a ruleset on every turn, worked out once per ruleset."""

    unplayed: str | None  # see `unplayed`: the hand goes to the per-turn path
    line: bool  # no spinner and no scoring in play: the layout is a line of two ends
    draws: bool
    draw_one: bool  # one draw a turn (else until playable)
    keep: int  # boneyard tiles never drawn
    knock: bool  # a block game: a pass records the numbers open (false knocks)
    scoring: PlayScoring
    scores: bool  # scoring during play
    points: list[int]  # the points a play scores by the ends total, below `POINTS_TABLE`
    every: bool  # every double a spinner
    lead_only: bool  # the lead double, if one leads
    first_only: bool  # the first double laid
    arms_at_once: bool  # a spinner's arms open with it (else after both its sides)
    both: bool  # a double counts both halves on an end
    one_edge: bool  # a spinner counts while played off one edge at most
    arms_keep: bool  # past its sides, a spinner's open arms count its number each
    at_once: bool  # the game ends the moment a score reaches the target

    @classmethod
    def of(cls, rules: Rules) -> Plan:
        spinner, counts, scoring = rules.spinner, rules.spinner_counts, rules.play_scoring
        return cls(
            unplayed=unplayed(rules),
            line=spinner is SpinnerRule.NONE and scoring is PlayScoring.NONE,
            draws=rules.draws,
            draw_one=rules.boneyard is Boneyard.DRAW_ONE,
            keep=rules.boneyard_keep,
            knock=not rules.draws,
            scoring=scoring,
            scores=scoring is not PlayScoring.NONE,
            points=[play_points(scoring, total) for total in range(POINTS_TABLE)],
            every=spinner is SpinnerRule.EVERY_DOUBLE,
            lead_only=spinner is SpinnerRule.LEAD_DOUBLE,
            first_only=spinner is SpinnerRule.FIRST_DOUBLE,
            arms_at_once=rules.arms is ArmsOpen.AT_ONCE,
            both=rules.double_counts_both,
            one_edge=counts is SpinnerCounts.ONE_EDGE,
            arms_keep=counts is SpinnerCounts.ARMS_KEEP,
            at_once=rules.target_check is TargetCheck.AT_ONCE,
        )


_PLANS: dict[int, tuple[Rules, Plan]] = {}  # by id(rules), the rules kept (ids not reused)


def plan_for(rules: Rules) -> Plan:
    """The ruleset's plan, worked out on its first play-out (`Rules` holds dicts: not
    hashable, so the plans are kept by identity)."""
    known = _PLANS.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    if len(_PLANS) >= 256:  # (rulesets made by the thousand, in tests: forget the old)
        _PLANS.clear()
    plan = _PLANS[id(rules)] = (rules, Plan.of(rules))
    return plan[1]
