"""A knock proven false by a later play (found after issue 15): a seat that knocked and
later plays a tile that fitted an end open then held it when it knocked, unless it may
have drawn it since. The play stands; the knock is told (`FALSE_KNOCK`) at that play."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from engine import Game, HandEvent, Judgement, Reason, Target, Tile, rulesets
from engine.events import PlayEvent
from tests.engine.replaying import alerts, judged_alerts, run

t = Tile.parse


knocks = partial(judged_alerts, reason=Reason.FALSE_KNOCK)


def test_a_block_game_play_after_a_knock_proves_it_false_once() -> None:
    events = run("straight-block-knock-then-play.jsonl")
    assert alerts(events) == [("FALSE_KNOCK", "illegal", 1, "6-2")]
    (alert,) = [e for e in events if e["type"] == "alert"]
    assert alert["message"] == "Player 2 passed holding 6-2, which fitted."
    before = events[events.index(alert) - 1]
    assert (before["type"], before["tile"], before["seat"]) == ("play", "6-2", 1)  # it stands
    (hand,) = [e for e in events if e["type"] == "hand"]
    assert (hand["result"], hand["winner"], hand["points"], hand["pips"]) == (
        "blocked",
        1,
        5,
        [35, 30],
    )


def test_every_block_and_after_a_pass_draw_game_catches_it() -> None:
    """Outdoor (block: "the rest are sleeping"), wooden (draw until playable: a pass means
    the boneyard is empty, so nothing can be drawn after it)."""
    for name in ("outdoor", "wooden", "straight-block"):
        game = Game(rulesets.load(name), 2)
        game.start()
        assert game.play(t("6-6"), seat=0).ok
        assert game.pass_turn(1).ok
        assert game.play(t("6-5"), Target(t("6-6"))).ok
        played = game.play(t("6-2"), Target(t("6-6")))
        assert played.ok and isinstance(played.events[0], PlayEvent), name
        assert knocks(played) == [(1, "6-2", "Player 2 passed holding 6-2, which fitted.")]
        assert game.layout.index_of(t("6-2")) is not None


def _draw_one_knock(game: Game) -> None:
    """Straight, draw form: seat 1 draws, knocks on a 6; seat 0 plays 6-5; seat 1 draws
    again and plays 6-2, which it may just have drawn: no alert."""
    told: list[Callable[[Game], Judgement]] = [
        lambda g: g.play(t("6-6"), seat=0),
        lambda g: g.draw(1),
        lambda g: g.pass_turn(1),  # the knock: 6 open, one tile drawn
        lambda g: g.play(t("6-5"), Target(t("6-6"))),
        lambda g: g.draw(1),
    ]
    assert all(step(game).ok for step in told)
    played = game.play(t("6-2"), Target(t("6-6")))
    assert played.ok and knocks(played) == []


def test_a_draw_one_play_proves_a_knock_only_beyond_the_draws_since() -> None:
    game = Game(rulesets.load("straight"), 2)
    game.start()
    _draw_one_knock(game)
    assert game.play(t("5-4"), Target(t("6-5"))).ok  # ends 4 and 2
    played = game.play(t("6-4"), Target(t("5-4")))  # a second tile with a 6, no draw since
    assert played.ok
    assert knocks(played) == [(1, None, "Player 2 passed holding 6-2 or 6-4, which fitted.")]


def test_the_count_weighs_tiles_played_since_with_those_shown() -> None:
    game = Game(rulesets.load("straight"), 2)
    game.start()
    _draw_one_knock(game)
    assert game.end_hand().ok
    held_by_0 = [t(x) for x in ("5-5", "4-4", "3-3", "2-2", "1-1")]  # 7 dealt - 2 played
    shown_by_1 = [t(x) for x in ("6-3", "0-0", "1-0", "2-0", "3-0", "4-0", "5-0", "2-1")]
    counted = game.count_tiles([held_by_0, shown_by_1])  # 7 + 2 drawn - 1 played
    assert counted.ok and isinstance(counted.events[-1], HandEvent)
    assert knocks(counted) == [(1, None, "Player 2 passed holding 6-3 or 6-2, which fitted.")]


def test_a_leader_named_late_is_told_the_knocks_its_plays_prove_false() -> None:
    """Nobody said who led: the knock and the plays are attributed when the leader is
    named, and the knock they prove false is told then."""
    game = Game(rulesets.load("straight-block"), 2)
    game.start()
    assert game.play(t("6-6")).ok
    assert game.pass_turn().ok
    assert game.play(t("6-5"), Target(t("6-6"))).ok
    assert knocks(game.play(t("6-2"), Target(t("6-6")))) == []  # nobody known yet
    named = game.name_leader(0)
    assert named.ok
    assert knocks(named) == [(1, "6-2", "Player 2 passed holding 6-2, which fitted.")]
    assert knocks(game.name_leader(0)) == []  # told once
