"""The learned part reads rendered tiles it was never trained on, finds their scale,
learns "not a tile" (texture alone gives none), and scores candidate tiles: a real one
high, one the hand-tuned detector found in a texture low."""

from __future__ import annotations

import numpy as np
import pytest

from tablesim.render import Camera, RenderStyle, Scene, Surface, render_frame
from tablesim.render.generator import random_frame
from tablesim.render.lookalikes import Kind, lookalike
from tablesim.render.scene import TileTruth
from vision.learned import PixelClass, pixel_masks, read_tiles

HELD_OUT = 910_000  # random frames' seeds no training run draws (training/dataset.py)


def _width(t: TileTruth) -> float:
    return float(np.hypot(t.a_px[0] - t.b_px[0], t.a_px[1] - t.b_px[1]))


def _read_right(truth: tuple[TileTruth, ...], tiles: tuple) -> tuple[int, int]:  # type: ignore[type-arg]
    """(tiles read right where they lie, tiles reported where none lies)."""
    right = false = 0
    for f in tiles:
        (xa, ya), (xb, yb) = f.px
        hit = False
        for t in truth:
            tol = 0.4 * _width(t)
            same = np.hypot(xa - t.a_px[0], ya - t.a_px[1]) < tol and np.hypot(
                xb - t.b_px[0], yb - t.b_px[1]
            ) < tol
            turned = np.hypot(xa - t.b_px[0], ya - t.b_px[1]) < tol and np.hypot(
                xb - t.a_px[0], yb - t.a_px[1]
            ) < tol
            if same or turned:
                hit = True
                want = (t.tile.a, t.tile.b) if same else (t.tile.b, t.tile.a)
                right += int(tuple(f.pips) == want)
        false += int(not hit)
    return right, false
