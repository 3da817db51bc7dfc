"""Games read through the camera by a table that enrolled its set from the mat, per look.

    nice -n 10 .venv/bin/python -m benchmarks.enrolled_games [--games 1] [--plays N | --target N]
        [--look NAME]... [--without-model | --model-only]

For each look (a set on a table: black with white pips, black with ringed halves, pink
with yellow pips, ivory on white, coloured pips on a double-twelve on wood, wooden), the
filled enrolment mat is rendered on the table and
enrolled (`vision.Pipeline.enrol_mat`); then whole games of a ruleset for that set are
played (`tablesim.scenes.sim_whole_game`), rendered with hands passing
(`tablesim.camera.SimSource`) and read by the camera path with the set model. A play is
right when the settled reading of the table after it holds the tile laid, with its
numbers, where it was laid (its centre within 12 mm). Printed per look: plays, plays
right (share), tiles read wrong or extra in those readings, the CPU per frame read
(median and most; the most of the empty table's, between hands), and beside it the same
frames read with the set's tone and tile size but without its halves (`--without-model`
alone: only that).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from tempfile import TemporaryDirectory

import cv2

from engine.surface import SeenTile, Snapshot
from engine.tiles import DominoSet, Tile
from mat import mat_for
from tablesim.camera import SimSource
from tablesim.render import RenderStyle, Surface, TileStyle
from tablesim.render.mat import filled_mat, render_mat
from tablesim.scenes import SimGame, sim_game, sim_whole_game
from vision import Pipeline, PipelineSettings
from vision.frames import Frame

NEAR_MM = 12.0
AT = datetime(2026, 12, 7, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Look:
    name: str
    style: RenderStyle
    domino_set: DominoSet
    paper: str
    rules: str
    seats: int


def looks() -> list[Look]:
    """The six looks of issue 31 (the ringed black set once the renderer has it)."""
    out = [
        Look("black, white pips", RenderStyle(TileStyle.BLACK, Surface.DARK_CLOTH),
             DominoSet.DOUBLE_SIX, "a4", "straight-block", 2),
        Look("pink, yellow pips", RenderStyle(TileStyle.PINK_YELLOW, Surface.WOOD),
             DominoSet.DOUBLE_SIX, "a4", "straight-block", 2),
        Look("ivory on white", RenderStyle(TileStyle.IVORY, Surface.WHITE_PAPER),
             DominoSet.DOUBLE_SIX, "a4", "straight-block", 2),
        Look("coloured pips, double-twelve, wood",
             RenderStyle(TileStyle.IVORY_TWELVE, Surface.WOOD),
             DominoSet.DOUBLE_TWELVE, "a3", "walnut", 5),
        Look("wooden", RenderStyle(TileStyle.WOOD, Surface.LIGHT_WOOD),
             DominoSet.DOUBLE_SIX, "a4", "straight-block", 2),
    ]  # fmt: skip
    ringed = next((s for s in TileStyle if "ring" in s.value), None)
    if ringed is not None:
        style = RenderStyle(ringed, Surface.DARK_CLOTH)
        out.insert(1, Look("black, ringed halves", style, DominoSet.DOUBLE_SIX, "a4",
                           "straight-block", 2))  # fmt: skip
    return out


def enrolled(look: Look, state: Path, seed: int = 1) -> Pipeline:
    """A camera path whose set was enrolled from its filled mat on the table."""
    mat = mat_for(look.domino_set, look.paper)
    scene = filled_mat(mat, look.style.tile_set.size_mm, seed=seed)
    frame = render_mat(scene, look.style, seed=seed)
    pipeline = Pipeline(PipelineSettings(), state)
    enrolment = pipeline.enrol_mat([Frame(frame.image, 0.0)], look.domino_set, AT, mat)
    if not enrolment.ok:
        raise SystemExit(f"{look.name}: the mat was not enrolled: {enrolment.summary()}")
    return pipeline


@dataclass
class Tally:
    plays: int = 0
    right: int = 0
    wrong: int = 0  # tiles of a reading after a play not on the table as read
    seconds: float = 0.0
    read_ms: list[float] = field(default_factory=list)  # CPU per frame read, ms
    empty_ms: list[float] = field(default_factory=list)  # ... of those of an empty table

    def add(self, other: Tally) -> None:
        self.plays += other.plays
        self.right += other.right
        self.wrong += other.wrong
        self.seconds += other.seconds
        self.read_ms += other.read_ms
        self.empty_ms += other.empty_ms

    @property
    def share(self) -> float:
        return self.right / max(self.plays, 1)


def _holds(reading: Snapshot, tile: SeenTile) -> bool:
    cx, cy = (tile.xa + tile.xb) / 2, (tile.ya + tile.yb) / 2
    want = Tile(tile.a, tile.b)
    for t in reading.tiles:
        x, y = (t.xa + t.xb) / 2, (t.ya + t.yb) / 2
        if Tile(t.a, t.b) is want and (x - cx) ** 2 + (y - cy) ** 2 <= NEAR_MM**2:
            return True
    return False


def _wrong(reading: Snapshot, scene: tuple[SeenTile, ...]) -> int:
    seen = Counter(Tile(t.a, t.b) for t in reading.tiles)
    there = Counter(Tile(t.a, t.b) for t in scene)
    return sum((seen - there).values())


def read_game(game: SimGame, style: RenderStyle, pipeline: Pipeline, seed: int) -> Tally:
    """Every play of `game` read through `pipeline`: the last settled reading of each
    scene against the scene."""
    source = SimSource(game, fps=10.0, pace_s=0.6, style=style, seed=seed)
    last: dict[int, Snapshot] = {}
    start = time.process_time()
    read_ms: list[float] = []
    empty_ms: list[float] = []
    while True:
        frame = source.read()
        if frame is None:
            break
        began = time.process_time()
        step = pipeline.step(frame)
        took = (time.process_time() - began) * 1000.0
        shown = source.last
        if step.detection is not None:
            read_ms.append(took)
            if shown is not None and not game.scenes[shown.scene_index]:
                empty_ms.append(took)
        if step.reading is not None and shown is not None and not shown.truth.hand_visible:
            last[shown.scene_index] = step.reading
    tally = Tally(seconds=time.process_time() - start, read_ms=read_ms, empty_ms=empty_ms)
    before: set[tuple[float, float]] = set()
    for i, scene in enumerate(game.scenes):
        new = [t for t in scene if (t.xa, t.ya) not in before]
        before = {(t.xa, t.ya) for t in scene}
        reading = last.get(i)
        for tile in new:
            tally.plays += 1
            tally.right += reading is not None and _holds(reading, tile)
        if reading is not None and new:
            tally.wrong += _wrong(reading, scene)
    return tally


def games(
    look: Look, count: int, plays: int | None, target: int | None = None
) -> Iterator[tuple[int, SimGame]]:
    """`count` games of the look's rules (seeds 0, 1, ...): whole games (to `target`
    points, the ruleset's own target when None), or hands of at most `plays` plays."""
    for seed in range(count):
        tile_mm = look.style.tile_set.size_mm
        if plays is not None:
            yield seed, sim_game(look.rules, look.seats, seed, plays=plays, tile_mm=tile_mm)
        else:
            yield (
                seed,
                sim_whole_game(look.rules, look.seats, seed, target=target, tile_mm=tile_mm),
            )


