"""The hand in play (`engine.hand`): one rule lays a tile, and a snapshot puts a hand back.

`push` is the trusted fast path of simulation (a move from `legal_moves()`, not judged
again); `play` judges the same tile first. Both lay it through `HandState.lay`, and must
leave the same game with the same events, turn after turn, in every ruleset, as must
`push_pass`/`pass_turn` and `push_draw`/`draw`. A snapshot taken anywhere in a hand,
restored after the hand went on (played per turn or played out), gives back the game as
it was, and it plays on as a game never snapshotted.
"""

from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Event, Game, Mode, Phase, Reason, rulesets
from engine.players import RandomPlayer, play_hand, play_turn
from engine.playout import play_out
from tests.engine.test_playout import rules_named, setups, state

SOME = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def trusted_turn(game: Game, rng: random.Random) -> list[Event]:
    """One turn by the fast path: `push`, `push_draw` or `push_pass`."""
    moves = game.legal_moves()
    if moves:
        return game.push(moves[int(rng.random() * len(moves))])
    if game.may_draw():
        return game.push_draw()
    return game.push_pass()


def judged_turn(game: Game, rng: random.Random) -> list[Event]:
    """The same turn judged: `play` (at the end the move names), `draw` or `pass_turn`."""
    moves = game.legal_moves()
    if moves:
        move = moves[int(rng.random() * len(moves))]
        judged = game.play(move.tile, move.end, seat=game.turn)
    elif game.may_draw():
        judged = game.draw(game.turn)
    else:
        judged = game.pass_turn(game.turn)
    assert judged.reason is Reason.OK, judged
    return list(judged.events)


@SOME
@given(st.sampled_from(setups()), st.integers(0, 2**32 - 1))
def test_push_lays_a_tile_as_play_does(setup: tuple[str, int], seed: int) -> None:
    name, seats = setup
    fast = Game(rules_named(name), seats, mode=Mode.FULL, seed=seed)
    plain = Game(rules_named(name), seats, mode=Mode.FULL, seed=seed)
    assert fast.start() == plain.start()
    rng_fast, rng_plain = random.Random(seed), random.Random(seed)
    for _ in range(400):
        if fast.phase is Phase.OVER:
            break
        if fast.phase is Phase.HAND_OVER:
            assert fast.next_hand() == plain.next_hand()
            continue
        assert trusted_turn(fast, rng_fast) == judged_turn(plain, rng_plain)
        assert state(fast) == state(plain)
    assert fast.phase is plain.phase


@SOME
@given(
    st.sampled_from(setups()),
    st.integers(0, 2**32 - 1),
    st.integers(0, 30),
    st.booleans(),
)
def test_a_snapshot_restored_gives_the_game_back(
    setup: tuple[str, int], seed: int, turns: int, whole: bool
) -> None:
    """Snapshot anywhere, let the hand go on to its end (per turn or played out, which
    scores it and may end the game), restore: the game is as it was, and plays on as its
    twin that was never snapshotted."""
    name, seats = setup
    game = Game(rules_named(name), seats, mode=Mode.FULL, seed=seed)
    twin = Game(rules_named(name), seats, mode=Mode.FULL, seed=seed)
    game.start()
    twin.start()
    rng = random.Random(seed)
    for _ in range(turns):
        if game.phase not in (Phase.LEAD, Phase.PLAY):
            break
        choice = rng.random()
        assert play_turn(game, RandomPlayer(random.Random(choice))).ok
        assert play_turn(twin, RandomPlayer(random.Random(choice))).ok
    before = copy.deepcopy(state(game))  # (the state holds the game's own lists)
    snap = game.snapshot()
    if whole:
        play_out(game, random.Random(seed + 1))
    else:
        play_hand(game, [RandomPlayer(random.Random(seed + 1))] * seats)
    game.restore(snap)
    assert state(game) == before == state(twin)
    mirror = Game(rules_named(name), seats, mode=Mode.FULL, seed=seed)
    mirror.restore(game.snapshot())  # (a snapshot's copies: the two games share nothing)
    for one in (game, twin, mirror):
        play_hand(one, [RandomPlayer(random.Random(seed + 2))] * seats)
    assert state(game) == state(twin) == state(mirror)


def test_a_snapshot_shares_nothing_with_the_game() -> None:
    game = Game(rulesets.load("walnut"), 2, mode=Mode.FULL, seed=4)
    game.start()
    player = RandomPlayer(random.Random(4))
    for _ in range(5):
        play_turn(game, player)
    snap = game.snapshot()
    assert snap.hands == game.hands and snap.hands is not game.hands
    assert snap.record is not None and snap.record.layout is not game.layout
    assert snap.record.layout.nodes == game.layout.nodes
    play_hand(game, [player, player])
    assert snap.record.layout.nodes != game.layout.nodes
