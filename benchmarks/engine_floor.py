"""The floor under `benchmarks/engine.py`: a puerto-rico hand that referees nothing.

    .venv/bin/python -m benchmarks.engine_floor [--hands N] [--seed S] [--bare-only]

Deals 28 tiles to 4 hands kept as bit fields, lets the holder of 6-6 lead, then each
turn picks a random tile that fits one of two end numbers (`engine.tiles.PIP_BITS`) and
keeps the new end number: no layout, no open-end topology, no events, no journal, no
scores, no rules beyond "it fits". Whatever a referee does costs more than this, so its
hands per second, beside `dominoes` in the same process, say how far a speed target is
within reach at all (docs/design/benchmarks.md, "How far 3x is"). Count it in instructions with
`valgrind --tool=callgrind` for two values of `--hands` (the difference over the
difference in hands is the cost of one hand, without the start-up).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from engine.tiles import PIP_BITS, TILE_OF_BIT, Tile

TILES = [Tile(high, low) for high in range(7) for low in range(high + 1)]
SIX_SIX = Tile(6, 6)


def bare_hand(rng: random.Random) -> int:
    """One hand to its end; the tiles laid."""
    keys = [rng.random() for _ in TILES]
    order = sorted(range(len(TILES)), key=keys.__getitem__)
    held = [0, 0, 0, 0]
    for i, k in enumerate(order):
        held[i // 7] |= TILES[k].bit
    turn = next(s for s in range(4) if held[s] & SIX_SIX.bit)
    held[turn] ^= SIX_SIX.bit
    ends = [6, 6]
    laid = 1
    passes = 0
    turn = (turn + 1) % 4
    draw = rng.random
    while True:
        hand = held[turn]
        left, right = hand & PIP_BITS[ends[0]], hand & PIP_BITS[ends[1]]
        if left or right:
            options: list[tuple[int, int]] = []
            while left:
                low = left & -left
                options.append((low, 0))
                left ^= low
            if ends[0] != ends[1]:
                while right:
                    low = right & -right
                    options.append((low, 1))
                    right ^= low
            bit, side = options[int(draw() * len(options))]
            tile = TILE_OF_BIT[bit]
            held[turn] = hand ^ bit
            end = ends[side]
            ends[side] = tile.low if tile.high == end else tile.high
            laid += 1
            passes = 0
            if not held[turn]:
                return laid
        else:
            passes += 1
            if passes == 4:
                return laid
        turn = (turn + 1) % 4


def dominoes_hand(rng: random.Random) -> int:
    """One hand of the `dominoes` package, chosen as `benchmarks/engine.py` chooses."""
    import dominoes  # the dev extra's comparison package, imported when used

    game = dominoes.Game.new(starting_domino=dominoes.Domino(6, 6))
    while game.result is None:
        moves = game.valid_moves
        game.make_move(*(moves[int(rng.random() * len(moves))]))
    return len(game.board)


def rate(play: Callable[[random.Random], int], hands: int, seed: int) -> float:
    """Hands per CPU second."""
    rng = random.Random(seed)
    random.seed(seed)
    start = time.process_time()
    for _ in range(hands):
        play(rng)
    return hands / (time.process_time() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bare-only", action="store_true", help="for callgrind: no dominoes")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    bare = rate(bare_hand, args.hands, args.seed)
    print(f"bare hand (no referee): {bare:,.0f} hands/s")
    if not args.bare_only:
        theirs = rate(dominoes_hand, max(1, args.hands // 4), args.seed)
        print(f"dominoes package:       {theirs:,.0f} hands/s")
        print(f"bare / dominoes: {bare / theirs:.2f}x: no referee can be faster than that")
        print(f"3x dominoes allows a referee {bare / theirs / 3:.2f}x the bare hand's CPU time")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
