"""A tile's outline (`vision.tiles.outline`): every side's lines sampled at once give
each line's median grey level, as sampling it alone does."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.tiles.dividers import TileHypothesis
from vision.tiles.outline import SIDES, _side_levels
from vision.tiles.settings import OUTLINE, OutlineSettings


def _one_line(
    img: np.ndarray,
    t: TileHypothesis,
    along: float,
    across: float,
    beyond: float,
    cfg: OutlineSettings,
) -> float:
    """The median on one line `beyond` widths past a side, sampled on its own."""
    h, w = img.shape
    steps = np.linspace(-cfg.side_reach, cfg.side_reach, cfg.side_points)
    reach = 1.0 + beyond / max(abs(along), 0.5)
    u = along * reach + (steps * 2.0 if along == 0 else 0.0)
    v = across * reach + (0.0 if along == 0 else steps)
    xs = t.cx + (u * t.nx + v * t.dx) * t.width
    ys = t.cy + (u * t.ny + v * t.dy) * t.width
    xi = np.clip(np.rint(xs).astype(np.intp), 0, w - 1)
    yi = np.clip(np.rint(ys).astype(np.intp), 0, h - 1)
    return float(np.median(img[yi, xi]))


def test_side_levels_are_each_lines_median() -> None:
    rng = np.random.default_rng(5)
    for k in range(200):
        h, w = (int(v) for v in rng.integers(20, 160, 2))
        img = rng.integers(0, 256, (h, w)).astype(np.uint8)
        angle = float(rng.uniform(0.0, np.pi))
        nx, ny = np.cos(angle), np.sin(angle)
        t = TileHypothesis(
            0,
            float(rng.uniform(-10, w + 10)),
            float(rng.uniform(-10, h + 10)),
            -ny,
            nx,
            nx,
            ny,
            float(rng.uniform(3, 60)),
            1.0,
            True,
            False,
            0.0,
        )
        cfg = OUTLINE if k % 2 else replace(OUTLINE, side_points=8, rim=(0.0, 0.2))
        levels = _side_levels(img, t, cfg)
        assert levels.shape == (4, 2 + len(cfg.rim))
        for (along, across), row in zip(SIDES, levels, strict=True):
            lines = (cfg.outside, -cfg.inside, *cfg.rim)
            assert [float(v) for v in row] == [
                _one_line(img, t, along, across, b, cfg) for b in lines
            ]
