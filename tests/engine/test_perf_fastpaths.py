"""The engine's hot-path shortcuts agree with the plain way of doing the same thing.

The layout keeps its mirror-free ends and its ends total as tiles are placed, the game
keeps each hand as bits and journals trusted plays as plain tuples, and `legal_moves`
takes shortcuts: each is checked here against a straightforward recomputation, on whole
games of every ruleset (no timings: those are `benchmarks/engine.py`'s business).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine import Game, Mode, Move, PlayInput, rulesets
from engine.layout import OpenEnd
from engine.players import RandomPlayer, play_turn
from engine.tiles import bits_of

RULESETS = sorted(p.stem for p in (Path(__file__).parents[2] / "engine/rulesets").glob("*.toml"))


def reference_moves(game: Game) -> list[Move]:
    """`legal_moves()` as it was first written: every open end, mirror images once."""
    assert game.hands is not None and game.turn is not None
    hand = game.hands[game.turn]
    ends = game.layout.ends
    if len(ends) == 2 and ends[0].edge < 2 and ends[1].edge < 2:
        first, second = ends
        return [Move(t, first) for t in hand if t.has(first.pip)] + [
            Move(t, second) for t in hand if t.has(second.pip)
        ]
    moves = []
    for tile in hand:
        last: OpenEnd | None = None
        for end in ends:
            if tile.has(end.pip):
                mirror = (
                    last is not None
                    and last.node == end.node
                    and last.edge >> 1 == end.edge >> 1
                    and last.pip == end.pip
                )
                if not mirror:
                    moves.append(Move(tile, end))
                    last = end
    return moves


@pytest.mark.parametrize("name", RULESETS)
def test_shortcuts_agree_with_recomputation(name: str) -> None:
    rules = rulesets.load(name)
    lo, hi = rules.players
    for seats in range(lo, hi + 1):
        for seed in range(3):
            rng = random.Random(seed)
            game = Game(rules, seats, mode=Mode.FULL, seed=seed)
            game.start()
            player = RandomPlayer(rng)
            for _ in range(400):
                if game.phase.value not in ("lead", "play"):
                    if game.phase.value == "over":
                        break
                    assert game.next_hand().ok
                    continue
                layout = game.layout
                assert layout.total == layout.ends_total()
                assert game.hands is not None
                assert game.held_bits() == [bits_of(h) for h in game.hands]
                if layout.nodes:
                    assert game.legal_moves() == reference_moves(game)
                moves = game.legal_moves()
                if moves:
                    game.push(player.choose(game, moves))
                else:
                    assert play_turn(game, player).ok
            inputs = game.hand_inputs()
            assert all(type(a) is not tuple for a in inputs)
            assert any(isinstance(a, PlayInput) for a in inputs) or not game.layout.nodes


def test_a_copied_layout_carries_its_kept_state() -> None:
    game = Game(rulesets.load("walnut"), 2, mode=Mode.FULL, seed=4)
    game.start()
    player = RandomPlayer(random.Random(4))
    for _ in range(6):
        play_turn(game, player)
    copy = game.layout.copy()
    assert copy.total == game.layout.total == copy.ends_total()
    assert copy.offers == game.layout.offers
    for move in game.legal_moves():
        other = game.layout.copy()
        other.place(move.tile, move.end)
        assert other.total == other.ends_total()


def test_records_and_hand_starts_made_field_by_field_are_whole() -> None:
    """`hand_record` writes every field of a HandRecord as its constructor would, and
    `begin_hand` every field of the hand's start."""
    import dataclasses

    from engine.events import HandResult
    from engine.match import HandRecord, hand_record
    from engine.record import HandStart

    values = (3, HandResult.BLOCKED, 1, None, 25, (4, 0, 9), (30, 55, 0))
    fast, plain = hand_record(*values), HandRecord(*values)
    assert fast == plain and hash(fast) == hash(plain) and repr(fast) == repr(plain)
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.points = 0  # type: ignore[misc]
    game = Game(rulesets.load("walnut"), 3, mode=Mode.FULL, seed=2)
    game.start()
    start = game.hand_start
    assert start is not None
    for name in (f.name for f in dataclasses.fields(HandStart)):
        getattr(start, name)  # every slot written (an unwritten slot raises)
    assert start.number == 1 and start.hands is not None and start.hands == game.hands


def test_the_deal_is_the_shuffle_by_random_keys() -> None:
    """`Game.deal` sorts the set by one random key per tile, drawn in the set's order:
    checked against doing exactly that with a list of keys."""
    for name, seats in (("puerto-rico", 4), ("walnut", 2), ("walnut", 7), ("revisited", 5)):
        game = Game(rulesets.load(name), seats, mode=Mode.FULL, seed=11)
        for _ in range(30):
            state = game.rng.getstate()
            hands, boneyard = game.deal()
            rng = random.Random()
            rng.setstate(state)
            every = game.set.tiles()
            keys = [rng.random() for _ in every]
            tiles = [every[i] for i in sorted(range(len(every)), key=keys.__getitem__)]
            size = game.hand_size
            assert hands == [tiles[i * size : (i + 1) * size] for i in range(seats)]
            assert boneyard == tiles[seats * size :]
            assert rng.getstate() == game.rng.getstate()
