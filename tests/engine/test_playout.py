"""`engine.playout.play_out` plays the same hands as `play_hand` with `RandomPlayer`s.

For the same deal and the same random numbers, a play-out and the per-turn path must
leave the game in the same state (layout and its topology, hands, boneyard, journal,
scores, history, phase...) hand after hand to the game's end, and the play-out's journal
replayed through a fresh game must make the events the per-turn path made. Every shipped
ruleset at every seat count, and variants of them that reach the rarer rules.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Event, Game, Mode, Phase, Rules, rulesets
from engine.players import RandomPlayer, play_hand, play_turn
from engine.playout import play_out, replay_events, unplayed
from engine.rules import (
    ArmsOpen,
    Boneyard,
    PlayScoring,
    SpinnerCounts,
    SpinnerRule,
    TargetCheck,
)

RULESETS = rulesets.names()


def variants() -> dict[str, Rules]:
    """Shipped rules bent to reach what no shipped ruleset does (the play-out must
    referee every option, through its own code or the general path)."""
    load = rulesets.load
    replace = dataclasses.replace
    return {
        "both-out": replace(load("outdoor"), both_partners_out=True, players=(4, 4)),
        "line-fives": replace(load("straight"), play_scoring=PlayScoring.FIVES, target=60),
        "block-threes": replace(
            load("straight-block"),
            play_scoring=PlayScoring.FIVES_AND_THREES,
            target_check=TargetCheck.AT_ONCE,
            exact_target=True,
            target=40,
        ),
        "every-spinner": replace(
            load("revisited"),
            spinner=SpinnerRule.EVERY_DOUBLE,
            spinner_counts=SpinnerCounts.ARMS_KEEP,
        ),
        "until-sides": replace(
            load("walnut"),
            spinner_counts=SpinnerCounts.UNTIL_SIDES,
            arms=ArmsOpen.AFTER_SIDES,
            target_check=TargetCheck.END_OF_HAND,
        ),
        "draw-one-keep": replace(load("straight"), boneyard_keep=2),
        "until-keep": replace(load("wooden"), boneyard_keep=3),
        "block-spinner": replace(
            load("outdoor"), spinner=SpinnerRule.FIRST_DOUBLE, boneyard=Boneyard.NONE
        ),
        "exact-walnut": replace(load("walnut"), exact_target=True, target=60),
        "divided-singles": replace(
            load("revisited"),
            play_scoring=PlayScoring.FIVES_DIVIDED,
            double_counts_both=False,
            players=(2, 4),
        ),
        # Options a `RandomPlayer` never takes: the play-out must not either.
        "draw-while-playable": replace(load("wooden"), draw_while_playable=True),
        "no-must-play": replace(load("straight-block"), must_play=False),
    }


VARIANTS = variants()


def rules_named(name: str) -> Rules:
    return VARIANTS[name] if name in VARIANTS else rulesets.load(name)


def setups() -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for name in [*RULESETS, *VARIANTS]:
        lo, hi = rules_named(name).players
        out.extend((name, seats) for seats in range(lo, hi + 1))
    return out


def state(game: Game) -> dict[str, Any]:
    """Everything a hand leaves in the game (reading it makes what a play-out left to
    be made when read)."""
    layout = game.layout
    turn = game.record
    return {
        "nodes": list(layout.nodes),
        "ends": list(layout.ends),
        "offers": list(layout.offers),
        "total": layout.total,
        "ends_total": layout.ends_total(),
        "inputs": game.hand_inputs(),
        "hands": game.hands,
        "held": game.held_bits(),
        "boneyard": game.boneyard,
        "boneyard_count": game.boneyard_count,
        "seat_scores": game.seat_scores,
        "team_scores": game.team_scores,
        "history": game.history,
        "result": game.result,
        "out_seat": game.out_seat,
        "phase": game.phase,
        "turn": game.turn,
        "leader": game.leader,
        "counts": game.counts,
        "last_winner": game.last_winner,
        "winner": (game.winner, game.winning_team, game.termination),
        "hand_no": game.hand_no,
        "refs": game.refs,
        "seats_of_plays": layout.seats(),
        "coords": [n.coords for n in layout.nodes],
        "played": turn.played,
        "drawn": turn.drawn,
        "passes": (turn.passes_in_row, turn.drew_this_turn),
        "knocks": turn.knocks,
        "summary": game.summary(),
    }


def assert_same_games(rules: Rules, seats: int, seed: int, *, head: int = 0) -> int:
    """Play a game both ways (and replayed), hand by hand to its end; the hands played.
    `head`: turns played per turn before each play-out takes over."""
    per_turn = Game(rules, seats, mode=Mode.FULL, seed=seed)
    played_out = Game(rules, seats, mode=Mode.FULL, seed=seed)
    replayed = Game(rules, seats, mode=Mode.FULL, seed=seed)
    unread = Game(rules, seats, mode=Mode.FULL, seed=seed)  # played out, never read mid-game
    assert per_turn.start() == played_out.start() == replayed.start() == unread.start()
    rng_a, rng_b = random.Random(seed + 1), random.Random(seed + 1)
    rng_c = random.Random(seed + 1)
    players = [RandomPlayer(rng_a)] * seats
    player_b = RandomPlayer(rng_b)
    for hand in range(1, 300):
        events: list[Event] = []
        for _ in range(head):
            if per_turn.phase in (Phase.LEAD, Phase.PLAY):
                events.extend(play_turn(per_turn, players[0]).events)
                assert play_turn(played_out, player_b).ok
        if head:
            for _ in range(head):
                if unread.phase in (Phase.LEAD, Phase.PLAY):
                    assert play_turn(unread, RandomPlayer(rng_c)).ok
        events.extend(play_hand(per_turn, players))
        laid = play_out(played_out, rng_b)
        play_out(unread, rng_c)
        assert unread.history == per_turn.history and unread.phase is per_turn.phase
        assert rng_a.getstate() == rng_b.getstate(), f"hand {hand}: the random numbers"
        assert laid == len(per_turn.layout)
        expected, actual = state(per_turn), state(played_out)
        for key, value in expected.items():
            assert actual[key] == value, f"hand {hand}: {key}"
        assert replay_events(replayed, played_out.hand_inputs()) == events, f"hand {hand}"
        assert state(replayed) == expected
        if per_turn.phase is Phase.OVER:
            assert state(unread) == expected
            return hand
        if not head:  # left to be made when the play-out's own path played (not per turn)
            assert unread.pending is (unplayed(rules) is None)
        for game in (per_turn, played_out, replayed, unread):
            assert game.next_hand().ok
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("name", "seats"), setups())
def test_a_play_out_plays_the_per_turn_game(name: str, seats: int) -> None:
    rules = rules_named(name)
    hands = 0
    for seed in range(4):
        hands += assert_same_games(rules, seats, seed)
    assert hands >= 4


@pytest.mark.parametrize("name", [*RULESETS, "every-spinner", "line-fives", "both-out"])
def test_a_play_out_takes_over_in_the_middle_of_a_hand(name: str) -> None:
    rules = rules_named(name)
    for head in (1, 3, 8):
        assert_same_games(
            rules, min(rules.players[0] + head % 2, rules.players[1]), head, head=head
        )


FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(st.sampled_from(setups()), st.integers(0, 2**32 - 1), st.integers(0, 4))
def test_a_play_out_plays_the_per_turn_game_any_seed(
    setup: tuple[str, int], seed: int, head: int
) -> None:
    name, seats = setup
    assert_same_games(rules_named(name), seats, seed, head=head)


def test_a_finished_hand_is_left_alone() -> None:
    game = Game(rulesets.load("walnut"), 2, mode=Mode.FULL, seed=5)
    game.start()
    rng = random.Random(5)
    laid = play_out(game, rng)
    before = (state(game), rng.getstate())
    assert play_out(game, rng) == laid
    assert (state(game), rng.getstate()) == before


def test_a_table_game_is_refused() -> None:
    game = Game(rulesets.load("walnut"), 2)
    game.start()
    with pytest.raises(ValueError, match="full information"):
        play_out(game, random.Random(1))


def _lazy_game(name: str, seats: int, dealt: bool) -> Game:
    """A game whose last hand was played out (its turn record and journal not made
    yet); `dealt`: and the next hand dealt (its turn record and bits not made)."""
    game = Game(rules_named(name), seats, mode=Mode.FULL, seed=11)
    game.start()
    rng = random.Random(11)
    for _ in range(3):
        play_out(game, rng)
        assert game.phase is Phase.HAND_OVER
        game.next_hand()
    play_out(game, rng)
    if dealt:
        game.next_hand()
    assert game.pending
    return game


def _pickled(game: Game) -> Game:
    copied: Game = pickle.loads(pickle.dumps(game))
    return copied


COPIES: dict[str, Callable[[Game], Game]] = {
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "pickle": _pickled,
}


@pytest.mark.parametrize("how", list(COPIES))
@pytest.mark.parametrize(
    ("name", "seats"), [("puerto-rico", 4), ("walnut", 2), ("every-spinner", 3)]
)
@pytest.mark.parametrize("dealt", [False, True])
def test_a_lazy_game_survives_copies_and_pickling(
    how: str, name: str, seats: int, dealt: bool
) -> None:
    """Copied or pickled while parts are left to be made, a game is made whole first: the
    copy equals the game as read, and (deep copies) plays on the same."""
    game = _lazy_game(name, seats, dealt)
    expected = _lazy_game(name, seats, dealt)
    copied = COPIES[how](game)
    assert type(copied) is Game
    assert state(copied) == state(game) == state(expected)
    if how != "copy":  # (a shallow copy shares the game's lists: not played on)
        for one in (copied, game):
            if one.phase is Phase.HAND_OVER:
                one.next_hand()
            play_out(one, random.Random(5))
        assert state(copied) == state(game)
