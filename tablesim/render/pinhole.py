"""A pinhole camera tilted over the table: its table-mm -> pixel homography.

The table is the plane z = 0 (x right, y down, in mm). The camera looks down at a
point, its optical axis leaning away from the frame's foot by the tilt that makes the
frame's top see the table `keystone` smaller than its foot, as a camera on a stand at
the table's edge does. Unlike a trapezoid warped onto the frame, a tilted pinhole
foreshortens the table along the tilt too, as real photographs do.
"""

from __future__ import annotations

import math
from typing import Final

import numpy as np
import numpy.typing as npt

from tablesim.errors import RenderError

__all__ = ["FIELD_OF_VIEW_DEG", "tilted_homography"]

Matrix = npt.NDArray[np.float64]
FIELD_OF_VIEW_DEG: Final = 50.0  # vertical, a phone's or webcam's


def _tilt_for(keystone: float, half_fov: float) -> float:
    """The tilt (radians from straight down) at which the frame's top edge sees the
    table (1 - keystone) times the foot's scale: cos(t + h) / cos(t - h) = 1 - k."""
    lo, hi = 0.0, math.pi / 2 - half_fov - 1e-6
    for _ in range(60):
        mid = (lo + hi) / 2
        ratio = math.cos(mid + half_fov) / math.cos(mid - half_fov)
        lo, hi = (mid, hi) if ratio > 1 - keystone else (lo, mid)
    return (lo + hi) / 2


def _rotations(turn: float, tilt: float) -> Matrix:
    """World -> camera: turn the table `turn` (clockwise on screen), look straight
    down, then tilt the optical axis towards the frame's top by `tilt`."""
    c, s = math.cos(turn), math.sin(turn)
    turn_m = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    down = np.diag([1.0, 1.0, -1.0])  # camera x = table x, camera y = table y, looking -z
    ct, st = math.cos(tilt), math.sin(tilt)
    tilt_m = np.array([[1.0, 0.0, 0.0], [0.0, ct, st], [0.0, -st, ct]])
    return np.asarray(tilt_m @ down @ turn_m, dtype=np.float64)


def tilted_homography(
    centre_mm: tuple[float, float],
    px_per_mm: float,
    resolution: tuple[int, int],
    *,
    rotation_deg: float = 0.0,
    keystone: float = 0.0,
    fov_deg: float = FIELD_OF_VIEW_DEG,
) -> tuple[Matrix, float]:
    """The mm -> px homography of a camera whose frame's centre shows `centre_mm` at
    `px_per_mm` (across the frame), and the lens' height above the table in mm."""
    if px_per_mm <= 0 or not 0 <= keystone < 0.9:
        raise RenderError(
            f"a camera needs px_per_mm > 0 and a keystone from 0 to 0.9, not "
            f"{px_per_mm:g} and {keystone:g}"
        )
    rw, rh = resolution
    half_fov = math.radians(fov_deg) / 2
    focal = (rh / 2) / math.tan(half_fov)
    tilt = _tilt_for(keystone, half_fov)
    rot = _rotations(math.radians(rotation_deg), tilt)
    distance = focal / px_per_mm  # along the optical axis to `centre_mm`
    axis = rot.T @ np.array([0.0, 0.0, 1.0])  # the optical axis in the world
    lens = np.array([centre_mm[0], centre_mm[1], 0.0]) - distance * axis
    k = np.array([[focal, 0.0, rw / 2], [0.0, focal, rh / 2], [0.0, 0.0, 1.0]])
    extrinsic = np.column_stack([rot[:, 0], rot[:, 1], -rot @ lens])
    hom = k @ extrinsic
    return np.asarray(hom / hom[2, 2], dtype=np.float64), float(lens[2])
