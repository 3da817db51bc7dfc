"""Walnut's extra draws before the lead (issue 24 point 5).

The leaflet (shared/seeds/000): "If nobody has a double, each player draws an additional
tile from the boneyard. Repeat until one player can start." At the table those draws
are told by each seat's DRAW press before any tile is down: each is taken quietly for
the seat that pressed it (no alert, no beep), and the boneyard's count goes down by it.
"""

from __future__ import annotations

from engine import DrawEvent, Game, Mode, Reason, Tile, rulesets
from engine.events import AlertEvent
from tests.engine.replaying import kinds, plays, run


def walnut(seats: int = 4) -> Game:
    game = Game(rulesets.load("walnut"), seats)
    game.start()
    return game


def test_a_draw_before_the_lead_is_taken_for_the_seat_that_drew() -> None:
    game = walnut()
    assert game.summary()["boneyard"] == 8  # 28 tiles, 4 hands of 5
    for seat in range(4):  # nobody held a double: every seat draws one more
        judged = game.draw(seat)
        assert judged.reason is Reason.OK
        assert judged.events == (DrawEvent(1, seat, 1),)
    assert game.summary()["boneyard"] == 4
    assert game.turn is None and game.layout.nodes == []
    assert game.play(Tile.parse("4-4"), seat=2).ok  # a double at last: seat 2 leads it
    assert game.turn == 3 and game.summary()["boneyard"] == 4
    assert [s["tiles_left"] for s in game.summary()["seats"]] == [None] * 4  # (not told)


def test_the_draws_before_the_lead_count_in_what_a_seat_must_show() -> None:
    game = walnut(2)  # 2 hands of 7: 14 in the boneyard
    assert game.draw(0).ok and game.draw(1).ok and game.draw(0).ok and game.draw(1).ok
    assert game.summary()["boneyard"] == 10
    assert game.play(Tile.parse("6-6"), seat=0).ok
    assert game.play(Tile.parse("6-1"), seat=1).ok
    assert game.end_hand().ok
    tiles = [t for t in game.set.tiles() if t not in game.layout.tiles()]
    seven, eight = tiles[:7], tiles[7:15]  # each drew 2 and played 1: 8 tiles at least
    refused = game.count_tiles([seven, eight])
    assert refused.reason is Reason.COUNT_MISMATCH
    (alert,) = refused.events
    assert isinstance(alert, AlertEvent) and "8 to 18 tiles, shows 7" in alert.message
    assert game.count_tiles([tiles[15:23], eight]).ok


def test_a_draw_before_the_lead_that_names_no_seat_says_who_must() -> None:
    game = walnut()
    judged = game.draw()
    assert not judged.ok
    (alert,) = judged.events
    assert isinstance(alert, AlertEvent) and "which seat" in alert.message
    assert game.summary()["boneyard"] == 8


def test_no_more_is_drawn_before_the_lead_than_the_boneyard_holds() -> None:
    game = walnut()
    for _ in range(2):
        for seat in range(4):
            assert game.draw(seat).ok
    assert game.summary()["boneyard"] == 0
    assert game.draw(1).reason is Reason.BONEYARD_EMPTY


def test_undo_keeps_the_draws_before_the_lead() -> None:
    game = walnut()
    assert game.draw(0).ok and game.draw(1).ok
    assert game.play(Tile.parse("5-5"), seat=1).ok
    assert game.undo().ok
    assert game.layout.nodes == [] and game.summary()["boneyard"] == 6
    assert game.undo().reason is Reason.NOTHING_TO_UNDO


def test_only_where_the_rules_draw_for_a_double_and_the_table_is_told() -> None:
    straight = Game(rulesets.load("straight"), 2)  # no double: the highest tile leads
    straight.start()
    assert straight.draw(0).reason is Reason.WRONG_PHASE
    dealt = Game(rulesets.load("walnut"), 2, mode=Mode.FULL, seed=3)  # the deal drew
    dealt.start()
    assert dealt.draw(0).reason is Reason.WRONG_PHASE


def test_the_leaflets_draws_before_the_lead_replayed() -> None:
    events = run("walnut-draws-before-the-lead.jsonl")  # exit 0: nothing refused
    assert "alert" not in kinds(events)
    assert [(e["seat"], e["count"]) for e in events if e["type"] == "draw"] == [
        (seat, 1) for seat in (0, 1, 2, 3, 0, 1, 2, 3)
    ]
    assert plays(events) == [("5-5", 10, 10), ("5-0", 10, 10)]
    assert [e["seat"] for e in events if e["type"] == "play"] == [2, 3]
