"""Detections of rendered frames scored against the renderer's truth (shared by the
rendered-frame tests)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tablesim.render.scene import Rendered, TileTruth, Truth
from vision.detector.detect import Detection


@dataclass
class Score:
    """`right`: true tiles read with the right pips; `wrong`: true tiles found in place
    with other pips; `missed`: true tiles not found in place, described."""

    right: list[TileTruth] = field(default_factory=list)
    wrong: int = 0
    missed: list[str] = field(default_factory=list)


def score(det: Detection, truth: Truth, px: float = 8.0) -> Score:
    """Each true tile against the found tile whose half centres lie within `px` of its
    own (either way round)."""
    out = Score()
    for t in truth.tiles:
        a, b = np.asarray(t.a_px), np.asarray(t.b_px)
        for f in det.tiles:
            fa, fb = np.asarray(f.px[0]), np.asarray(f.px[1])
            same = np.hypot(*(fa - a)) <= px and np.hypot(*(fb - b)) <= px
            turned = np.hypot(*(fa - b)) <= px and np.hypot(*(fb - a)) <= px
            if same or turned:
                pips = f.pips if same else f.pips[::-1]
                if pips == (t.tile.a, t.tile.b):
                    out.right.append(t)
                else:
                    out.wrong += 1
                break
        else:
            out.missed.append(f"{t.tile.a}-{t.tile.b} at {np.rint(t.a_px)}")
    return out


def camera_area(out: Rendered, width_mm: float, grow_mm: float = 50.0) -> tuple[float, ...]:
    """The play area between the corner markers grown by `grow_mm`, in pixels, as the
    camera path searches it (a whole frame holds the markers' patterns too)."""
    xs = [m.centre_px[0] for m in out.truth.markers]
    ys = [m.centre_px[1] for m in out.truth.markers]
    grow = grow_mm * (max(xs) - min(xs)) / width_mm
    return (min(xs) - grow, min(ys) - grow, max(xs) + grow, max(ys) + grow)
