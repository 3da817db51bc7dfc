"""Training crops for the learned part, drawn by the project's own renderer only.

    .venv/bin/python -m training.dataset OUT.npz --frames 4000 [--start 0] [--crop 160]

Each frame is drawn from its seed (never a photo): most by
`tablesim.render.generator.random_frame` (any set, table, light, camera, layout), one in
forty by `tablesim.render.lookalikes` (frames like the detector's real failures), and
one in twenty is a table with no tile at all (textures only: "not a tile" is learned
too). Every frame is scaled so its tiles are 16-80 px wide (log-uniform: the widths
the learned part reads at, `vision.learned`), and `--per-frame` crops of `--crop` px
are cut from it (most centred near a tile), with their per-pixel classes
(`training.labels`). Written to one compressed `.npz`: `images` (n, crop, crop, 3) BGR
uint8, `labels` (n, crop, crop) uint8, `seeds` (n,).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Iterator
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
from training.labels import IGNORE, pixel_labels, tile_widths

Image = npt.NDArray[np.uint8]
RESOLUTIONS: Final = ((320, 240), (240, 320), (320, 320), (400, 300), (384, 288))
WIDTH_PX: Final = (16.0, 80.0)  # tile widths the crops show, log-uniform
LOOKALIKE_EVERY: Final = 40
EMPTY_EVERY: Final = 20


@dataclass(frozen=True, slots=True)
class Frame:
    """A rendered frame, its per-pixel classes, its tiles' centres and median width."""

    image: Image
    labels: Image
    centres: list[tuple[float, float]]
    width: float | None


def _random(seed: int) -> Frame:
    rng = np.random.default_rng([seed, 0xDA7A])
    resolution = RESOLUTIONS[int(rng.integers(len(RESOLUTIONS)))]
    sample = random_frame(seed, resolution=resolution)
    style = sample.style
    labels = pixel_labels(sample.truth, style.tile_set, sample.scene.tile_mm, style.spinner)
    widths = tile_widths(sample.truth)
    centres = [t.centre_px for t in sample.truth.tiles]
    return Frame(sample.image, labels, centres, float(np.median(widths)) if widths else None)


def _lookalike(seed: int) -> Frame:
    kind = list(Kind)[seed // LOOKALIKE_EVERY % len(Kind)]
    frame = lookalike(kind, seed)
    style = frame.style
    truth = frame.rendered.truth
    labels = pixel_labels(truth, style.tile_set, frame.scene.tile_mm, style.spinner)
    widths = tile_widths(truth)
    centres = [t.centre_px for t in truth.tiles]
    return Frame(frame.rendered.image, labels, centres, float(np.median(widths)))


def _empty(seed: int) -> Frame:
    """A table with no tile: any surface, light and camera, seen at a tile's scale."""
    rng = np.random.default_rng([seed, 0xE5])
    style: RenderStyle = random_style(rng)
    px_per_mm = float(math.exp(rng.uniform(math.log(0.4), math.log(12.0))))
    side = 320
    cam = Camera.over((0.0, 0.0), px_per_mm, (side, side), rotation_deg=float(rng.uniform(0, 360)))
    corners = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float64)
    view = cam.px_to_mm(corners)
    lo, hi = view.min(axis=0) - 3, view.max(axis=0) + 3
    shift = np.array([[1, 0, lo[0]], [0, 1, lo[1]], [0, 0, 1]])
    moved = Camera(side, side, tuple(float(v) for v in (cam.matrix @ shift).ravel()), cam.height_mm)
    size = (float(hi[0] - lo[0]), float(hi[1] - lo[1]))
    scene = Scene(size_mm=size, markers=False, margin_mm=2.0)
    out = render_frame(scene, moved, style, seed, canvas_px_per_mm=1.1 * px_per_mm,
                       canvas_limit=30.0)  # fmt: skip
    labels = np.zeros(out.image.shape[:2], dtype=np.uint8)
    return Frame(out.image, labels, [], None)


