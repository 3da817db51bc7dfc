"""Properties of draw games in table mode (issue 15), over every shipped draw ruleset.

A table is told anything, in any order: plays that fit or not, draws of one tile or
several, passes, counts, a seat going out. Whatever it is told, it never ends a hand as
blocked while the boneyard it knows of still holds tiles to draw, and never lets a seat
draw more in one turn than the rules allow. Told what a full-information game did, it
agrees with it event for event, hands shown at the end included.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Game, HandEvent, HandResult, Judgement, Phase, Target, rulesets
from engine.events import DrawEvent
from engine.rules import Boneyard
from tests.engine.test_properties import lockstep

DRAW_GAMES = [n for n in rulesets.names() if rulesets.load(n).draws]
INPUTS = ("play", "play", "draw", "pass", "knock", "knock", "knock", "count", "out")
SOME = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def draw_setups(draw: st.DrawFn) -> tuple[str, int]:
    name = draw(st.sampled_from(DRAW_GAMES))
    lo, hi = rulesets.load(name).players
    return name, draw(st.integers(lo, min(hi, 4)))


def drawable(game: Game) -> int | None:
    """What the table knows is left to draw (None: it does not know)."""
    left = game.summary()["boneyard"]
    return None if left is None else left - game.rules.boneyard_keep


def tell(game: Game, data: st.DataObject) -> Judgement:
    """One input, chosen by hypothesis, told to the game (a knock: the turn seat draws
    one tile, and passes if the draw was taken)."""
    kind = data.draw(st.sampled_from(INPUTS))
    seat = data.draw(st.sampled_from([None, *range(game.seats)]))
    if kind == "play":
        return play(game, data, seat)
    if kind == "draw":
        return game.draw(seat, data.draw(st.integers(1, 3)))
    if kind == "pass":
        return game.pass_turn(seat)
    if kind == "knock":
        drew = game.draw()
        return Judgement(drew.reason, drew.events + game.pass_turn().events) if drew else drew
    if kind == "out":
        return game.declare_out(seat if seat is not None else 0)
    pips = data.draw(st.lists(st.integers(0, 30), min_size=game.seats, max_size=game.seats))
    return game.count(list(pips))


def play(game: Game, data: st.DataObject, seat: int | None) -> Judgement:
    """A tile not on the table, laid as the lead or against a tile that may take it."""
    layout = game.layout
    tiles = [x for x in game.set.tiles() if x not in layout.tiles()]
    if not tiles:  # (told nothing of hands, a table can lay the whole set)
        return game.pass_turn(seat)
    fitting = [x for x in tiles if layout.joins(x)] if layout.nodes else tiles
    tile = data.draw(st.sampled_from(fitting or tiles))
    if not layout.nodes:
        return game.play(tile, seat=seat if seat is not None else 0)
    nodes = sorted({e.node for e in layout.joins(tile)}) or range(len(layout.nodes))
    to = layout.nodes[data.draw(st.sampled_from(list(nodes)))].tile
    return game.play(tile, Target(to), seat=seat)


@SOME
@given(draw_setups(), st.data())
def test_never_blocked_while_the_known_boneyard_holds_tiles(
    setup: tuple[str, int], data: st.DataObject
) -> None:
    game = Game(rulesets.load(setup[0]), setup[1])
    game.start()
    for _ in range(60):
        if game.phase is Phase.HAND_OVER:
            game.next_hand()
        if game.phase is Phase.OVER:
            break
        left = drawable(game)
        judged = tell(game, data)
        blocked = [e for e in judged.events if isinstance(e, HandEvent)]
        if any(e.result is HandResult.BLOCKED for e in blocked):
            assert left is None or left <= 0 or game.rules.boneyard is not Boneyard.DRAW_ONE
            if game.rules.boneyard is Boneyard.DRAW_ONE:
                assert left is not None  # (an unknown boneyard is never taken for empty)


@pytest.mark.slow
@SOME
@given(draw_setups(), st.data())
def test_a_seat_never_draws_more_than_the_rules_allow_in_a_turn(
    setup: tuple[str, int], data: st.DataObject
) -> None:
    game = Game(rulesets.load(setup[0]), setup[1])
    game.start()
    draw_one = game.rules.boneyard is Boneyard.DRAW_ONE
    turn, drawn = game.turn, 0
    for _ in range(60):
        if game.phase is Phase.HAND_OVER:
            game.next_hand()
        if game.phase is Phase.OVER:
            break
        if game.turn != turn or game.phase is not Phase.PLAY:
            turn, drawn = game.turn, 0
        left = drawable(game)
        judged = tell(game, data)
        count = sum(e.drawn for e in judged.events if isinstance(e, DrawEvent))
        assert count == 0 or judged.ok
        drawn += count
        assert not draw_one or drawn <= 1, "draw one: one tile a turn"
        assert left is None or count <= left, "never more than the boneyard holds"
        left_now = drawable(game)
        assert left_now is None or left_now >= 0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(DRAW_GAMES), st.integers(2, 4), st.integers(0, 2**32 - 1))
def test_table_mode_and_full_information_agree_on_draw_games_hands_shown(
    name: str, seats: int, seed: int
) -> None:
    """Every accepted draw, pass and play the same; each hand ends the same and counts
    the same when its tiles are shown (no false knock, no count refused)."""
    lo, hi = rulesets.load(name).players
    seats = max(lo, min(hi, seats))
    full_events, table_events = lockstep(name, seats, seed, show_tiles=True)
    assert [(e.kind, e.payload()) for e in table_events] == [
        (e.kind, e.payload()) for e in full_events
    ]
