"""The hand-tuned detector on frames that look like its real failures (issue 26).

    .venv/bin/python -m training.lookalike_check [--seeds 8] [--first 0] [--kind KIND ...]
                                                 [--veto T ...]

Draws `--seeds` frames of each kind of `tablesim.render.lookalikes` and reads each
with `vision.detector.detect` (tone auto, as the benchmark reads diverse-dev; the
learned veto off) and, for each `--veto T`, the detector's tiles the learned veto
scores T or more (`vision.learned.tile_scores`; its CPU time added), and prints per
kind (`random`: `tablesim.render.generator.random_frame` of seeds from
900000, which no training run draws): tiles, found (both half centres within 0.4 tile
widths of a drawn tile's), read right, false tiles (found where no tile is), and CPU
ms (median, max; one OpenCV thread). A renderer that looks like the photos makes the
detector fail here as it fails there.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass, field

import cv2
import numpy as np

from tablesim.render.generator import random_frame
from tablesim.render.lookalikes import Kind, lookalike
from tablesim.render.scene import Rendered, TileTruth
from vision.detector.detect import FoundTile, Settings, detect
from vision.learned import tile_scores

RANDOM = "random"
HELD_OUT = 900_000  # random frames' seeds from here on are never trained on


def frame_of(kind: str, seed: int) -> Rendered:
    """A frame of `kind` (a lookalike kind or `random`)."""
    if kind == RANDOM:
        sample = random_frame(HELD_OUT + seed)
        return Rendered(sample.image, sample.truth)
    return lookalike(Kind(kind), seed).rendered


@dataclass
class Tally:
    """What the detector did on one kind's frames."""

    tiles: int = 0
    found: int = 0
    right: int = 0
    false: int = 0
    frames_exact: int = 0
    frames: int = 0
    cpu_ms: list[float] = field(default_factory=list)

    def row(self, name: str) -> str:
        med = statistics.median(self.cpu_ms) if self.cpu_ms else 0.0
        top = max(self.cpu_ms, default=0.0)
        reported = self.right + (self.found - self.right) + self.false
        precision = self.right / reported if reported else 1.0
        return (
            f"{name:<28}{self.frames:>4}{self.tiles:>6}{self.found:>6}{self.right:>6}"
            f"{self.false:>6}{self.right / max(1, self.tiles):>8.1%}{precision:>8.1%}"
            f"{self.frames_exact:>5}/{self.frames:<3}{med:>8.0f}{top:>8.0f}"
        )


def _width(t: TileTruth) -> float:
    return float(np.hypot(t.a_px[0] - t.b_px[0], t.a_px[1] - t.b_px[1]))


def match(truth: tuple[TileTruth, ...], found: tuple[FoundTile, ...]) -> tuple[int, int, int]:
    """(found, read right, false) of a detection against the drawn tiles."""
    hit = right = false = 0
    taken: set[int] = set()
    for f in found:
        (xa, ya), (xb, yb) = f.px
        best = None
        for k, t in enumerate(truth):
            tol = 0.4 * _width(t)
            same = (
                np.hypot(xa - t.a_px[0], ya - t.a_px[1]) < tol
                and np.hypot(xb - t.b_px[0], yb - t.b_px[1]) < tol
            )
            turned = (
                np.hypot(xa - t.b_px[0], ya - t.b_px[1]) < tol
                and np.hypot(xb - t.a_px[0], yb - t.a_px[1]) < tol
            )
            if (same or turned) and k not in taken:
                best = (k, same)
                break
        if best is None:
            false += 1
            continue
        k, same = best
        taken.add(k)
        hit += 1
        drawn = truth[k].tile
        want = (drawn.a, drawn.b) if same else (drawn.b, drawn.a)
        right += int(tuple(f.pips) == want)
    return hit, right, false


def read(image: np.ndarray, vetoes: list[float]) -> list[tuple[tuple[FoundTile, ...], float]]:
    """The tiles the detector reports on a frame, then those each veto keeps, with
    the CPU ms each reading took."""
    start = time.process_time()
    tiles = detect(image, None, Settings(tone=None, veto=0.0)).tiles
    mid = time.process_time()
    scores = tile_scores(image, [t.px for t in tiles]) if vetoes else np.zeros(len(tiles))
    end = time.process_time()
    out = [(tiles, (mid - start) * 1e3)]
    for t in vetoes:
        kept = tuple(tile for tile, s in zip(tiles, scores, strict=True) if s >= t)
        out.append((kept, (end - start) * 1e3))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--first", type=int, default=0, help="the first seed")
    parser.add_argument("--kind", action="append", choices=[*[k.value for k in Kind], RANDOM])
    parser.add_argument("--veto", type=float, action="append", default=[])
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    kinds = args.kind or [k.value for k in Kind]
    head = f"{'kind':<28}{'fr':>4}{'tiles':>6}{'found':>6}{'right':>6}{'false':>6}"
    print(head + f"{'recall':>8}{'prec':>8}{'exact':>9}{'ms med':>8}{'max':>8}")
    names = ["", *[f" veto {t}" for t in args.veto]]
    for kind in kinds:
        tallies = [Tally() for _ in names]
        for seed in range(args.first, args.first + args.seeds):
            frame = frame_of(kind, seed)
            for tally, (tiles, ms) in zip(tallies, read(frame.image, args.veto), strict=True):
                tally.cpu_ms.append(ms)
                hit, right, false = match(frame.truth.tiles, tiles)
                n = len(frame.truth.tiles)
                tally.tiles += n
                tally.found += hit
                tally.right += right
                tally.false += false
                tally.frames += 1
                tally.frames_exact += int(right == n and false == 0 and hit == right)
        for tally, name in zip(tallies, names, strict=True):
            print(tally.row(kind + name), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
