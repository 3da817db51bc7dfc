"""Impossible counts are refused, with the reason (issue 24 point 1).

A seat's count (spec/mqtt.md's `count`, `Game.count_seat`), the counts of every seat at
once (`Game.count`) and a correction (`Game.correct`) are refused when a tile is not in
the set, is counted twice (in one seat's count, or for two seats), lies on the table, or
when a seat shows more tiles (or pips) than it can hold; a seat's count is refused
outside the time counts are taken (the hand over, or known to be over), and taken only
then. A refusal changes nothing.
"""

from __future__ import annotations

import copy
import itertools
import random

import pytest

from engine import AlertEvent, Game, HandResult, Mode, Phase, Target, Tile, rulesets
from engine.alerts import AlertCode


def t(text: str) -> Tile:
    return Tile.parse(text)


def tiles(*texts: str) -> list[Tile]:
    return [t(x) for x in texts]


def block_hand_over() -> Game:
    """Straight block, 2 seats of 7: 6-6 led, 6-5 on it, both knocked: blocked, counting."""
    game = Game(rulesets.load("straight-block"), 2)
    game.start()
    assert game.play(t("6-6"), seat=0).ok
    assert game.play(t("6-5"), Target(t("6-6"))).ok
    assert game.pass_turn().ok and game.pass_turn().ok
    assert game.phase.value == "counting"
    return game


def refused(game: Game, judged: object) -> tuple[AlertCode, str]:
    """The alert code and sentence of a refusal, the game unchanged by it."""
    from engine import Judgement

    assert isinstance(judged, Judgement) and not judged.ok
    (alert,) = judged.events
    assert isinstance(alert, AlertEvent)
    return alert.code, alert.message


def seat_count_refusal(game: Game, seat: int, **given: object) -> tuple[AlertCode, str]:
    before = copy.deepcopy(game.summary()), dict(game.counted)
    judged = game.count_seat(seat, **given)  # type: ignore[arg-type]
    result = refused(game, judged)
    assert (game.summary(), game.counted) == before
    return result


def test_a_tile_not_in_the_set_is_refused() -> None:
    game = block_hand_over()
    code, says = seat_count_refusal(game, 0, tiles=tiles("9-9"))
    assert code is AlertCode.UNKNOWN_TILE and "9-9 is not in this set" in says


def test_a_tile_on_the_table_is_refused() -> None:
    game = block_hand_over()
    code, says = seat_count_refusal(game, 1, tiles=tiles("6-6"))
    assert code is AlertCode.DUPLICATE_TILE and "6-6 is already on the table" in says


def test_a_tile_counted_twice_in_one_count_is_refused() -> None:
    game = block_hand_over()
    code, says = seat_count_refusal(game, 1, tiles=tiles(*["5-5"] * 6))
    assert code is AlertCode.DUPLICATE_TILE and "5-5 is counted twice" in says
    code, _ = seat_count_refusal(game, 1, tiles=tiles(*["5-5"] * 100))
    assert code is AlertCode.DUPLICATE_TILE


def test_a_tile_counted_for_another_seat_is_refused() -> None:
    game = block_hand_over()
    six = tiles("0-0", "1-0", "1-1", "2-0", "2-1", "2-2")
    assert game.count_seat(0, tiles=six).ok  # kept: seat 1 has not counted
    code, says = seat_count_refusal(game, 1, tiles=tiles("3-0", "3-1", "3-2", "3-3", "4-0", "2-2"))
    assert code is AlertCode.DUPLICATE_TILE
    assert "2-2 is counted twice" in says and "Player 1" in says


def test_more_tiles_than_the_seat_can_hold_are_refused() -> None:
    game = block_hand_over()  # each seat was dealt 7 and played 1: 6 left
    code, says = seat_count_refusal(
        game, 1, tiles=tiles("0-0", "1-0", "1-1", "2-0", "2-1", "2-2", "3-0")
    )
    assert code is AlertCode.COUNT_MISMATCH and "should hold 6 tiles, shows 7" in says


def test_more_pips_than_the_seat_can_hold_are_refused() -> None:
    game = block_hand_over()
    code, says = seat_count_refusal(game, 1, pips=10000)
    assert code is AlertCode.COUNT_MISMATCH and "10000 pips" in says
    code, says = seat_count_refusal(game, 1, pips=80)
    # The 6 heaviest tiles off the table: 5-5, 6-4, 5-4, 6-3 and two of eight pips.
    assert code is AlertCode.COUNT_MISMATCH and "6 tiles hold 54 at most" in says
    assert game.count_seat(1, pips=54).ok


def test_a_count_while_the_hand_is_not_over_is_refused_and_says_so() -> None:
    game = Game(rulesets.load("straight-block"), 2)
    game.start()
    code, says = seat_count_refusal(game, 0, pips=3)  # nothing led yet
    assert code is AlertCode.OUT_OF_TURN and "no hand to count" in says
    assert game.play(t("6-6"), seat=0).ok
    code, says = seat_count_refusal(game, 0, pips=3)
    assert code is AlertCode.COUNT_MISMATCH and "the hand is not over" in says


