"""Our rules engine beside two domino engines from the package index, in one process.

    python benchmarks/engine.py [--seconds S] [--rounds R] [--seed N] [--verify H]
                                [--cpu C] [--check]

Two comparisons, each engine playing whole hands with random legal plays (deal, play
until the hand ends, score the hand). Ours runs twice: per turn (`play_hand`, a
`RandomPlayer` in every seat: `legal_moves()`, the choice, `push()`, with every event)
and as a whole-hand play-out (`engine.playout.play_out`: the same hands from the same
random numbers, the same refereeing, no events made):

* `puerto-rico` (ours) against the `dominoes` package: 4 players in partnerships,
  7 tiles each from a double-six, no boneyard, block game. One hand there is one
  `dominoes.Game.new(starting_domino=6-6)` played to its `result`.
* `walnut` (ours, All Fives with a spinner, draw until playable) on 2 players against
  the `all-fives-domino` package (installed as a top-level package named `src`). One
  hand there is one `DominoRound` played to its end, then `Game.award_round_score()`.

The engines run in alternating rounds (ours first in even rounds, theirs first in odd
ones) on one pinned core with the same garbage-collector settings, all through the same
timing loop; the figures are the median over the rounds, in CPU time of this process
(the machine is shared: wall-clock rates would measure the neighbours). Before timing,
every engine plays `--verify` hands that are checked from the outside: the hand ended
as its rules say, every tile is in exactly one place, and the plays joined. The targets
(ours at least 3x `dominoes` and 50x `all-fives-domino` in hands per second, judged on
the faster of our two paths; both are printed) print PASS or MISS; only `--check` makes
a miss exit 1. `docs/design/benchmarks.md` ("Engine") explains.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

# Run as `python benchmarks/engine.py`, this file's folder heads sys.path and its name
# would shadow the `engine` package: look it up from the project root instead.
_HERE = Path(__file__).resolve().parent
_ROOT = _HERE.parent
sys.path[:] = [p for p in sys.path if Path(p or os.curdir).resolve() != _HERE]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

if TYPE_CHECKING:
    from engine import Game

GAME_HANDS = 50  # our engine: a fresh game every so many hands (the hands are what count)
NO_TARGET = 10**9  # our engine: a target no game reaches, so that no game ends mid-hand
DOMINOES_TARGET = 3.0  # ours / `dominoes`, hands per second, on puerto-rico
ALL_FIVES_TARGET = 50.0  # ours / `all-fives-domino`, hands per second, on All Fives


class BenchmarkError(RuntimeError):
    """An engine did not play a hand as its rules say: its figures would mean nothing."""


@dataclass(slots=True)
class Tally:
    """What one timed run played."""

    hands: int
    plays: int  # tiles laid (the lead included); passes and draws are not plays
    seconds: float  # CPU time of this process: the machine is shared
    wall: float

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds

    @property
    def us_per_play(self) -> float:
        return self.seconds / self.plays * 1e6


class Engine:
    """One engine under test: `hand()` plays a whole hand, `check()` judges it."""

    name: str
    variant: str

    def __init__(self) -> None:
        self.tallies: list[Tally] = []

    def begin(self, seed: int) -> None:
        """Seed the deals and the players' choices."""
        raise NotImplementedError

    def hand(self) -> int:
        """Deal, play random legal plays to the end of the hand, score it: tiles laid."""
        raise NotImplementedError

    def check(self) -> None:
        """Raise `BenchmarkError` unless the hand just played ended as its rules say."""
        raise NotImplementedError

    def run(self, seed: int, seconds: float) -> Tally:
        """Whole hands (one at least) until this process has had `seconds` of CPU, or
        twice that has passed on the wall clock; the same loop for every engine."""
        self.begin(seed)
        hand = self.hand
        cpu, wall = time.process_time, time.perf_counter
        hands = plays = 0
        cpu_start, wall_start = cpu(), wall()
        cpu_end, wall_end = cpu_start + seconds, wall_start + 2 * seconds
        while True:
            plays += hand()
            hands += 1
            if cpu() >= cpu_end or wall() >= wall_end:
                return Tally(hands, plays, cpu() - cpu_start, wall() - wall_start)

    def verify(self, seed: int, count: int) -> None:
        self.begin(seed)
        for _ in range(count):
            self.hand()
            self.check()

    def fail(self, what: str) -> BenchmarkError:
        return BenchmarkError(f"{self.name}: {what}")

    def median(self, key: Callable[[Tally], float]) -> float:
        return statistics.median(key(t) for t in self.tallies)

    def best(self, key: Callable[[Tally], float]) -> float:
        return max(key(t) for t in self.tallies)


