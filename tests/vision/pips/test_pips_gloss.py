"""A glossy pip whose highlight bites into its edge is a crescent, smaller than a
pip and a little longer than round: it is still a pip (before `pips.CRESCENT_*`
the half below read as "marks that are not pips", and 3 of the 5 tiles diverse-dev's
`ie__ae339075_Main` lost to pale, glossy pips were not found)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.pips.counting import read_half
from vision.tiles.dark_marks import find_blobs
from vision.tiles.dividers import TileHypothesis

R = 4.5  # pip radius, px, on a tile 50 px wide


def _half_with_pips(bitten: int | None) -> tuple[np.ndarray, TileHypothesis]:
    """Half b of a tile lying along x holds a 3; pip `bitten` has a highlight bite."""
    mask = np.zeros((120, 200), np.uint8)
    tile = TileHypothesis(1, 100.0, 60.0, 0.0, 1.0, 1.0, 0.0, 50.0, 1.0)
    hx, hy = tile.half_centres()[1]
    for k, step in enumerate((-1, 0, 1)):
        x, y = hx + 13 * step, hy + 13 * step
        cv2.circle(mask, (round(x * 16), round(y * 16)), round(R * 16), 1, -1, cv2.LINE_8, 4)
        if k == bitten:
            bite = (round((x - 2.1) * 16), round((y - 2.1) * 16))
            cv2.circle(mask, bite, round(4.0 * 16), 0, -1, cv2.LINE_8, 4)
    return mask, tile


def _read(mask: np.ndarray, tile: TileHypothesis) -> tuple[int, float, bool]:
    img = np.where(mask > 0, 30, 220).astype(np.uint8)
    blobs = find_blobs(mask, img, np.full_like(img, 220), 1e6)
    reading = read_half(blobs, tile, 1, float(np.pi * R * R))
    return reading.pips, reading.confidence, reading.foreign


def test_a_pip_bitten_by_its_highlight_still_counts() -> None:
    mask, tile = _half_with_pips(bitten=0)
    img = np.where(mask > 0, 30, 220).astype(np.uint8)
    blobs = find_blobs(mask, img, np.full_like(img, 220), 1e6)
    crescent = int(np.argmin(np.where(blobs.area > 0, blobs.area, np.inf)))
    assert blobs.length[crescent] > 1.8 * blobs.thickness[crescent]  # no longer round
    assert _read(mask, tile) == (3, 1.0, False)


def test_round_pips_read_as_before() -> None:
    assert _read(*_half_with_pips(bitten=None)) == (3, 1.0, False)
