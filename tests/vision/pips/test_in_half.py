"""The marks in a tile's half (`vision.pips.counting.in_half`): on a frame of thousands
of marks only those near the half in x are looked at, and the same marks are found
as by looking at every one."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.pips import counting
from vision.pips.counting import in_half
from vision.pips.settings import PIPS
from vision.tiles.dark_marks import Blobs
from vision.tiles.dividers import TileHypothesis


def _blobs(rng: np.random.Generator, n: int) -> Blobs:
    def f(lo: float, hi: float) -> np.ndarray:
        return rng.uniform(lo, hi, n)

    area = np.where(rng.random(n) < 0.1, 0.0, f(1, 80))
    return Blobs(
        labels=np.zeros((4, 4), np.int32),
        area=area,
        cx=np.round(f(0, 1600), 1),  # many centres alike in x: ties in the order
        cy=f(0, 1200),
        length=f(1, 10),
        thickness=f(1, 10),
        ux=np.ones(n),
        uy=np.zeros(n),
        darkness=f(0, 255),
        touches_edge=np.zeros(n, np.bool_),
    )


def _every_one(blobs: Blobs, t: TileHypothesis, side: int) -> np.ndarray:
    cx, cy = t.half_centres()[side]
    ox, oy = blobs.cx - cx, blobs.cy - cy
    along, across = ox * t.nx + oy * t.ny, ox * t.dx + oy * t.dy
    reach = PIPS.half_reach * t.width
    sign = -1.0 if side == 0 else 1.0
    ok = (
        (blobs.area > 0)
        & (np.abs(along) < reach)
        & (np.abs(across) < reach)
        & (sign * along + t.width / 2.0 > PIPS.divider_clearance * t.width)
    )
    ok[0] = False
    return np.flatnonzero(ok)


def test_in_half_finds_what_looking_at_every_mark_finds() -> None:
    rng = np.random.default_rng(11)
    found = 0
    for k in range(60):
        blobs = _blobs(rng, 3000 if k % 2 else 100)  # above and below `_BY_X_FROM`
        for _ in range(40):
            angle = float(rng.uniform(0, 2 * np.pi))
            nx, ny = np.cos(angle), np.sin(angle)
            cx, cy = (float(v) for v in rng.uniform(0, 1400, 2))
            t = TileHypothesis(
                0,
                cx,
                cy,
                -ny,
                nx,
                nx,
                ny,
                float(rng.uniform(10, 200)),
                1.0,
                True,
                False,
                0.0,
            )
            if k % 5 == 0:  # an axis-aligned tile: centres on the reach's edge
                t = replace(t, dx=0.0, dy=1.0, nx=1.0, ny=0.0)
            for side in (0, 1):
                got = in_half(blobs, t, side, PIPS)
                want = _every_one(blobs, t, side)
                assert np.array_equal(got, want)
                found += got.size
    assert found > 1000
    assert 0 < len(counting._BY_X) <= counting._BY_X_KEPT