FULL_SET = [(i, j) for i in range(7) for j in range(i, 7)]  # double-six, low pip first


# --- ours ----------------------------------------------------------------------------------


class Ours(Engine):
    """Our engine in full information: `RandomPlayer` in every seat, `play_hand` per hand."""

    def __init__(self, ruleset: str, seats: int, variant: str) -> None:
        from engine import Game, Mode, Phase, rulesets
        from engine.players import RandomPlayer, play_hand

        super().__init__()
        self.name = f"ours ({ruleset})"
        self.variant = variant
        rules = rulesets.load(ruleset)
        self.seats = seats
        self.rng = rng = random.Random()
        self.players = [RandomPlayer(rng)] * seats
        self.play_hand = play_hand
        self.hand_over = Phase.HAND_OVER
        self.played = 0

        def new_game() -> Game:
            game = Game(rules, seats, mode=Mode.FULL, seed=rng.getrandbits(32), target=NO_TARGET)
            game.start()
            return game

        self.new_game = new_game
        self.game = new_game()

    def begin(self, seed: int) -> None:
        self.rng.seed(seed)
        self.played = 0

    def hand(self) -> int:
        if self.played % GAME_HANDS == 0:
            game = self.game = self.new_game()
        else:
            game = self.game
            game.next_hand()
        self.played += 1
        laid = self.play(game)
        if game.phase is not self.hand_over:
            raise self.fail(f"a hand stopped in phase {game.phase}")
        return laid

    def play(self, game: Game) -> int:
        """Play the hand dealt to its end; the tiles laid."""
        self.play_hand(game, self.players)  # raises if the engine refuses a move it offered
        return len(game.layout)

    def check(self) -> None:
        from engine import HandResult

        game = self.game
        hands, boneyard = game.hands or [], game.boneyard or []
        laid = game.layout.tiles()
        every = sorted((t.low, t.high) for t in [*laid, *(t for h in hands for t in h), *boneyard])
        if len(hands) != self.seats or every != FULL_SET:
            raise self.fail("a tile is lost or doubled")
        if len(laid) <= self.seats:
            raise self.fail(f"only {len(laid)} tiles laid")
        if game.result is HandResult.DOMINO:
            if game.out_seat is None or hands[game.out_seat]:
                raise self.fail("domino with tiles in hand")
        elif game.result is HandResult.BLOCKED:
            if boneyard or any(game.layout.joins(t) for h in hands for t in h):
                raise self.fail("blocked while a tile could play or be drawn")
        else:
            raise self.fail(f"the hand ended as {game.result}")
        if game.history[-1].hand != game.hand_no:
            raise self.fail("the hand was not scored")


class OursPlayOut(Ours):
    """Our engine's whole-hand play-out (`engine.playout.play_out`): the same games and
    hands as `Ours` from the same seed, refereed the same, without making events."""

    def __init__(self, ruleset: str, seats: int, variant: str) -> None:
        from engine.playout import play_out

        super().__init__(ruleset, seats, variant)
        self.name = f"ours play-out ({ruleset})"
        self.play_out = play_out

    def play(self, game: Game) -> int:
        return self.play_out(game, self.rng)


# --- the `dominoes` package --------------------------------------------------------------


