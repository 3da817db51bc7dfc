"""Write random frames and their truth to a folder: training and test data for a detector.

    python -m tablesim.generate OUT --count 2000 [--start 0] [--jobs 2] [--size 640x480]

writes `OUT/frames/<seed>.png` (or `.jpg` with `--jpeg`) and `OUT/labels.jsonl`, one
line per frame (`tablesim.render.generator.Sample.labels`: tile corners, values, pip
centres and colours in pixels), in seed order, and prints how long it took. The same
seeds give the same frames.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, TextIO

import cv2

from tablesim.render.generator import random_frame

__all__ = ["generate", "main"]


def _one(
    seed: int, frames: Path, size: tuple[int, int], jpeg: bool
) -> tuple[dict[str, Any], float]:
    started = time.process_time()
    sample = random_frame(seed, resolution=size)
    name = f"{seed:07d}.{'jpg' if jpeg else 'png'}"
    if not cv2.imwrite(str(frames / name), sample.image):
        raise OSError(f"could not write {frames / name}: is the folder writable?")
    labels = {"image": f"frames/{name}", **sample.labels()}
    return labels, time.process_time() - started


def generate(
    out: Path,
    count: int,
    *,
    start: int = 0,
    jobs: int = 1,
    size: tuple[int, int] = (640, 480),
    jpeg: bool = False,
) -> dict[str, float]:
    """Write frames `start` .. `start + count - 1` and their labels into `out`; returns
    the frames written, the wall-clock seconds and the CPU seconds a frame (mean, in
    the workers)."""
    frames = out / "frames"
    frames.mkdir(parents=True, exist_ok=True)
    seeds = range(start, start + count)
    began = time.perf_counter()
    one = partial(_one, frames=frames, size=size, jpeg=jpeg)
    with (out / "labels.jsonl").open("w", encoding="utf-8") as sink:
        if jobs > 1:
            with ProcessPoolExecutor(jobs) as pool:
                cpu = _write(pool.map(one, seeds, chunksize=8), sink)
        else:
            cpu = _write(map(one, seeds), sink)
    wall = time.perf_counter() - began
    return {"frames": float(count), "wall_s": wall, "cpu_s_per_frame": cpu / max(1, count)}


def _write(done: Iterable[tuple[dict[str, Any], float]], sink: TextIO) -> float:
    cpu = 0.0
    for labels, seconds in done:
        sink.write(json.dumps(labels) + "\n")
        cpu += seconds
    return cpu


def _size(text: str) -> tuple[int, int]:
    width, sep, height = text.lower().partition("x")
    if not sep or not width.isdigit() or not height.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r}: give the frame size as WIDTHxHEIGHT")
    return int(width), int(height)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tablesim.generate", description=__doc__)
    parser.add_argument("out", type=Path, help="the folder to write into")
    parser.add_argument("--count", type=int, default=100, help="how many frames")
    parser.add_argument("--start", type=int, default=0, help="the first frame's seed")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--size", type=_size, default=(640, 480), help="WIDTHxHEIGHT")
    parser.add_argument("--jpeg", action="store_true", help="write JPEG (quality 95)")
    args = parser.parse_args(argv)
    if args.count < 1 or args.jobs < 1:
        parser.error("--count and --jobs must be 1 or more")
    figures = generate(
        args.out, args.count, start=args.start, jobs=args.jobs, size=args.size, jpeg=args.jpeg
    )
    n, wall, cpu = figures["frames"], figures["wall_s"], figures["cpu_s_per_frame"]
    print(
        f"{n:.0f} frames of {args.size[0]}x{args.size[1]} in {wall:.1f} s "
        f"({n / wall:.1f} frames/s, {args.jobs} job(s)); CPU {1000 * cpu:.0f} ms a frame; "
        f"labels: {args.out / 'labels.jsonl'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
