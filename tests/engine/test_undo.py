"""UNDO after a draw (found after issue 15): the play or pass taken back takes the draws
told after it along (their turn is gone); draws before it stay with the seats that drew."""

from __future__ import annotations

import random

from engine import Game, Mode, Reason, Tile, rulesets
from engine.game import DrawInput
from tests.engine.replaying import alerts, run

t = Tile.parse


def test_undo_takes_back_the_draws_after_the_play_and_keeps_those_before() -> None:
    events = run("straight-undo-after-a-draw.jsonl", refused=True)
    assert alerts(events) == [
        ("OUT_OF_TURN", "illegal", 0, None),  # an undo with nothing to take back
        ("OUT_OF_TURN", "illegal", 1, None),  # seat 1's draw went with 6-6: draw first
        ("BAD_DRAW", "illegal", 1, None),  # its draw before 6-1 stayed: one a turn
    ]
    said = [e["message"] for e in events if e["type"] == "alert"]
    assert said[0] == "Nothing to take back."
    assert [(e["type"], e.get("seat")) for e in events[-2:]] == [("alert", 1), ("pass", 1)]
    undone = [e["undone"] for e in events if e["type"] == "undo"]
    seq = {e["seq"]: e.get("tile") for e in events}
    assert [seq[u] for u in undone] == ["6-6", "6-1"]


def test_the_seats_hold_what_they_drew_before_the_play_taken_back() -> None:
    game = Game(rulesets.load("straight"), 2)
    game.start()
    assert game.play(t("6-6"), seat=0).ok
    assert game.draw(1).ok
    assert game.undo().ok
    assert game.hand_inputs() == ()
    assert (game.summary()["boneyard"], game.tiles_left(0), game.tiles_left(1)) == (14, 7, 7)
    assert game.undo().reason is Reason.NOTHING_TO_UNDO  # not a crash
    assert game.play(t("6-6"), seat=0).ok
    assert game.draw(1).ok
    assert game.play(t("6-1"), seat=1).ok
    assert game.draw(0).ok
    assert game.undo().ok
    assert (game.summary()["boneyard"], game.tiles_left(0), game.tiles_left(1)) == (13, 6, 8)
    assert game.turn == 1 and game.draw(1).reason is Reason.NO_DRAWING
    assert game.pass_turn(1).ok and game.turn == 0


def _after_a_play_and_a_draw(seed: int) -> tuple[Game, list[list[Tile]], list[Tile]] | None:
    """A full-information straight hand played to a play after which the next seat must
    draw; the hands and boneyard just before that play (None: the hand never got there)."""
    game = Game(rulesets.load("straight"), 2, mode=Mode.FULL, seed=seed)
    game.start()
    rng = random.Random(seed)
    while game.hands is not None and game.boneyard is not None and game.turn is not None:
        moves = game.legal_moves()
        if not moves:
            return None
        before = [list(h) for h in game.hands], list(game.boneyard)
        game.push(rng.choice(moves))
        if game.turn is not None and not game.legal_moves() and game.can_draw():
            game.push_draw()
            return game, *before
    return None


def test_full_information_puts_the_drawn_tile_back_in_the_boneyard() -> None:
    found = next(x for x in map(_after_a_play_and_a_draw, range(100)) if x is not None)
    game, hands, boneyard = found
    assert isinstance(game.hand_inputs()[-1], DrawInput)
    assert game.undo().ok
    assert game.hands == hands and game.boneyard == boneyard
    assert game.legal_moves()  # the seat that played may play again