class DominoesPackage(Engine):
    """`dominoes.Game.new(starting_domino=6-6)` played to its `result`: a hand of the
    4-player partnership block game (the package deals from the global `random`)."""

    variant = "puerto-rico"

    def __init__(self) -> None:
        import dominoes

        super().__init__()
        self.name = f"dominoes {metadata.version('dominoes')}"
        self.new = dominoes.Game.new
        self.six_six = dominoes.Domino(6, 6)
        self.rng = random.Random()

    def begin(self, seed: int) -> None:
        random.seed(seed)
        self.rng.seed(seed)

    def hand(self) -> int:
        randrange = self.rng.randrange
        game = self.game = self.new(starting_domino=self.six_six)  # the holder of 6-6 leads
        while game.result is None:
            moves = game.valid_moves  # chosen as our RandomPlayer chooses
            move = moves[randrange(len(moves))] if len(moves) > 1 else moves[0]
            game.make_move(*move)  # passes are made for the seats that cannot play
        return len(game.board)

    def check(self) -> None:
        game = self.game
        chain = list(game.board.board)
        if game.moves[0][0] != self.six_six:
            raise self.fail("6-6 did not lead")
        if any(a.second != b.first for a, b in itertools.pairwise(chain)):
            raise self.fail("the line of play does not join")
        every = [*chain, *(d for h in game.hands for d in h)]
        if sorted((min(d), max(d)) for d in every) != FULL_SET:
            raise self.fail("a tile is lost or doubled")
        result = game.result
        if result.won:
            if game.hands[result.player]:
                raise self.fail("won with tiles in hand")
        else:
            ends = (game.board.left_end(), game.board.right_end())
            if any(e in d for h in game.hands for d in h for e in ends):
                raise self.fail("stuck while a tile could play")


# --- the `all-fives-domino` package ------------------------------------------------------


class AllFivesPackage(Engine):
    """`all-fives-domino` (a top-level package named `src`): one `DominoRound` (shuffle,
    deal 7 each, the lead double laid) played to its end, then `Game.award_round_score()`.

    The hand is played by the package's own `DominoRound.run()` with its own
    `RandomBrain` players, as shipped: the alternative is the package as its authors made
    it, not a faster loop of ours around its parts.
    """

    variant = "All Fives, 2 players, draw"

    def __init__(self) -> None:
        from src.main.game.Brain import RandomBrain  # type: ignore[import-untyped]
        from src.main.game.DominoRound import DominoRound  # type: ignore[import-untyped]
        from src.main.game.Game import Game  # type: ignore[import-untyped]
        from src.main.game.Player import Player  # type: ignore[import-untyped]

        super().__init__()
        self.name = f"all-fives-domino {metadata.version('all-fives-domino')}"
        self.round_class = DominoRound
        self.one = Player(RandomBrain(), "one")
        self.two = Player(RandomBrain(), "two")
        self.game = Game(self.one, self.two)
        self.rng = random.Random()

    def begin(self, seed: int) -> None:
        random.seed(seed)
        self.rng.seed(seed)

    def hand(self) -> int:
        one, two, game = self.one, self.two, self.game
        # Scores start at 0 each hand: the package raises GameWinSignal mid-play at 305.
        one._score = two._score = game.eggs = 0
        rnd = self.round = game.round = self.round_class(one, two, game)
        pool = rnd.pool
        rnd.run()
        game.award_round_score()
        return 28 - len(pool) - len(one.hand) - len(two.hand)

    def check(self) -> None:
        rnd = self.round
        board, pool = rnd.board.get_pieces(), rnd.pool
        hand1, hand2 = list(self.one.hand), list(self.two.hand)
        if sorted(tuple(p.sides) for p in [*board, *hand1, *hand2, *pool]) != FULL_SET:
            raise self.fail("a tile is lost or doubled")
        for piece in board[1:]:
            if not set(piece.sides) & set(piece.linked_to.sides):
                raise self.fail(f"{piece} joins {piece.linked_to} with no match")
        if hand1 and hand2:  # blocked: neither can play, the pool is down to its last tile
            if len(pool) > 1 or rnd.valid_options(self.one.hand):
                raise self.fail("blocked while a tile could play or be drawn")
            if rnd.valid_options(self.two.hand):
                raise self.fail("blocked while a tile could play")


