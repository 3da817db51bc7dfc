"""Per-pixel classes of a rendered frame, from its truth: what the net learns to mark.

Classes (`vision.learned.classes.PixelClass`): 0 table (and everything that is not a
face-up tile: face-down tiles, hands, markers), 1 a tile's face, 2 its divider (and a
spinner pin at its middle, which is no pip), 3 a pip. `IGNORE` marks pixels whose
class the truth cannot say (a tile a hand covers part of): the loss skips them.
"""

from __future__ import annotations

from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from tablesim.render.scene import TileTruth, Truth
from tablesim.render.sets import Spinner, TileSet
from vision.learned.classes import PixelClass

IGNORE: Final = 255
SHIFT: Final = 4
ONE: Final = 1 << SHIFT
DIVIDER_REACH: Final = 0.82  # the drawn divider reaches this share of the half width

Labels = npt.NDArray[np.uint8]
Points = npt.NDArray[np.float64]


def _fixed(points: Points) -> npt.NDArray[np.int32]:
    return np.round(np.asarray(points, dtype=np.float64) * ONE).astype(np.int32)


def _width_px(t: TileTruth) -> float:
    c = np.array(t.corners_px)
    return float((np.linalg.norm(c[0] - c[3]) + np.linalg.norm(c[1] - c[2])) / 2)


def _disc(labels: Labels, at: tuple[float, float], r: float, value: int) -> None:
    c = _fixed(np.array(at))
    cv2.circle(
        labels, (int(c[0]), int(c[1])), max(ONE, round(r * ONE)), value, -1, cv2.LINE_8, SHIFT
    )


def _tile(labels: Labels, t: TileTruth, tiles: TileSet, tile_mm: tuple[float, float],
          spinner: Spinner) -> None:  # fmt: skip
    corners = np.array(t.corners_px)
    if t.occluded:
        cv2.fillPoly(labels, [_fixed(corners)], IGNORE, cv2.LINE_8, SHIFT)
        return
    cv2.fillPoly(labels, [_fixed(corners)], int(PixelClass.FACE), cv2.LINE_8, SHIFT)
    width = _width_px(t)
    per_mm = width / tile_mm[1]
    centre = np.array(t.centre_px)
    plus = (corners[0] + corners[1]) / 2 - centre
    minus = (corners[2] + corners[3]) / 2 - centre
    ends = _fixed(np.array([centre + DIVIDER_REACH * plus, centre + DIVIDER_REACH * minus]))
    thick = max(1.5, tiles.divider_mm * tile_mm[1] / 24.0 * per_mm)
    cv2.line(labels, (int(ends[0][0]), int(ends[0][1])), (int(ends[1][0]), int(ends[1][1])),
             int(PixelClass.DIVIDER), max(1, round(thick)), cv2.LINE_8, SHIFT)  # fmt: skip
    if t.spinner_px is not None:
        r_mm = tiles.spinner_radius_mm(spinner, tile_mm[1])
        _disc(labels, t.spinner_px, r_mm * per_mm, int(PixelClass.DIVIDER))
    pip_r = tiles.pip_radius(t.tile.a, t.tile.b) * tile_mm[1] / 2 * per_mm
    for pip in (*t.pips_a_px, *t.pips_b_px):
        _disc(labels, pip, max(1.0, pip_r), int(PixelClass.PIP))


def pixel_labels(
    truth: Truth, tiles: TileSet, tile_mm: tuple[float, float], spinner: Spinner
) -> Labels:
    """The class of every pixel of a frame drawn with `tiles` (`tile_mm` its tiles'
    size in the scene, `spinner` the pin drawn), as the frame's shape (h, w)."""
    labels = np.zeros((truth.camera.height, truth.camera.width), dtype=np.uint8)
    for t in truth.tiles:
        _tile(labels, t, tiles, tile_mm, spinner)
    return labels


def tile_widths(truth: Truth) -> list[float]:
    """Each face-up tile's width in pixels."""
    return [_width_px(t) for t in truth.tiles]