def test_a_count_is_kept_during_play_only_when_the_hand_is_known_to_be_over() -> None:
    game = Game(rulesets.load("straight-block"), 2)
    game.start()
    assert game.play(t("6-6"), seat=0).ok
    assert game.play(t("6-5"), Target(t("6-6"))).ok
    assert game.pass_turn().ok and game.pass_turn().ok  # blocked: counting now
    assert game.count_seat(0, pips=30).ok and game.counted == {0: (30, None)}


def test_a_count_after_the_hand_was_scored_is_refused() -> None:
    game = block_hand_over()
    assert game.count_seat(0, pips=30).ok
    assert game.count_seat(1, pips=20).ok  # both counted: the hand is scored
    assert game.phase.value == "hand_over" and game.counted == {}
    code, says = seat_count_refusal(game, 0, pips=30)
    assert code is AlertCode.OUT_OF_TURN and "no hand to count" in says


def test_the_seat_that_went_out_holds_nothing() -> None:
    game = Game(rulesets.load("straight-block"), 2)
    game.start()
    chain = tiles("6-6", "6-5", "5-5", "5-4", "4-4", "4-3", "3-3")  # each joins the last
    assert game.play(chain[0], seat=0).ok
    for last, tile in itertools.pairwise(chain):
        assert game.pass_turn().ok  # seat 1 knocks
        assert game.play(tile, Target(last)).ok
    assert game.phase.value == "counting" and game.out_seat == 0  # seat 0 played all 7
    code, says = seat_count_refusal(game, 0, pips=5)
    assert code is AlertCode.COUNT_MISMATCH and "Player 1 holds no tile, not 5 pips" in says
    assert game.count_seat(1, pips=40).ok  # the only seat that holds tiles: scored
    assert game.phase.value == "hand_over"


def test_every_seat_at_once_is_checked_the_same() -> None:
    game = block_hand_over()
    code, says = refused(game, game.count([None, None], [tiles("9-9"), None]))
    assert code is AlertCode.UNKNOWN_TILE and "9-9" in says
    code, says = refused(game, game.count([None, 10000]))
    assert code is AlertCode.COUNT_MISMATCH and "10000 pips" in says
    six = tiles("0-0", "1-0", "1-1", "2-0", "2-1", "2-2")
    code, says = refused(game, game.count([None, None], [six, six]))
    assert code is AlertCode.DUPLICATE_TILE and "counted twice" in says


@pytest.mark.parametrize("phase", ["counting", "hand_over"])
def test_a_correction_is_refused_once_the_hand_is_over(phase: str) -> None:
    game = block_hand_over()
    if phase == "hand_over":
        assert game.count([30, 20]).ok
    code, says = refused(game, game.correct(t("6-5"), t("5-1")))
    assert code is AlertCode.OUT_OF_TURN and "the hand is over" in says


def test_a_correction_to_a_tile_not_in_the_set_or_on_the_table_is_refused() -> None:
    game = Game(rulesets.load("walnut"), 2)
    game.start()
    assert game.play(t("6-6"), seat=0).ok
    code, says = refused(game, game.correct(t("6-6"), t("9-9")))
    assert code is AlertCode.UNKNOWN_TILE and "9-9 is not in this set" in says
    assert game.play(t("6-1"), Target(t("6-6"))).ok
    code, says = refused(game, game.correct(t("6-1"), t("6-6")))
    assert code is AlertCode.DUPLICATE_TILE and "6-6 is already on the table" in says


def told_until_domino(seed: int) -> tuple[Game, Game]:
    """A walnut hand for two played in full information and told to a table, to a seat
    going out (the table cannot tell: draws need not be told); (the table, the game)."""
    full = Game(rulesets.load("walnut"), 2, mode=Mode.FULL, seed=seed)
    table = Game(rulesets.load("walnut"), 2)
    full.start()
    table.start()
    rng = random.Random(seed)
    for drawer, hand in enumerate(full.hands or []):
        if len(hand) > 7:
            assert table.draw(drawer, len(hand) - 7).ok
    while full.phase in (Phase.LEAD, Phase.PLAY):
        seat = full.turn
        moves = full.legal_moves()
        if moves:
            move = moves[int(rng.random() * len(moves))]
            where = Target(full.layout.nodes[move.end.node].tile) if move.end else None
            assert full.play(move.tile, move.end).ok
            assert table.play(move.tile, where, seat=seat).ok
        elif full.can_draw():
            assert full.draw().ok and table.draw(seat).ok
        else:
            assert full.pass_turn().ok and table.pass_turn(seat).ok
    return table, full


def test_a_refused_correction_keeps_the_counts_given() -> None:
    seed = next(s for s in range(100) if told_until_domino(s)[1].result is HandResult.DOMINO)
    table, full = told_until_domino(seed)
    assert table.phase is Phase.PLAY  # (the table cannot tell the hand is over)
    out = full.out_seat
    assert out is not None and full.hands is not None
    assert table.count_seat(1 - out, tiles=full.hands[1 - out]).ok  # kept
    laid = table.layout.tiles()
    code, _ = refused(table, table.correct(laid[-1], laid[0]))  # a tile already laid
    assert code in (AlertCode.DUPLICATE_TILE, AlertCode.NO_MATCH)  # (refused on replay)
    assert table.counted  # the count given stands
    assert table.count_seat(out, tiles=[]).ok
    assert table.phase is Phase.HAND_OVER and table.history[-1].points == full.history[-1].points