# --- running ------------------------------------------------------------------------------


@dataclass(slots=True)
class Comparison:
    title: str
    ours: tuple[Engine, ...]  # per turn, play-out: the target is judged on the faster
    theirs: Engine
    target: float
    note: str

    def ratios(self, mine: Engine) -> tuple[float, float]:
        """Ours/theirs: in hands per second, and per play (in µs per tile laid)."""
        theirs = self.theirs
        speed = mine.median(_hands_per_second) / theirs.median(_hands_per_second)
        return speed, theirs.median(_us_per_play) / mine.median(_us_per_play)


def comparisons() -> list[Comparison]:
    return [
        Comparison(
            "block game, 4 players in partnerships",
            (Ours("puerto-rico", 4, "puerto-rico"), OursPlayOut("puerto-rico", 4, "puerto-rico")),
            DominoesPackage(),
            DOMINOES_TARGET,
            "same rules; their hand always starts with 6-6, ours after the first is led by "
            "the last winner with any tile.",
        ),
        Comparison(
            "All Fives with a boneyard, 2 players",
            (
                Ours("walnut", 2, "All Fives, 2 players, draw"),
                OursPlayOut("walnut", 2, "All Fives, 2 players, draw"),
            ),
            AllFivesPackage(),
            ALL_FIVES_TARGET,
            "ours also referees a spinner, must-play (a pass is an input, refused while a "
            "tile fits) and the end-of-hand bonus (rounded, in fives), and draws the "
            "boneyard dry; theirs keeps one tile back, leads 5-5 first, lets doubles be "
            "laid closed and scores the hand in raw pips.",
        ),
    ]


def pin(cpu: int) -> set[int] | None:
    """Pin this process to one core; the cores it had, to give back (None: unchanged)."""
    if cpu < 0 or not hasattr(os, "sched_setaffinity"):
        return None
    before = os.sched_getaffinity(0)
    try:
        os.sched_setaffinity(0, {cpu})
    except OSError:
        return None
    return before


def timed(engine: Engine, seed: int, seconds: float) -> None:
    gc.collect()  # every run starts from a clean heap, with the default gc thresholds
    engine.tallies.append(engine.run(seed, seconds))


def measure(comparison: Comparison, *, seconds: float, rounds: int, seed: int, verify: int) -> None:
    """Verify the engines, then time them in alternating rounds."""
    engines = (*comparison.ours, comparison.theirs)
    for engine in engines:
        engine.verify(seed, verify)  # also warms them up
    share = seconds / rounds
    for number in range(rounds):
        for engine in engines if number % 2 == 0 else engines[::-1]:
            timed(engine, seed + number, share)


def report(results: Sequence[Comparison], out: Callable[[str], None]) -> bool:
    """Print the table and the targets; whether every target is met."""
    header = (
        f"{'engine':<28} {'variant':<26} {'hands/s':>8} {'best':>7} {'µs/play':>8} "
        f"{'plays/hand':>10} {'hands':>6} {'cpu':>4}  {'x hands/s':>9} {'x per play':>10}"
    )
    out(header)
    out("-" * len(header))
    for comparison in results:
        for engine in (*comparison.ours, comparison.theirs):
            hands = sum(t.hands for t in engine.tallies)
            plays = sum(t.plays for t in engine.tallies)
            share = sum(t.seconds for t in engine.tallies) / sum(t.wall for t in engine.tallies)
            ratios = ""
            if engine is not comparison.theirs:
                speed, per_play = comparison.ratios(engine)
                ratios = f"{speed:>8.2f}x {per_play:>9.2f}x"
            out(
                f"{engine.name:<28} {engine.variant:<26} "
                f"{engine.median(_hands_per_second):>8.0f} "
                f"{engine.best(_hands_per_second):>7.0f} "
                f"{engine.median(_us_per_play):>8.1f} "
                f"{plays / hands:>10.1f} {hands:>6} {share:>4.0%}  {ratios}".rstrip()
            )
    out("")
    met = True
    for comparison in results:
        theirs = comparison.theirs
        paths = sorted(
            ((comparison.ratios(mine), mine.name) for mine in comparison.ours), reverse=True
        )
        (speed, per_play), fastest = paths[0]
        ok = speed >= comparison.target
        met = met and ok
        others = "; ".join(f"{name} {s:.2f}x ({p:.2f}x per play)" for (s, p), name in paths[1:])
        out(
            f"ours/{theirs.name.split()[0]} on {theirs.variant}: {speed:.2f}x hands/s "
            f"({per_play:.2f}x per play) by {fastest}; {others}; "
            f"target >= {comparison.target:g}x on the faster: {'PASS' if ok else 'MISS'}"
        )
        out(f"  {comparison.note}")
    return met


