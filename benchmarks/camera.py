"""The camera path on rendered games: accuracy, false plays, time per frame.

Run from the repository root:

    .venv/bin/python -m benchmarks.camera [--games 16] [--plays 10] [--seed 1]

Each game is a random legal full-information hand (`tablesim.scenes.sim_game`,
straight-block, two seats) laid out by the Placer and rendered with
`tablesim.render.render_sequence` (1280x960, an overhead camera over a 900x600 mm table
with the four corner markers), a hand reaching in for every tile (6 frames), each
play then lying still for 5 frames (half a second at 10 fps). The games go round the
tile sets (ivory, black, wood, coloured), tables (felt, wood, cloth, glossy) and lights
(daylight, lamp), every set meeting every table once in 16 games; every other game has
a cloud passing (exposure 0.75 for 15 frames of every 60), and the last four of each 16
are drawn harsh (glare, blur, noise, JPEG over a dark glossy table under a lamp).

Every frame goes through the real `vision.camera_path.pipeline.Pipeline` (motion gate, marker
calibration, detection with the set's tone, stable readings), and every observation it
passes on goes to a real `service.core.reconciler.Reconciler` on a table-mode game that is
told only what players tell (who led, knocks). Figures:

- per-tile accuracy: over every observation, the share of the tiles on the table
  read with the right pips and both halves within 5 mm of the truth (an observation
  with an unsure place counts too, though the reconciler does not judge it; the
  same over the others only; and, for comparison, the detector alone over every
  frame the gate let through);
- false plays: plays the reconciler accepted that the game did not make, plus
  observations taken while a hand was in view;
- alerts: alerts the reconciler raised (nothing illegal is laid in these games, so
  each is a false alarm, e.g. `NOT_TOUCHING` for a tile read in the wrong place);
- missed plays: plays of the game the reconciler never accepted;
- UNREADABLE raised: how often an unsure place stood long enough to be reported;
- accepted early: plays accepted while an earlier play of the game had not been (an
  unread lead makes the next tile read the table's lead): not false plays, but the
  table's game differs from the players' from then on;
- ms per frame: CPU time of `Pipeline.step` on one thread (OpenCV set to one thread),
  over all frames and over the frames it read (the gate lets about one frame in three
  through); the wall time too, which on a shared machine is longer;
- the view on and off: every frame is also handed to the camera's view
  (`service.camera.view.CameraView`: the status, the set-up measured, snapshots drawn
  and encoded after settled readings, at most one a second), its CPU timed apart: "view
  off" is the camera path alone, "view on" the path and the view, as the service runs
  them; with the snapshots published and the CPU of each.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2

from benchmarks.where import machine_line
from engine import Game, rulesets
from engine.geometry import TileSize
from engine.surface import SeenTile, Snapshot
from service.camera.events import CameraPicture
from service.camera.view import CameraView, ViewSettings
from service.core.reconciler import Accepted, Reconciler, SurfaceAlert
from tablesim.render import Lighting, RenderStyle, Surface, TileStyle, render_sequence
from tablesim.scenes import SimGame, sim_game
from vision.camera_path.pipeline import Pipeline, PipelineSettings, Step
from vision.detector.settings import Settings
from vision.frames import Frame
from vision.tiles.dark_marks import Tone

FPS = 10.0
TONES = {
    TileStyle.IVORY: Tone.LIGHT,
    TileStyle.COLOURED: Tone.LIGHT,
    TileStyle.BLACK: Tone.DARK,
    TileStyle.WOOD: Tone.GREY,
}
TARGETS = (("per-tile accuracy", ">= 99 %"), ("false plays", "0"))


@dataclass
class Tally:
    tiles: int = 0
    right: int = 0
    observations: int = 0
    with_hand: int = 0
    false_plays: int = 0
    alerts: list[str] = field(default_factory=list)
    missed: int = 0
    early: int = 0  # plays accepted while an earlier play of the game was not
    unsure: int = 0  # observations with an unsure place (the reconciler does not judge them)
    sure_tiles: int = 0  # the tiles of the other observations
    sure_right: int = 0
    unreadable: int = 0  # times an unreadable place was raised (UNREADABLE)
    plays: int = 0
    frames: int = 0
    frame_tiles: int = 0  # the detector alone, on every frame the gate let through
    frame_right: int = 0
    ms_all: list[float] = field(default_factory=list)
    ms_read: list[float] = field(default_factory=list)
    wall_ms: list[float] = field(default_factory=list)
    view_ms: list[float] = field(default_factory=list)  # the view's CPU, each frame
    picture_ms: list[float] = field(default_factory=list)  # ... on the frames it pictured

    def observed(self, seen: Snapshot, truth: Snapshot, hand: bool) -> None:
        """One observation passed on, and the table's truth at that frame."""
        self.observations += 1
        self.with_hand += hand
        self.tiles += len(truth.tiles)
        right = right_tiles(seen, truth)
        self.right += right
        if seen.unsure:
            self.unsure += 1
        else:
            self.sure_tiles += len(truth.tiles)
            self.sure_right += right

    def add(self, other: Tally) -> None:
        names = (
            *("tiles", "right", "observations", "with_hand", "false_plays", "unsure"),
            *("sure_tiles", "sure_right", "unreadable", "early", "frame_tiles", "frame_right"),
        )
        for name in names:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.missed += other.missed
        self.plays += other.plays
        self.frames += other.frames
        self.alerts += other.alerts
        self.ms_all += other.ms_all
        self.ms_read += other.ms_read
        self.wall_ms += other.wall_ms
        self.view_ms += other.view_ms
        self.picture_ms += other.picture_ms