def run(
    look: Look, count: int, plays: int | None, with_model: bool, target: int | None = None
) -> Tally:
    total = Tally()
    with TemporaryDirectory(prefix="enrolled-") as tmp:
        pipeline = enrolled(look, Path(tmp))
        if not with_model:
            pipeline._reader = None
        for seed, game in games(look, count, plays, target):
            total.add(read_game(game, look.style, pipeline, seed))
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="games per look")
    parser.add_argument("--plays", type=int, help="a hand of at most N plays, not whole games")
    parser.add_argument("--target", type=int, help="whole games to N points (default: the rules')")
    parser.add_argument("--look", action="append", help="only this look (repeatable)")
    parser.add_argument("--without-model", action="store_true", help="only without halves")
    parser.add_argument("--model-only", action="store_true", help="only with the set model")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    chosen = [lk for lk in looks() if not args.look or lk.name in args.look]
    kind = f"hands of {args.plays} plays" if args.plays else "whole games"
    if args.target and not args.plays:
        kind += f" to {args.target} points"
    print(f"{args.games} {kind} per look, each set enrolled from its mat (CPU s, one thread)")
    print(
        f"{'look':<36}{'plays':>6}{'right':>8}{'wrong':>6}{'CPU s':>7}"
        f"{'ms/frame med':>13}{'max':>6}{'empty max':>10}   without halves"
    )
    for look in chosen:
        print(f"  {look.name} ...", file=sys.stderr, flush=True)
        line = f"{look.name:<36}"
        if not args.without_model:
            t = run(look, args.games, args.plays, with_model=True, target=args.target)
            line += f"{t.plays:>6}{t.share:>8.1%}{t.wrong:>6}{t.seconds:>7.0f}"
            med = statistics.median(t.read_ms) if t.read_ms else 0.0
            top = max(t.read_ms, default=0.0)
            empty = f"{max(t.empty_ms):.0f}" if t.empty_ms else "-"
            line += f"{med:>13.0f}{top:>6.0f}{empty:>10}"
        else:
            line += " " * 56
        if not args.model_only:
            without = run(look, args.games, args.plays, with_model=False, target=args.target)
            line += f"   {without.share:.1%} ({without.wrong} wrong)"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
