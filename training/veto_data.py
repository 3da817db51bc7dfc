"""Training patches for the learned veto, drawn by the project's own renderer only.

    nice -n 19 .venv/bin/python -m training.veto_data OUT.npz --frames 1500 [--start 0]

Each frame is drawn from its seed (never a photo): most by
`tablesim.render.generator.random_frame` (any set, table, light, camera, layout), one in
`LOOKALIKE_EVERY` by `tablesim.render.lookalikes` (frames like the detector's real
failures: textures, pins, white on white, close-ups) and one in `EMPTY_EVERY` is a
table with no tile at all. The hand-tuned detector (`vision.detector.detect`, tone
auto, as photos are read) reads every frame too, with the learned veto off: the veto
judges what the detector finds before anything is dropped, so its data must not
depend on the nets that ship now. Patches (`vision.learned.patches`) are cut for:

- tiles (label 1): each drawn face-up tile, its half centres moved a little (as a
  detector places them), and each tile the detector found on a drawn one;
- not tiles (label 0): each tile the detector found where none is drawn; candidates
  made from drawn tiles that a wrong reading would give (moved half a tile or more
  along or across, half or twice as wide, turned square); and candidates anywhere on
  the table, of the frame's tile width or smaller (texture seen as tiles).

Written to one compressed `.npz`: `patches` (n, ACROSS, LONG, 3) BGR uint8, `labels`
(n,) uint8, `kinds` (n,) uint8 (`KINDS`), `seeds` (n,).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from tablesim.render import Camera, RenderStyle, Scene, render_frame
from tablesim.render.generator import random_frame
from tablesim.render.lookalikes import Kind, lookalike
from tablesim.render.random_looks import random_style
from tablesim.render.scene import TileTruth
from training.figures import KINDS
from vision.detector.detect import Settings, detect
from vision.learned.patches import Candidate, Image, patch

LOOKALIKE_EVERY: Final = 8
EMPTY_EVERY: Final = 20
MOST_DRAWN: Final = 10  # drawn tiles per frame at most
WRONG_PER_FRAME: Final = 5
ANYWHERE_PER_FRAME: Final = 6


@dataclass(frozen=True, slots=True)
class Frame:
    """A rendered frame and the half centres of its fully seen face-up tiles."""

    image: Image
    tiles: list[Candidate]
    covered: list[Candidate]  # tiles a hand covers part of, or cut by the frame's edge


def _inside(t: TileTruth, w: int, h: int) -> bool:
    c = np.asarray(t.corners_px)
    return bool(np.all(c[:, 0] >= 0) and np.all(c[:, 0] < w) and np.all(c[:, 1] >= 0)
                and np.all(c[:, 1] < h))  # fmt: skip


def _frame_of(image: Image, truth_tiles: tuple[TileTruth, ...]) -> Frame:
    h, w = image.shape[:2]
    seen = [t for t in truth_tiles if not t.occluded and _inside(t, w, h)]
    rest = [t for t in truth_tiles if t not in seen]
    return Frame(image, [(t.a_px, t.b_px) for t in seen], [(t.a_px, t.b_px) for t in rest])


def _empty(seed: int) -> Frame:
    """A table with no tile: any surface, light and camera."""
    rng = np.random.default_rng([seed, 0xE5])
    style: RenderStyle = random_style(rng)
    px_per_mm = float(math.exp(rng.uniform(math.log(0.4), math.log(8.0))))
    w, h = 480, 360
    cam = Camera.over((0.0, 0.0), px_per_mm, (w, h), rotation_deg=float(rng.uniform(0, 360)))
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)
    view = cam.px_to_mm(corners)
    lo, hi = view.min(axis=0) - 3, view.max(axis=0) + 3
    shift = np.array([[1, 0, lo[0]], [0, 1, lo[1]], [0, 0, 1]])
    moved = Camera(w, h, tuple(float(v) for v in (cam.matrix @ shift).ravel()), cam.height_mm)
    scene = Scene(size_mm=(float(hi[0] - lo[0]), float(hi[1] - lo[1])), markers=False,
                  margin_mm=2.0)  # fmt: skip
    out = render_frame(scene, moved, style, seed, canvas_px_per_mm=1.1 * px_per_mm,
                       canvas_limit=30.0)  # fmt: skip
    return Frame(out.image, [], [])


def frame(seed: int, lookalike_every: int = LOOKALIKE_EVERY) -> Frame:
    """The training frame of `seed` (one in `lookalike_every` a lookalike)."""
    if seed % EMPTY_EVERY == EMPTY_EVERY - 1:
        return _empty(seed)
    if seed % lookalike_every == lookalike_every - 1:
        kind = list(Kind)[seed // lookalike_every % len(Kind)]
        drawn = lookalike(kind, seed).rendered
        return _frame_of(drawn.image, drawn.truth.tiles)
    sample = random_frame(seed)
    return _frame_of(sample.image, sample.truth.tiles)


def _geometry(px: Candidate) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], float]:
    a, b = np.asarray(px[0], dtype=np.float64), np.asarray(px[1], dtype=np.float64)
    width = float(np.linalg.norm(b - a))
    return (a + b) / 2, (b - a) / max(width, 1e-9), width


def _candidate(centre: npt.NDArray[np.float64], axis: npt.NDArray[np.float64],
               width: float) -> Candidate:  # fmt: skip
    a, b = centre - axis * width / 2, centre + axis * width / 2
    return ((float(a[0]), float(a[1])), (float(b[0]), float(b[1])))


def _turned(axis: npt.NDArray[np.float64], degrees: float) -> npt.NDArray[np.float64]:
    r = math.radians(degrees)
    c, s = math.cos(r), math.sin(r)
    return np.array([c * axis[0] - s * axis[1], s * axis[0] + c * axis[1]])


def same_place(px: Candidate, tiles: list[Candidate], reach: float = 0.4) -> bool:
    """True when `px` has its half centres within `reach` tile widths of a tile's
    (either way round): the benchmark's test of a tile found."""
    for t in tiles:
        w = _geometry(t)[2]
        a, b = np.asarray(px[0]), np.asarray(px[1])
        ta, tb = np.asarray(t[0]), np.asarray(t[1])
        straight = max(np.linalg.norm(a - ta), np.linalg.norm(b - tb))
        swapped = max(np.linalg.norm(a - tb), np.linalg.norm(b - ta))
        if min(straight, swapped) <= reach * w:
            return True
    return False


