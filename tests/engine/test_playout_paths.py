"""The play-out's line is the fast path of its web: the same hand, played either way.

`engine.playout.line` plays a layout of two ends in local variables; `engine.playout.web`
plays any layout with its open ends as integers. On the rules that make a line (no
spinner, no scoring in play) both must take the same random numbers to the same hand:
the same layout, journal, hands, scores and ending, from a fresh deal or from the middle
of a hand.
"""

from __future__ import annotations

import dataclasses
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Game, Mode, Phase
from engine.players import RandomPlayer, play_turn
from engine.playout.access import begin, finish
from engine.playout.line import play_line
from engine.playout.plan import plan_for
from engine.playout.web import play_web
from tests.engine.test_playout import rules_named, setups, state

LINES = [(n, s) for n, s in setups() if plan_for(rules_named(n)).line]
SOME = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def played_out(name: str, seats: int, seed: int, head: int, *, line: bool) -> Game:
    """A game whose first hand was played `head` turns per turn, then out by the line's
    code or the web's."""
    rules = rules_named(name)
    game = Game(rules, seats, mode=Mode.FULL, seed=seed)
    game.start()
    rng = random.Random(seed)
    for _ in range(head):
        if game.phase in (Phase.LEAD, Phase.PLAY):
            assert play_turn(game, RandomPlayer(rng)).ok
    if game.phase not in (Phase.LEAD, Phase.PLAY):
        return game
    plan = plan_for(rules)
    snap, hand = begin(game)
    if line:
        finish(game, snap, hand, plan, play_line(hand, plan, rng.random), line=True)
    else:
        web = dataclasses.replace(plan, line=False)
        finish(game, snap, hand, web, play_web(game, hand, web, rng.random), line=False)
    return game


def test_the_rules_that_make_a_line_are_played_both_ways() -> None:
    assert {n for n, _ in LINES} >= {"outdoor", "puerto-rico", "straight", "wooden"}


@SOME
@given(st.sampled_from(LINES), st.integers(0, 2**32 - 1), st.integers(0, 12))
def test_the_line_plays_a_hand_as_the_web_does(
    setup: tuple[str, int], seed: int, head: int
) -> None:
    name, seats = setup
    fast = played_out(name, seats, seed, head, line=True)
    plain = played_out(name, seats, seed, head, line=False)
    assert state(fast) == state(plain)
