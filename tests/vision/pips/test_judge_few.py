"""A half judged mark by mark (`vision.pips.counting._judge_few`, a half of a few
marks) judges as the NumPy judgement does (`_judge` on many marks): the same pips,
confidence and foreign marks, and the same count of crescents in the frame's
record, on halves of every kind (pips on and off their grid, merged chains, specks,
the table in a gap, marks too large or too long)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.pips import counting
from vision.pips.counting import _judge, in_half
from vision.pips.settings import PIPS
from vision.tiles.dark_marks import Blobs
from vision.tiles.dividers import TileHypothesis
from vision.trace import Trace


def _half(rng: np.random.Generator, t: TileHypothesis, ref: float) -> Blobs:
    """Marks about both halves of `t`: on the 3x3 grid (some moved off it), merged
    pairs and triples, specks, and marks of any size and shape."""
    n = int(rng.integers(0, 14))
    cx, cy = [0.0], [0.0]
    area, length, thickness = [0.0], [1.0], [1.0]
    for _ in range(n):
        side = int(rng.integers(0, 2))
        hx, hy = t.half_centres()[side]
        gx, gy = (int(v) for v in rng.integers(-1, 2, 2))
        jitter = rng.normal(0, 0.02 if rng.random() < 0.7 else 0.12, 2) * t.width
        step = 0.28 * t.width
        cx.append(hx + (gx * t.nx + gy * t.dx) * step + jitter[0])
        cy.append(hy + (gx * t.ny + gy * t.dy) * step + jitter[1])
        kind = rng.random()
        k = 1 if kind < 0.6 else int(rng.integers(2, 5)) if kind < 0.8 else 0
        a = ref * (k if k else float(rng.choice([0.1, 0.3, 0.9, 3.0, 40.0])))
        a *= float(rng.uniform(0.7, 1.3))
        thick = 2.0 * np.sqrt(a / (np.pi * max(k, 1)))
        elong = counting.CHAIN.get(k, 1.0) * float(rng.uniform(0.8, 1.3))
        if rng.random() < 0.1:
            elong *= 2.5
        area.append(a)
        thickness.append(thick)
        length.append(thick * elong)
    m = len(area)
    angle = rng.uniform(0, np.pi, m)
    return Blobs(
        labels=np.zeros((2, 2), np.int32),
        area=np.array(area),
        cx=np.array(cx),
        cy=np.array(cy),
        length=np.array(length),
        thickness=np.array(thickness),
        ux=np.cos(angle),
        uy=np.sin(angle),
        darkness=np.full(m, 60.0),
        touches_edge=np.zeros(m, np.bool_),
    )


@pytest.mark.parametrize("whole_layout", [False, True])
def test_judged_mark_by_mark_as_by_numpy(
    whole_layout: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(17 + whole_layout)
    seen: set[tuple[int, float, bool]] = set()
    for _ in range(1500):
        angle = float(rng.uniform(0, 2 * np.pi))
        nx, ny = np.cos(angle), np.sin(angle)
        width = float(rng.uniform(20, 90))
        t = TileHypothesis(0, 300.0, 200.0, -ny, nx, nx, ny, width, 1.0, True, False, 0.0)
        ref = float(np.pi * (0.09 * width) ** 2)
        blobs = _half(rng, t, ref)
        for side in (0, 1):
            idx = in_half(blobs, t, side, PIPS)
            got = []
            for few in (10**6, -1):  # mark by mark, then by NumPy
                monkeypatch.setattr(counting, "_FEW", few)
                trace = Trace()
                r = _judge(blobs, idx, t, side, ref, PIPS, whole_layout=whole_layout, trace=trace)
                got.append((r, [(x.name, x.runs, x.changed) for x in trace.records()]))
            assert got[0] == got[1]
            seen.add((got[0][0].pips, got[0][0].confidence, got[0][0].foreign))
    # the halves were of every kind: many counts, every confidence, foreign or not
    assert len({p for p, _, _ in seen}) >= 8
    assert len({c for _, c, _ in seen}) >= 5
    assert {f for _, _, f in seen} == {False, True}
