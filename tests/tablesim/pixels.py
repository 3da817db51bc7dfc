"""Reading rendered frames back in the tests: what is drawn inside a tile half.

These helpers look at the pixels only (never at the renderer's code), so a test that
uses them checks that what the truth says was drawn is what the frame shows.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from tablesim.render.scene import TileTruth

Image = npt.NDArray[np.uint8]
Point = tuple[float, float]


def half_quad(t: TileTruth, half: str, *, clear: float = 0.1) -> npt.NDArray[np.float64]:
    """The corners of a tile half in pixels (from the truth's corners, so perspective is
    followed), kept `clear` (share of the half's length) off the divider and 6 % off
    the tile's edges."""
    c = np.array(t.corners_px)  # b end +v, a end +v, a end -v, b end -v
    if half == "a":
        end_p, end_m, mid_p, mid_m = c[1], c[2], (c[0] + c[1]) / 2, (c[2] + c[3]) / 2
    else:
        end_p, end_m, mid_p, mid_m = c[0], c[3], (c[0] + c[1]) / 2, (c[2] + c[3]) / 2

    def at(s: float, v: float) -> npt.NDArray[np.float64]:
        """s: 0 at the divider, 1 at the end; v: 0 at the +v side, 1 at the -v side."""
        plus = mid_p + (end_p - mid_p) * s
        minus = mid_m + (end_m - mid_m) * s
        return np.asarray(plus + (minus - plus) * v, dtype=np.float64)

    lo, hi, edge = clear, 0.94, 0.06
    return np.array([at(lo, edge), at(hi, edge), at(hi, 1 - edge), at(lo, 1 - edge)])


def half_mask(shape: tuple[int, ...], t: TileTruth, half: str, *, clear: float = 0.1) -> Image:
    mask = np.zeros(shape[:2], dtype=np.uint8)
    quad = np.round(half_quad(t, half, clear=clear) * 16).astype(np.int32)
    cv2.fillPoly(mask, [quad], 255, cv2.LINE_8, 4)
    return mask


def marks_in_half(
    image: Image, t: TileTruth, half: str, *, clear: float = 0.1, min_distance: float = 60.0
) -> list[Point]:
    """The centres of the blobs in a half whose colour stands off the half's own face
    colour (its median) by more than `min_distance` (BGR distance)."""
    mask = half_mask(image.shape, t, half, clear=clear)
    face = np.median(image[mask > 0].reshape(-1, 3), axis=0)
    distance = np.linalg.norm(image.astype(np.float64) - face, axis=2)
    marks = ((distance > min_distance) & (mask > 0)).astype(np.uint8)
    n, _labels, stats, centroids = cv2.connectedComponentsWithStats(marks)
    return [
        (float(centroids[i][0]), float(centroids[i][1]))
        for i in range(1, n)
        if stats[i, cv2.CC_STAT_AREA] >= 3
    ]


def colour_at(image: Image, at: Point, radius: int = 0) -> npt.NDArray[np.float64]:
    """The mean BGR colour in a (2 * radius + 1) square around `at`."""
    x, y = round(at[0]), round(at[1])
    patch = image[y - radius : y + radius + 1, x - radius : x + radius + 1]
    return np.asarray(patch.reshape(-1, 3).mean(axis=0), dtype=np.float64)


def near(colour: npt.NDArray[np.float64], expected: tuple[int, int, int], tolerance: float) -> bool:
    """Whether a seen colour is within `tolerance` (BGR distance) of `expected`."""
    return float(np.linalg.norm(colour - np.array(expected, dtype=np.float64))) < tolerance


def assert_pips_where_truth_says(image: Image, t: TileTruth, *, tolerance_px: float = 1.0) -> None:
    """Each half shows exactly its pips, each blob within `tolerance_px` of a truth pip.

    A mark counts as a pip when it stands off the face by at least half the distance
    from the face to the pip colour: a set's other marks (the empty rings of a ringed
    set, a wood grain) stand off the face too, but by less."""
    for half, pips, truth_px, colour in (
        ("a", t.tile.a, t.pips_a_px, t.pip_colour_a),
        ("b", t.tile.b, t.pips_b_px, t.pip_colour_b),
    ):
        contrast = float(np.linalg.norm(np.subtract(colour, t.face, dtype=np.float64)))
        blobs = marks_in_half(image, t, half, min_distance=max(60.0, contrast / 2))
        assert len(blobs) == pips, f"{t.tile} half {half}: {len(blobs)} marks for {pips} pips"
        for bx, by in blobs:
            nearest = min(np.hypot(bx - px, by - py) for px, py in truth_px)
            assert nearest < tolerance_px, f"{t.tile} half {half}: a mark {nearest:.1f} px off"


def inside_half(t: TileTruth, half: str, points: tuple[Point, ...]) -> bool:
    """Whether every point lies inside the half's square (divider to the tile's end)."""
    a, b = np.array(t.a_px), np.array(t.b_px)
    centre = a if half == "a" else b
    out = centre - (b if half == "a" else a)
    length = float(np.linalg.norm(out))
    unit = out / length
    side = np.array([-unit[1], unit[0]])
    for p in points:
        d = np.array(p) - centre
        if not (abs(float(d @ unit)) < 0.5 * length and abs(float(d @ side)) < 0.5 * length):
            return False
    return True