def _hands_per_second(tally: Tally) -> float:
    return tally.hands_per_second


def _us_per_play(tally: Tally) -> float:
    return tally.us_per_play


def versions() -> str:
    parts = [f"Python {platform.python_version()} ({platform.python_implementation()})"]
    for package in ("dominoes", "all-fives-domino"):
        try:
            parts.append(f"{package} {metadata.version(package)}")
        except metadata.PackageNotFoundError:
            parts.append(f"{package} missing")
    return ", ".join(parts)


def count(name: str, seed: int, verify: int, hands: int, out: Callable[[str], None]) -> int:
    """Verify (and warm up) one engine, then play `hands` hands untimed: a run to count
    in instructions (`valgrind --tool=callgrind`), where timings mean nothing."""
    engines = [e for c in comparisons() for e in (*c.ours, c.theirs) if e.name == name]
    if not engines:
        every = ", ".join(repr(e.name) for c in comparisons() for e in (*c.ours, c.theirs))
        out(f"no engine named {name!r}; one of {every}")
        return 2
    engine = engines[0]
    engine.verify(seed, verify)
    for _ in range(hands):
        engine.hand()
    out(f"{engine.name}: {verify} verified and {hands} more hands played")
    return 0


def main(argv: Sequence[str] | None = None, out: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=6.0, help="CPU seconds per engine")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (median)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--verify", type=int, default=50, help="checked hands per engine")
    parser.add_argument("--cpu", type=int, default=0, help="core to pin to (-1: do not pin)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    parser.add_argument(
        "--count",
        metavar="ENGINE",
        help="for callgrind: only verify ENGINE (e.g. 'ours play-out (walnut)'), then play "
        "--hands more hands untimed; instructions per hand = (run of N - run of 0) / N",
    )
    parser.add_argument("--hands", type=int, default=0, help="hands played with --count")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1 or args.verify < 1 or args.hands < 0:
        parser.error("--seconds must be positive, --rounds and --verify at least 1")
    state = random.getstate()
    if args.count is not None:
        try:
            return count(args.count, args.seed, args.verify, args.hands, out)
        finally:
            random.setstate(state)
    affinity = pin(args.cpu)
    try:
        pinned = f"pinned to core {args.cpu}" if affinity is not None else "not pinned"
        out(f"{versions()}; {pinned}; gc thresholds {gc.get_threshold()}")
        out(
            f"{args.seconds:g} s of CPU per engine in {args.rounds} alternating rounds, "
            f"seed {args.seed}; figures are medians over the rounds, in CPU time"
        )
        results = comparisons()
        for comparison in results:
            names = " and ".join(engine.name for engine in comparison.ours)
            out(f"{names} vs {comparison.theirs.name} ({comparison.title})...")
            measure(
                comparison,
                seconds=args.seconds,
                rounds=args.rounds,
                seed=args.seed,
                verify=args.verify,
            )
        out("")
        met = report(results, out)
    finally:
        if affinity is not None:
            os.sched_setaffinity(0, affinity)
        random.setstate(state)
    return 1 if args.check and not met else 0


if __name__ == "__main__":
    sys.exit(main())
