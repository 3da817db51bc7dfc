"""The lead rule after the fact (found after issue 15): the table takes any lead (it
cannot see the hands), but a tile seen later that its holder had at the lead (it drew
nothing) and that the lead rule puts first proves the lead wrong: `BAD_LEAD`, once a hand,
at the play or the count that shows it. The hand goes on and is scored as counted."""

from __future__ import annotations

from functools import partial

from engine import Game, HandEvent, Reason, Target, Tile, rulesets
from tests.engine.replaying import alerts, judged_alerts, run

t = Tile.parse


bad_leads = partial(judged_alerts, reason=Reason.BAD_LEAD)


def test_a_higher_double_shown_at_the_count_proves_the_lead_wrong() -> None:
    events = run("straight-block-wrong-lead.jsonl")
    assert alerts(events) == [("BAD_LEAD", "illegal", 0, "5-5")]
    (alert,) = [e for e in events if e["type"] == "alert"]
    assert alert["message"] == "5-5 should not have led: Player 2 held 6-6, which leads first."
    (hand,) = [e for e in events if e["type"] == "hand"]
    assert events.index(alert) < events.index(hand)
    assert (hand["result"], hand["winner"], hand["points"], hand["pips"]) == (
        "blocked",
        0,
        28,
        [27, 55],
    )


def test_a_play_by_a_seat_that_drew_nothing_proves_it_at_once_and_once() -> None:
    """Straight, draw form: 1-0 led; seat 1 plays 0-0 without drawing (a double beats any
    non-double lead); seat 0 later shows 6-6: the lead is told wrong once, at 0-0."""
    game = Game(rulesets.load("straight"), 2)
    game.start()
    assert game.play(t("1-0"), seat=0).ok
    played = game.play(t("0-0"), Target(t("1-0")))
    assert played.ok and game.layout.index_of(t("0-0")) is not None  # the play stands
    assert bad_leads(played) == [
        (0, "1-0", "1-0 should not have led: Player 2 held 0-0, which leads first.")
    ]
    assert game.end_hand().ok
    held_by_0 = [t(x) for x in ("6-6", "5-5", "6-5", "4-4", "3-3", "2-2")]
    held_by_1 = [t(x) for x in ("6-4", "5-4", "3-2", "4-2", "6-3", "5-2")]
    counted = game.count_tiles([held_by_0, held_by_1])
    assert counted.ok and isinstance(counted.events[-1], HandEvent)
    assert bad_leads(counted) == []


def test_no_double_anywhere_the_highest_total_leads() -> None:
    """Straight: "If no player has a double, the player with the highest total value tile
    starts": a non-double lead is proven wrong by a tile with more pips held then, not by
    an equal total (the card names no tie-break)."""
    game = Game(rulesets.load("straight-block"), 2)
    game.start()
    assert game.play(t("6-3"), seat=0).ok
    assert bad_leads(game.play(t("5-3"), Target(t("6-3")))) == []
    assert game.end_hand().ok
    shown = [[t(x) for x in ("6-1", "4-1", "5-1", "2-1", "4-0", "3-1")], [t("5-4"), t("6-2")]]
    shown[1] += [t(x) for x in ("2-0", "1-0", "3-0", "5-0")]
    counted = game.count_tiles(shown)
    assert counted.ok
    assert bad_leads(counted) == []  # 5-4 ties 6-3's 9 pips; 6-2 has 8
    again = Game(rulesets.load("straight-block"), 2)
    again.start()
    assert again.play(t("6-3"), seat=0).ok
    assert again.end_hand().ok
    shown[0][-1] = t("6-4")  # 10 pips, held by the leader itself
    counted = again.count_tiles([shown[0], [*shown[1], t("5-3")]])
    assert counted.ok and bad_leads(counted) == [
        (0, "6-3", "6-3 should not have led: Player 1 held 6-4, which leads first.")
    ]


def test_a_seat_that_drew_may_have_drawn_the_higher_double() -> None:
    game = Game(rulesets.load("straight"), 2)
    game.start()
    assert game.play(t("5-5"), seat=0).ok
    assert game.draw(1).ok  # seat 1 draws, then plays
    assert bad_leads(game.play(t("6-5"), Target(t("5-5")))) == []
    assert game.play(t("5-4"), Target(t("5-5"))).ok
    six_six = game.play(t("6-6"), Target(t("6-5")))  # perhaps the tile it drew
    assert six_six.ok and bad_leads(six_six) == []


def test_a_leader_named_late_is_told_the_lead_its_plays_prove_wrong() -> None:
    game = Game(rulesets.load("straight-block"), 2)
    game.start()
    assert game.play(t("1-0")).ok  # nobody said who led
    assert game.play(t("0-0"), Target(t("1-0"))).ok  # unattributed: no proof yet
    named = game.name_leader(0)
    assert named.ok
    assert bad_leads(named) == [
        (0, "1-0", "1-0 should not have led: Player 2 held 0-0, which leads first.")
    ]


def test_hands_led_with_any_tile_or_with_untold_draws_are_not_checked() -> None:
    # Walnut draws until playable and need not tell it: 6-6 may have been drawn.
    walnut = Game(rulesets.load("walnut"), 2)
    walnut.start()
    assert walnut.play(t("5-5"), seat=0).ok
    assert bad_leads(walnut.play(t("6-5"), Target(t("5-5")))) == []
    assert bad_leads(walnut.play(t("6-6"), Target(t("6-5")))) == []
    # Puerto Rico: 6-6 leads the first hand only; the winner leads the next with any tile.
    game = Game(rulesets.load("puerto-rico"), 4)
    game.start()
    assert game.play(t("6-6"), seat=0).ok
    assert game.end_hand().ok
    assert game.count([10, 20, 30, 40]).ok
    assert game.next_hand().ok
    assert game.play(t("1-0"), seat=0).ok
    assert bad_leads(game.play(t("0-0"), Target(t("1-0")))) == []
