"""A contact sheet of what the renderer draws: every set, surface and hard layout.

    python -m tablesim.contact_sheet OUT.png [--random N]

Each cell is a captioned 480 x 360 frame: every shipped set on one of the surfaces
(blanks, 7-12 and a spinner among them), touching lines with doubles crosswise, T and
L layouts, tiles at any angle, near and far tiles, a lone tile in close-up, then `N`
random training frames (`tablesim.render.generator`) with their truth drawn over them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from engine.surface import SeenTile
from tablesim.render import (
    SETS,
    Camera,
    RenderStyle,
    Scene,
    Spinner,
    Surface,
    TileStyle,
    render_frame,
)
from tablesim.render.arrangements import ell, line, scattered, tee, tile_at
from tablesim.render.generator import random_frame
from tablesim.render.scene import Truth

__all__ = ["contact_sheet", "main"]

Image = npt.NDArray[np.uint8]
CELL: Final = (480, 360)
COLUMNS: Final = 4


def _caption(image: Image, text: str) -> Image:
    out = image.copy()
    cv2.rectangle(out, (0, 0), (out.shape[1], 22), (0, 0, 0), -1)
    cv2.putText(out, text, (6, 16), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1, cv2.LINE_AA)
    return out


def _set_cell(style: TileStyle, surface: Surface) -> Image:
    look = SETS[style]
    top = look.highest
    pairs = [(0, 0), (top, 0), (top, top - 1), (top - 2, top - 3), (5, 3), (1, 2)]
    length = look.size_mm[0]
    tiles = tuple(tile_at(p, (length * (0.8 + 1.15 * (k % 3)), length * (0.8 + 1.3 * (k // 3))),
                          90.0 * (k % 2), look.size_mm) for k, p in enumerate(pairs))  # fmt: skip
    size = (length * 3.6, length * 2.7)
    scene = Scene(tiles, size_mm=size, tile_mm=look.size_mm, markers=False, margin_mm=5)
    cam = Camera.over((size[0] / 2, size[1] / 2), CELL[1] / size[1], CELL)
    spin = replace(look, spinner=Spinner.BRASS) if style is TileStyle.IVORY_TWELVE else look
    out = render_frame(scene, cam, RenderStyle(tiles=spin, surface=surface), seed=1)
    return _caption(out.image, f"{style} on {surface}")


def _layout_cells() -> list[Image]:
    cells = []
    lines = line([(2, 4), (4, 4), (4, 0), (0, 0), (0, 6)], (20.0, 60.0), 0.0).tiles
    lines += tee([(1, 3), (3, 3), (3, 5)], [(3, 6), (6, 6)], (40.0, 130.0), 0.0).tiles
    cells.append(_shot(lines, (300.0, 225.0), TileStyle.IVORY, Surface.WHITE_PAPER,
                       "touching line, doubles across; a T"))  # fmt: skip
    angled = ell([(5, 1), (1, 2), (2, 2)], [(2, 6), (6, 3)], (60.0, 40.0), 25.0).tiles
    cells.append(_shot(angled, (300.0, 225.0), TileStyle.PINK_YELLOW, Surface.CHECKED_CLOTH,
                       "an L at 25 degrees"))  # fmt: skip
    strewn = scattered([(a, b) for a in range(5) for b in range(a, 5)][:12],
                       (0.0, 0.0, 300.0, 225.0), np.random.default_rng(3))  # fmt: skip
    cells.append(_shot(strewn, (300.0, 225.0), TileStyle.BLACK, Surface.LEATHER,
                       "tiles at any angle"))  # fmt: skip
    cam = Camera.over((200.0, 150.0), 1.3, CELL, keystone=0.45)
    near_far = tuple(
        tile_at(
            (k % 7, (3 * k) % 7),
            tuple(cam.px_to_mm([60.0 + 90 * (k % 5), 70.0 + 100 * (k // 5)])),
            15.0 * k,
        )
        for k in range(15)
    )
    scene = Scene(near_far, size_mm=(400.0, 300.0), markers=False, margin_mm=400)
    # the table reaches far beyond the frame: drawn a little finer than its nearest part
    # is seen (1.8 px per mm), not at the finest its out-of-view corners would be
    out = render_frame(scene, cam, RenderStyle(tiles=TileStyle.WOOD, surface=Surface.LIGHT_WOOD),
                       canvas_px_per_mm=2.1)  # fmt: skip
    cells.append(_caption(out.image, "near and far (keystone 0.45)"))
    lone = (tile_at((12, 11), (30.0, 20.0), 20.0, SETS[TileStyle.IVORY_TWELVE].size_mm),)
    scene = Scene(lone, size_mm=(60.0, 40.0), tile_mm=(56.0, 28.0), markers=False, margin_mm=20)
    look = replace(SETS[TileStyle.IVORY_TWELVE], spinner=Spinner.BRASS)
    out = render_frame(scene, Camera.over((30.0, 20.0), 6.0, CELL), RenderStyle(tiles=look,
                       surface=Surface.DARK_CLOTH), canvas_px_per_mm=6.6)  # fmt: skip
    cells.append(_caption(out.image, "lone 12-11 in close-up, brass spinner"))
    return cells


def _shot(
    tiles: Sequence[SeenTile],
    size: tuple[float, float],
    style: TileStyle,
    surface: Surface,
    text: str,
) -> Image:
    scene = Scene(tuple(tiles), size_mm=size, markers=False, margin_mm=5)
    cam = Camera.over((size[0] / 2, size[1] / 2), CELL[1] / size[1], CELL)
    out = render_frame(scene, cam, RenderStyle(tiles=style, surface=surface), seed=2)
    return _caption(out.image, text)


def _with_truth(image: Image, truth: Truth) -> Image:
    out = image.copy()
    for t in truth.tiles:
        cv2.polylines(
            out, [np.round(np.array(t.corners_px)).astype(np.int32)], True, (0, 0, 255), 1
        )
        for x, y in t.pips_a_px + t.pips_b_px:
            cv2.circle(out, (round(x), round(y)), 1, (255, 0, 255), -1)
        if t.spinner_px is not None:
            cv2.drawMarker(
                out, tuple(round(v) for v in t.spinner_px), (0, 255, 255), cv2.MARKER_CROSS, 6
            )
    return out


def contact_sheet(random_frames: int = 8) -> Image:
    """The sheet, as one BGR image."""
    surfaces = list(Surface)
    cells = [_set_cell(s, surfaces[i % len(surfaces)]) for i, s in enumerate(TileStyle)]
    cells += _layout_cells()
    for seed in range(random_frames):
        sample = random_frame(seed, resolution=CELL)
        text = (
            f"random {seed}: {sample.arrangement}, {sample.tile_set.name}, {sample.style.surface}"
        )
        cells.append(_caption(_with_truth(sample.image, sample.truth), text))
    while len(cells) % COLUMNS:
        cells.append(np.zeros((CELL[1], CELL[0], 3), dtype=np.uint8))
    rows = [np.hstack(cells[i : i + COLUMNS]) for i in range(0, len(cells), COLUMNS)]
    return np.asarray(np.vstack(rows), dtype=np.uint8)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tablesim.contact_sheet", description=__doc__)
    parser.add_argument("out", type=Path, help="the PNG to write")
    parser.add_argument("--random", type=int, default=8, help="random frames to add")
    args = parser.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(args.out), contact_sheet(args.random)):
        print(f"could not write {args.out}", file=sys.stderr)
        return 1
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