def frame(seed: int) -> Frame:
    """The training frame of `seed`."""
    if seed % EMPTY_EVERY == EMPTY_EVERY - 1:
        return _empty(seed)
    if seed % LOOKALIKE_EVERY == LOOKALIKE_EVERY - 1:
        return _lookalike(seed)
    return _random(seed)


def _scaled(f: Frame, rng: np.random.Generator) -> tuple[Image, Image, list[tuple[float, float]]]:
    target = math.exp(rng.uniform(math.log(WIDTH_PX[0]), math.log(WIDTH_PX[1])))
    s = 1.0 if f.width is None else float(np.clip(target / f.width, 0.05, 3.0))
    if abs(s - 1.0) < 1e-3:
        return f.image, f.labels, f.centres
    size = (max(8, round(f.image.shape[1] * s)), max(8, round(f.image.shape[0] * s)))
    mode = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    image = np.asarray(cv2.resize(f.image, size, interpolation=mode), dtype=np.uint8)
    labels = np.asarray(cv2.resize(f.labels, size, interpolation=cv2.INTER_NEAREST), dtype=np.uint8)
    return image, labels, [(x * s, y * s) for x, y in f.centres]


def crops(
    f: Frame, rng: np.random.Generator, crop: int, count: int
) -> Iterator[tuple[Image, Image]]:
    """`count` crops of `crop` px of the frame at a random scale, with their classes
    (padded with the image's reflection and IGNORE where the frame is too small)."""
    image, labels, centres = _scaled(f, rng)
    h, w = labels.shape
    pad_y, pad_x = max(0, crop - h), max(0, crop - w)
    if pad_y or pad_x:
        image = np.asarray(cv2.copyMakeBorder(image, 0, pad_y, 0, pad_x, cv2.BORDER_REFLECT),
                           dtype=np.uint8)  # fmt: skip
        labels = np.asarray(
            cv2.copyMakeBorder(labels, 0, pad_y, 0, pad_x, cv2.BORDER_CONSTANT, value=IGNORE),
            dtype=np.uint8,
        )
        h, w = labels.shape
    for _ in range(count):
        if centres and rng.uniform() < 0.7:
            cx, cy = centres[int(rng.integers(len(centres)))]
            x0 = int(np.clip(cx - crop / 2 + rng.normal(0, crop / 4), 0, w - crop))
            y0 = int(np.clip(cy - crop / 2 + rng.normal(0, crop / 4), 0, h - crop))
        else:
            x0, y0 = int(rng.integers(0, w - crop + 1)), int(rng.integers(0, h - crop + 1))
        yield (
            image[y0 : y0 + crop, x0 : x0 + crop].copy(),
            labels[y0 : y0 + crop, x0 : x0 + crop].copy(),
        )


def build(frames: int, start: int, crop: int, per_frame: int) -> dict[str, npt.NDArray[np.generic]]:
    """Crops of `frames` frames from seed `start` on, as the arrays written."""
    images: list[Image] = []
    labels: list[Image] = []
    seeds: list[int] = []
    began = time.perf_counter()
    for k, seed in enumerate(range(start, start + frames), 1):
        rng = np.random.default_rng([seed, 0xC409])
        for image, label in crops(frame(seed), rng, crop, per_frame):
            images.append(image)
            labels.append(label)
            seeds.append(seed)
        if k % 50 == 0:
            rate = k / (time.perf_counter() - began)
            print(f"\r  {k}/{frames} frames, {rate:.1f}/s", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return {"images": np.stack(images), "labels": np.stack(labels), "seeds": np.array(seeds)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--frames", type=int, default=4000)
    parser.add_argument("--start", type=int, default=0, help="first frame seed")
    parser.add_argument("--crop", type=int, default=160)
    parser.add_argument("--per-frame", type=int, default=2)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    began = time.perf_counter()
    data = build(args.frames, args.start, args.crop, args.per_frame)
    np.savez_compressed(args.out, images=data["images"], labels=data["labels"], seeds=data["seeds"])
    n = len(data["seeds"])
    spent = time.perf_counter() - began
    print(f"wrote {n} crops of {args.frames} frames to {args.out} in {spent:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
