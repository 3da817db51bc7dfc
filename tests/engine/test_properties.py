"""Properties of whole games, over every shipped ruleset (hypothesis)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    Event,
    Game,
    GameEvent,
    HandEvent,
    Mode,
    Phase,
    PlayEvent,
    Reason,
    Target,
    Tile,
    rulesets,
)
from engine.players import RandomPlayer, play_game, play_turn
from engine.rules import PlayScoring

RULESETS = rulesets.names()


@st.composite
def setups(draw: st.DrawFn) -> tuple[str, int, int]:
    name = draw(st.sampled_from(RULESETS))
    lo, hi = rulesets.load(name).players
    return name, draw(st.integers(lo, min(hi, 6))), draw(st.integers(0, 2**32 - 1))


def full_game(name: str, seats: int, seed: int) -> tuple[Game, list[Event]]:
    game = Game(rulesets.load(name), seats, mode=Mode.FULL, seed=seed)
    rng = random.Random(seed)
    return game, play_game(game, [RandomPlayer(rng) for _ in range(seats)])


FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(setups())
def test_same_seed_same_game(setup: tuple[str, int, int]) -> None:
    _, first = full_game(*setup)
    _, again = full_game(*setup)
    assert [e.payload() for e in first] == [e.payload() for e in again]


@FAST
@given(setups())
def test_tiles_are_conserved_and_never_duplicated(setup: tuple[str, int, int]) -> None:
    name, seats, seed = setup
    game = Game(rulesets.load(name), seats, mode=Mode.FULL, seed=seed)
    game.start()
    rng = random.Random(seed)
    player = RandomPlayer(rng)
    everything = Counter(game.set.tiles())
    for _ in range(300):
        if game.phase not in (Phase.LEAD, Phase.PLAY):
            break
        assert game.hands is not None and game.boneyard is not None
        held = [t for hand in game.hands for t in hand]
        assert Counter(held + game.layout.tiles() + game.boneyard) == everything
        assert play_turn(game, player).ok


@FAST
@given(setups(), st.data())
def test_no_illegal_play_is_ever_accepted(setup: tuple[str, int, int], data: st.DataObject) -> None:
    """Offer random tiles at random ends: accepted exactly when a legal move says so."""
    name, seats, seed = setup
    game = Game(rulesets.load(name), seats, mode=Mode.FULL, seed=seed)
    game.start()
    rng = random.Random(seed)
    player = RandomPlayer(rng)
    for _ in range(60):
        if game.phase not in (Phase.LEAD, Phase.PLAY):
            break
        legal = {(m.tile, m.end) for m in game.legal_moves()}
        tiles = list(game.set.tiles())
        tile = data.draw(st.sampled_from(tiles))
        ends = [None, *game.layout.ends]
        end = data.draw(st.sampled_from(ends))
        before = (game.layout.tiles(), game.scores(), game.turn)
        judged = game.play(tile, end)
        if judged.ok:
            # `None` on a laid layout means "wherever it fits", which must be unambiguous
            assert any(
                t is tile
                and (
                    end is None
                    or (
                        e is not None
                        and (e.node, e.edge.kind, e.pip) == (end.node, end.edge.kind, end.pip)
                    )
                )
                for t, e in legal
            ), f"{tile} at {end} was accepted but is not legal"
        else:
            assert (game.layout.tiles(), game.scores(), game.turn) == before
            assert all(e.kind == "alert" for e in judged.events)
            assert play_turn(game, player).ok


@FAST
@given(setups())
def test_all_fives_play_scores_are_multiples_of_five(setup: tuple[str, int, int]) -> None:
    name, seats, seed = setup
    game, events = full_game(name, seats, seed)
    if game.rules.play_scoring is not PlayScoring.FIVES:
        return
    for event in events:
        if isinstance(event, PlayEvent):
            assert event.points % 5 == 0
            assert event.points in (0, event.ends_total)


@FAST
@given(setups())
def test_every_game_ends_with_a_winner_at_the_target(setup: tuple[str, int, int]) -> None:
    game, events = full_game(*setup)
    over = events[-1]
    assert isinstance(over, GameEvent) and over.event == "over"
    assert game.target is not None
    assert max(over.scores) >= game.target


def lockstep(
    name: str, seats: int, seed: int, *, show_tiles: bool = False
) -> tuple[list[Event], list[Event]]:
    """The same game in full information and in table mode, told as a table is told
    (`show_tiles`: each hand counted from the tiles left in the hands, not their pips)."""
    rules = rulesets.load(name)
    full = Game(rules, seats, mode=Mode.FULL, seed=seed)
    table = Game(rules, seats, mode=Mode.TABLE)
    rng = random.Random(seed)
    full_events, table_events = list(full.start()), list(table.start())
    for _ in range(200):
        while full.phase in (Phase.LEAD, Phase.PLAY):
            seat = full.turn
            moves = full.legal_moves()
            if moves:
                move = moves[rng.randrange(len(moves))]
                target = None
                if move.end is not None:
                    node = full.layout.nodes[move.end.node]
                    target = Target(node.tile, move.end.pip, move.end.edge.kind)
                jf = full.play(move.tile, move.end)
                jt = table.play(move.tile, target, seat=seat)
            elif full.can_draw():
                jf, jt = full.draw(), table.draw(seat)
            else:
                jf, jt = full.pass_turn(), table.pass_turn(seat)
            assert jf.ok and jt.ok, (jf, jt)
            full_events += jf.events
            table_events += jt.events
        hand = next((e for e in reversed(full_events) if isinstance(e, HandEvent)), None)
        if table.phase is Phase.PLAY and isinstance(hand, HandEvent) and hand.winner is not None:
            table_events += table.declare_out(hand.winner).events  # "domino!" in a draw game
        if table.phase is Phase.PLAY:
            table_events += table.end_hand().events
        if table.phase is Phase.COUNTING:
            assert isinstance(hand, HandEvent)
            assert full.hands is not None
            shown = [list(h) for h in full.hands] if show_tiles else None
            judged = table.count(list(hand.pips), shown)
            assert judged.ok, judged
            table_events += judged.events
        if full.phase is Phase.OVER:
            break
        full_events += full.next_hand().events
        table_events += table.next_hand().events
    return full_events, table_events


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups())
def test_table_mode_and_full_information_agree(setup: tuple[str, int, int]) -> None:
    full_events, table_events = lockstep(*setup)
    assert [(e.kind, e.payload()) for e in table_events] == [
        (e.kind, e.payload()) for e in full_events
    ]


def test_table_mode_judges_what_it_can() -> None:
    game = Game(rulesets.load("puerto-rico"), 4)
    game.start()
    t = Tile.parse
    assert game.play(t("5-5")).reason is Reason.BAD_LEAD  # 6-6 leads the first hand
    assert game.play(t("6-6")).ok
    assert game.turn is None  # who led is not known yet
    assert game.play(t("6-6"), Target(t("6-6"))).reason is Reason.DUPLICATE_TILE
    assert game.play(t("7-6"), Target(t("6-6"))).reason is Reason.UNKNOWN_TILE
    assert game.play(t("5-4"), Target(t("6-6"))).reason is Reason.NO_MATCH
    assert game.play(t("6-5"), Target(t("6-6"))).ok
    assert game.layout.nodes and game.seat_of_play(1) is None
    named = game.name_leader(2)
    assert named.ok and [e.kind for e in named.events] == ["lead"]
    assert (game.seat_of_play(0), game.seat_of_play(1), game.turn) == (2, 3, 0)
    assert game.count([0, 10, 12, 14]).reason is Reason.EARLY_OUT


def test_naming_the_leader_late_can_end_the_game_and_says_so() -> None:
    """Walnut to 10: the 5-5 lead scores 10, credited only once its leader is named."""
    game = Game(rulesets.load("walnut"), 4, target=10)
    game.start()
    assert game.play(Tile.parse("5-5")).ok
    assert game.phase is Phase.PLAY  # nobody to credit yet
    named = game.name_leader(2)
    assert named.ok and [e.kind for e in named.events] == ["lead", "game"]
    over = named.events[-1]
    assert isinstance(over, GameEvent) and over.event == "over" and over.winner == 2
    assert game.phase is Phase.OVER