def jittered(px: Candidate, rng: np.random.Generator) -> Candidate:
    """A drawn tile's half centres as a detector might place them."""
    centre, axis, width = _geometry(px)
    normal = np.array([-axis[1], axis[0]])
    centre = centre + width * (rng.normal(0, 0.07) * axis + rng.normal(0, 0.05) * normal)
    axis = _turned(axis, float(rng.normal(0, 4.0)))
    return _candidate(centre, axis, width * float(math.exp(rng.normal(0, 0.08))))


def wrong_place(px: Candidate, rng: np.random.Generator) -> Candidate:
    """A candidate a wrong reading of a drawn tile would give."""
    centre, axis, width = _geometry(px)
    normal = np.array([-axis[1], axis[0]])
    sign = 1.0 if rng.uniform() < 0.5 else -1.0
    how = int(rng.integers(5))
    if how == 0:  # half a tile or more along it (a half and table, or two tiles' halves)
        return _candidate(centre + sign * rng.uniform(0.5, 1.1) * width * axis, axis, width)
    if how == 1:  # across it
        return _candidate(centre + sign * rng.uniform(0.6, 1.0) * width * normal, axis, width)
    if how == 2:  # one half read as a tile (its pips as two tiny halves)
        half = centre + sign * axis * width / 2
        return _candidate(half, _turned(axis, float(rng.choice([0.0, 90.0]))),
                          width * rng.uniform(0.3, 0.6))  # fmt: skip
    if how == 3:  # twice as wide
        return _candidate(centre, axis, width * rng.uniform(1.7, 2.3))
    return _candidate(centre, _turned(axis, 90.0 + rng.normal(0, 5)), width)  # turned square


