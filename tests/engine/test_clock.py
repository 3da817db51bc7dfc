"""The round's clock in the engine: `Game.call_time()` makes the hand in play the last one.

Walnut for two, the leaflet's opening: 5-5 (10 to seat 0), 5-0 (10 to seat 1), 5-3
(nothing), 2-0 (5 more to seat 1); then the hand is blocked and counted.
"""

from __future__ import annotations

import random

from engine import Game, Mode, Phase, Target, Tile, rulesets
from engine.events import Event, GameEvent, HandEvent, Reason, Termination
from engine.players import RandomPlayer, play_turn

t = Tile.parse


def opening(target: int | None = None) -> Game:
    game = Game(rulesets.load("walnut"), 2, target=target)
    game.start()
    assert game.play(t("5-5"), seat=0).ok
    assert game.play(t("5-0"), Target(t("5-5"))).ok
    return game


def finish_hand(game: Game, pips: list[int]) -> list[object]:
    assert game.play(t("5-3"), Target(t("5-5"))).ok
    assert game.play(t("2-0"), Target(t("5-0"))).ok
    assert game.end_hand().ok
    judged = game.count(pips)
    assert judged.ok, judged
    return list(judged.events)


def test_time_called_mid_hand_ends_the_game_when_that_hand_is_scored() -> None:
    game = opening()
    assert game.call_time() == (Reason.OK, ())  # nothing ends yet
    assert game.last_hand and game.phase is Phase.PLAY
    events = finish_hand(game, [20, 20])
    hand, over = events
    assert isinstance(hand, HandEvent) and isinstance(over, GameEvent)
    assert over.event == "over" and over.termination is Termination.TIME
    assert (over.winner, over.scores) == (1, (10, 15))  # the seat ahead wins
    assert over.payload()["reason"] == "time"
    assert game.phase is Phase.OVER and game.winner == 1


def test_without_the_clock_the_same_hand_goes_on_to_the_next() -> None:
    game = opening()
    events = finish_hand(game, [20, 20])
    assert [type(e) for e in events] == [HandEvent]
    assert game.phase is Phase.HAND_OVER and not game.last_hand


def test_time_called_between_hands_ends_the_game_at_once() -> None:
    game = opening()
    finish_hand(game, [20, 20])
    judged = game.call_time()
    assert judged.ok
    (over,) = judged.events
    assert isinstance(over, GameEvent) and over.termination is Termination.TIME
    assert over.winner == 1 and game.phase is Phase.OVER


def test_level_when_time_runs_out_nobody_wins() -> None:
    game = Game(rulesets.load("walnut"), 2)
    game.start()
    assert game.play(t("5-5"), seat=0).ok  # 10 to seat 0
    assert game.play(t("5-0"), Target(t("5-5"))).ok  # 10 to seat 1
    assert game.call_time().ok
    assert game.end_hand().ok
    _, over = game.count([20, 20]).events
    assert isinstance(over, GameEvent)
    assert (over.winner, over.team, over.scores) == (None, None, (10, 10))
    assert over.payload()["reason"] == "time"


def test_the_target_reached_in_the_last_hand_says_target() -> None:
    game = opening(target=15)  # 2-0 makes seat 1's 15 at once
    assert game.call_time().ok
    assert game.play(t("5-3"), Target(t("5-5"))).ok
    judged = game.play(t("2-0"), Target(t("5-0")))
    over = judged.events[-1]
    assert isinstance(over, GameEvent) and over.termination is Termination.TARGET_REACHED
    assert over.payload()["reason"] == "target"


def test_time_cannot_be_called_on_a_finished_game() -> None:
    game = opening(target=15)
    assert game.play(t("5-3"), Target(t("5-5"))).ok
    assert game.play(t("2-0"), Target(t("5-0"))).ok
    assert game.phase is Phase.OVER
    judged = game.call_time()
    assert not judged.ok and judged.reason is Reason.WRONG_PHASE


def test_full_information_game_ends_after_the_hand_in_play() -> None:
    for seed in range(5):
        game = Game(rulesets.load("walnut"), 4, mode=Mode.FULL, seed=seed, target=10_000)
        players = [RandomPlayer(random.Random(seed * 10 + s)) for s in range(4)]
        game.start()
        assert game.call_time().ok
        events: list[Event] = []
        while game.phase in (Phase.LEAD, Phase.PLAY):
            assert game.turn is not None
            events += play_turn(game, players[game.turn]).events
        over = events[-1]
        assert isinstance(over, GameEvent) and over.termination is Termination.TIME
        assert game.hand_no == 1
        scores = list(over.scores)
        leaders = [s for s, score in enumerate(scores) if score == max(scores)]
        assert over.winner == (leaders[0] if len(leaders) == 1 else None)


def test_every_termination_has_the_spec_reason() -> None:
    assert {t.reason for t in Termination} == {"target", "rounds", "time", "agreed"}