def style_for(i: int) -> RenderStyle:
    """Game i's look: in each round of 16, every set meets every table once, under
    daylight and lamp twice each; the last four games are harsh."""
    tiles = list(TileStyle)[i % 4]
    surface = list(Surface)[(i + i // 4) % 4]
    light = list(Lighting)[(i // 4) % 2]
    if i % 16 >= 12:
        return RenderStyle.harsh(tiles)
    return RenderStyle(tiles=tiles, surface=surface, lighting=light)


def cloudy(i: int) -> bool:
    """Every other game of each set has a cloud passing."""
    return (i + i // 4) % 2 == 1


def right_tiles(seen: Snapshot, truth: Snapshot, mm: float = 5.0) -> int:
    left = list(seen.tiles)
    right = 0
    for t in truth.tiles:
        for j, s in enumerate(left):
            if s.tile == t.tile and _near(s.high_first(), t.high_first(), mm):
                right += 1
                left.pop(j)
                break
    return right


def _near(a: SeenTile, b: SeenTile, mm: float) -> bool:
    return max(abs(a.xa - b.xa), abs(a.ya - b.ya), abs(a.xb - b.xb), abs(a.yb - b.yb)) <= mm


def accepted_early(made: Sequence[str], accepted: Sequence[str]) -> int:
    """Plays accepted while an earlier play of the game had not been."""
    return sum(
        1
        for i, tile in enumerate(accepted)
        if tile in made and any(m not in accepted[:i] for m in made[: made.index(tile)])
    )


def tell(table: Game, told: Sequence[Mapping[str, Any]]) -> None:
    """What the players tell the table after a play: who led, knocks."""
    for body in told:
        if body["action"] == "lead":
            table.name_leader(body["seat"])
        elif body["action"] == "pass":
            table.pass_turn(body["seat"])


def run_game(game: SimGame, style: RenderStyle, seed: int, cloud: bool) -> Tally:
    tally = Tally(plays=len(game.plays))
    table = Game(rulesets.load(game.rules), game.seats)
    table.start()
    now = [0.0]
    rec = Reconciler(table, TileSize(), 1.5, lambda: now[0])
    pipeline = Pipeline(
        PipelineSettings(detector=Settings(tone=TONES[TileStyle(style.tile_set.name)]))
    )
    view = Viewed(pipeline)
    accepted: list[str] = []
    told_upto = -1  # the scene whose commands the players have given
    resting = -1  # the last scene seen at rest (without a hand in view)
    unreadable = False

    def light(i: int) -> float:
        return 0.75 if cloud and 20 <= i % 60 < 35 else 1.0

    scenes = [list(s) for s in game.scenes]
    for item in render_sequence(scenes, style, seed, still_frames=5, exposures=light):
        now[0] = item.index / FPS
        # The players tell what followed a play (knocks, draws) as the next hand reaches
        # in, as `tablesim.camera.SimSource` does: a hand in view belongs to the pass
        # leaving the scene last seen at rest, even once the tile it lays shows under it
        # (told earlier, a closing knock ended the hand before its last tile was seen).
        leaving = resting if item.hand_visible else item.scene_index - 1
        if not item.hand_visible:
            resting = item.scene_index
        while told_upto < leaving:
            told_upto += 1
            tell(table, game.told[told_upto])
        step = timed_step(pipeline, Frame(item.image, now[0]), tally, view)
        if step.reading is not None:
            truth = item.truth.snapshot()
            tally.frame_tiles += len(truth.tiles)
            tally.frame_right += right_tiles(step.reading, truth)
        if pipeline.unreadable is not None and not unreadable:
            tally.unreadable += 1
        unreadable = pipeline.unreadable is not None
        outcomes = list(rec.tick(now[0]))
        if step.observation is not None:
            tally.observed(step.observation, item.truth.snapshot(), item.hand_visible)
            outcomes += rec.observe(step.observation)
        for outcome in outcomes:
            if isinstance(outcome, Accepted):
                accepted += [
                    e.payload()["tile"] for e in outcome.judgement.events if e.kind == "play"
                ]
            elif isinstance(outcome, SurfaceAlert):
                tally.alerts.append(f"{outcome.code} {outcome.tile}")
    made = [p["tile"] for p in game.plays]
    tally.early = accepted_early(made, accepted)
    extra = list(accepted)
    for tile in made:
        if tile in extra:
            extra.remove(tile)
        else:
            tally.missed += 1
    tally.false_plays = len(extra) + tally.with_hand
    return tally


def print_view(total: Tally) -> None:
    """The camera path alone (view off) and with the camera's view (on), CPU per frame."""
    off = statistics.mean(total.ms_all)
    view = statistics.mean(total.view_ms)
    seconds = total.frames / FPS
    print(f"view off            {off:8.1f}   ms per frame, CPU: the camera path alone")
    print(f"view on             {off + view:8.1f}   ms per frame, CPU: the path and the view "
          f"(+{view:.1f}, {view / off:.1%})")  # fmt: skip
    if total.picture_ms:
        each = statistics.mean(total.picture_ms)
        others = len(total.view_ms) - len(total.picture_ms)
        rest = (sum(total.view_ms) - sum(total.picture_ms)) / max(1, others)
        print(f"  snapshots         {len(total.picture_ms):8d}   in {seconds:.0f} s of frames, "
              f"{each:.1f} ms CPU each (measured, drawn, encoded); "
              f"{rest:.2f} ms on the other frames")  # fmt: skip


class Viewed:
    """The camera's view beside the pipeline, as the service runs it; its CPU timed apart."""

    def __init__(self, pipeline: Pipeline) -> None:
        self.pictures = 0
        self.view = CameraView(ViewSettings(fps=FPS), pipeline, self._got)

    def _got(self, item: object) -> None:
        self.pictures += isinstance(item, CameraPicture)

    def frame(self, frame: Frame, step: Step, ms: float, tally: Tally) -> None:
        before, cpu = self.pictures, time.thread_time()
        self.view.frame(frame, step, ms)
        view_ms = (time.thread_time() - cpu) * 1000
        tally.view_ms.append(view_ms)
        if self.pictures > before:
            tally.picture_ms.append(view_ms)


def timed_step(pipeline: Pipeline, frame: Frame, tally: Tally, view: Viewed) -> Step:
    """One frame through the pipeline (and then the view), its CPU and wall time kept."""
    start, cpu = time.perf_counter(), time.thread_time()
    step = pipeline.step(frame)
    ms = (time.thread_time() - cpu) * 1000
    tally.wall_ms.append((time.perf_counter() - start) * 1000)
    tally.frames += 1
    tally.ms_all.append(ms)
    if step.reading is not None:
        tally.ms_read.append(ms)
    view.frame(frame, step, ms, tally)
    return step


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--plays", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)  # the alerts are listed per game
    cv2.setNumThreads(1)  # one core's CPU time, as the Pi's camera thread would have
    print(machine_line())
    plain = Tally()
    total = Tally()
    by_set: dict[str, Tally] = {}
    started = time.perf_counter()
    print(f"{'game':>4}  {'tiles':8} {'table':12} {'light':9} {'harsh':5} {'cloud':5} "
          f"{'plays':>5} {'tiles ok':>9} {'false':>5} {'missed':>6} {'ms/frame':>8}")  # fmt: skip
    for g in range(args.games):
        seed = args.seed + g
        game = sim_game("straight-block", 2, seed=seed, plays=args.plays)
        style = style_for(g)
        cloud = cloudy(g)
        tally = run_game(game, style, seed, cloud)
        total.add(tally)
        by_set.setdefault(style.tiles.name.lower(), Tally()).add(tally)
        if style.glare == 0:
            plain.add(tally)
        harsh = "yes" if style.glare > 0 else "no"
        print(
            f"{g:>4}  {style.tiles.name.lower():8} {style.surface.name.lower():12} "
            f"{style.lighting.name.lower():9} {harsh:5} {'yes' if cloud else 'no':5} "
            f"{tally.plays:>5} {tally.right:>4}/{tally.tiles:<4} {tally.false_plays:>5} "
            f"{tally.missed:>6} {statistics.mean(tally.ms_all):>8.1f}"
            + (f"  alerts: {', '.join(tally.alerts)}" if tally.alerts else "")
        )
    print()
    for name, t in by_set.items():
        print(f"{name:9} tiles {t.right:>4}/{t.tiles:<4} ({t.right / max(1, t.tiles):7.2%}), "
              f"detector alone {t.frame_right / max(1, t.frame_tiles):7.2%}, "
              f"false plays {t.false_plays}, alerts {len(t.alerts)}, "
              f"UNREADABLE {t.unreadable}, "
              f"missed {t.missed}/{t.plays}")  # fmt: skip
    print(f"not harsh tiles {plain.right:>4}/{plain.tiles:<4} "
          f"({plain.right / max(1, plain.tiles):7.2%}), detector alone "
          f"{plain.frame_right / max(1, plain.frame_tiles):7.2%}, "
          f"missed {plain.missed}/{plain.plays}")  # fmt: skip
    accuracy = total.right / max(1, total.tiles)
    read = sorted(total.ms_read)
    print()
    print(f"games {args.games}, plays {total.plays}, frames {total.frames}, "
          f"observations {total.observations}, {time.perf_counter() - started:.0f} s")  # fmt: skip
    print(f"per-tile accuracy   {accuracy:8.2%}   target {TARGETS[0][1]}  "
          f"({total.right}/{total.tiles} tiles over every observation)")  # fmt: skip
    frame_acc = total.frame_right / max(1, total.frame_tiles)
    sure = total.sure_right / max(1, total.sure_tiles)
    print(f"  judged ones       {sure:8.2%}   ({total.sure_right}/{total.sure_tiles} tiles over "
          f"the observations without an unsure place; {total.unsure} had one)")  # fmt: skip
    print(f"  detector alone    {frame_acc:8.2%}   ({total.frame_right}/{total.frame_tiles} tiles "
          "over every frame read)")  # fmt: skip
    print(f"false plays         {total.false_plays:8d}   target {TARGETS[1][1]}  "
          f"(observations with a hand in view: {total.with_hand})")  # fmt: skip
    print(f"alerts (false)      {len(total.alerts):8d}")
    print(f"missed plays        {total.missed:8d}")
    print(f"UNREADABLE raised   {total.unreadable:8d}   (an unsure place stood 5 s)")
    print(f"accepted early      {total.early:8d}   (a play accepted while an earlier one of the "
          "game was not: the table's game then differs from the players')")  # fmt: skip
    print(
        f"ms per frame        {statistics.mean(total.ms_all):8.1f}   CPU, all frames (gate only on "
        f"most); wall {statistics.mean(total.wall_ms):.1f}"
    )
    if read:
        p95 = read[int(0.95 * (len(read) - 1))]
        print(f"ms per read frame   {statistics.mean(read):8.1f}   p95 {p95:.1f} "
              f"({len(read)} frames read)")  # fmt: skip
    print_view(total)
    ok = accuracy >= 0.99 and total.false_plays == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