def anywhere(f: Frame, width: float, rng: np.random.Generator) -> Candidate:
    """A candidate anywhere on the frame, of width up to about `width`."""
    h, w = f.image.shape[:2]
    centre = np.array([rng.uniform(0, w), rng.uniform(0, h)])
    size = width * math.exp(rng.uniform(math.log(0.3), math.log(1.3)))
    return _candidate(centre, _turned(np.array([1.0, 0.0]), float(rng.uniform(0, 360))), size)


def samples(
    seed: int, lookalike_every: int = LOOKALIKE_EVERY
) -> tuple[list[Image], list[int], list[int]]:
    """The patches of one frame, their labels and kinds (indices into `KINDS`)."""
    rng = np.random.default_rng([seed, 0x7E70])
    f = frame(seed, lookalike_every)
    out: list[Image] = []
    labels: list[int] = []
    kinds: list[int] = []

    def add(px: Candidate, label: int, kind: int) -> None:
        out.append(patch(f.image, px))
        labels.append(label)
        kinds.append(kind)

    every = f.tiles + f.covered
    for k in rng.permutation(len(f.tiles))[:MOST_DRAWN]:
        add(jittered(f.tiles[int(k)], rng), 1, 0)
    found = detect(f.image, None, Settings(tone=None, veto=0.0)).tiles
    for t in found:
        if same_place(t.px, every):
            if same_place(t.px, f.tiles):
                add(t.px, 1, 1)
        else:
            add(t.px, 0, 2)
    if f.tiles:
        for _ in range(WRONG_PER_FRAME):
            px = wrong_place(f.tiles[int(rng.integers(len(f.tiles)))], rng)
            if not same_place(px, every, 0.5):
                add(px, 0, 3)
    h, w = f.image.shape[:2]
    widths = [_geometry(t)[2] for t in every]
    typical = float(np.median(widths)) if widths else min(h, w) / rng.uniform(3, 30)
    for _ in range(ANYWHERE_PER_FRAME):
        px = anywhere(f, typical, rng)
        if not same_place(px, every, 0.5):
            add(px, 0, 4)
    return out, labels, kinds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--frames", type=int, default=1500)
    parser.add_argument("--start", type=int, default=0, help="first frame seed")
    parser.add_argument(
        "--lookalike-every", type=int, default=LOOKALIKE_EVERY, help="1: lookalikes only"
    )
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    began = time.perf_counter()
    patches: list[Image] = []
    labels: list[int] = []
    kinds: list[int] = []
    seeds: list[int] = []
    for k, seed in enumerate(range(args.start, args.start + args.frames), 1):
        p, lb, kd = samples(seed, args.lookalike_every)
        patches += p
        labels += lb
        kinds += kd
        seeds += [seed] * len(p)
        if k % 25 == 0:
            rate = k / (time.perf_counter() - began)
            print(
                f"\r  {k}/{args.frames} frames, {rate:.2f}/s", end="", file=sys.stderr, flush=True
            )
    print(file=sys.stderr)
    np.savez_compressed(args.out, patches=np.stack(patches), labels=np.array(labels, np.uint8),
                        kinds=np.array(kinds, np.uint8), seeds=np.array(seeds))  # fmt: skip
    counts = np.bincount(np.array(kinds), minlength=len(KINDS))
    spent = time.perf_counter() - began
    print(f"wrote {len(labels)} patches of {args.frames} frames to {args.out} in {spent:.0f} s: "
          + ", ".join(f"{n} {c}" for n, c in zip(KINDS, counts, strict=True)))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
