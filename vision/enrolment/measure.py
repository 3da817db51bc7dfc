"""What an enrolled set looks like, measured on the frames it was read right in: the
faces' colour, each number's pip colour, the tile's width in pixels and, on a
calibrated frame, its size in mm.

Each half is looked at in a disc around its centre (0.42 of the tile's width across:
inside the half at any turn, clear of the divider). In the tile-bright image the
detector read it with, the disc's brightest tenth is the face: pixels at 85 % of it
or more are face, at 60 % or less marks (the pips, in a half with pips). Colours are
medians over every half (faces) or every half showing that number (pips).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision.detector.detect import bright_image
from vision.detector.results import Detection, FoundTile, Point
from vision.detector.settings import Settings

__all__ = ["Measured", "measure"]

U8 = NDArray[np.uint8]
Colour = tuple[float, float, float]
DISC = 0.42  # the disc's radius, in tile widths
FACE = 0.85  # a face pixel is at least this share of the disc's brightest tenth ...
MARK = 0.6  # ... a mark at most this share


@dataclass(frozen=True, slots=True)
class Measured:
    face_bgr: Colour
    pip_bgr: dict[int, Colour]
    tile_px: float
    tile_mm: tuple[float, float] | None


def _disc(image: U8, centre: Point, radius: float) -> tuple[U8, NDArray[np.bool_]]:
    """The pixels of the box around a disc, and which of them lie in the disc."""
    h, w = image.shape[:2]
    r = max(1, int(np.ceil(radius)))
    cx, cy = round(centre[0]), round(centre[1])
    x0, y0, x1, y1 = max(0, cx - r), max(0, cy - r), min(w, cx + r + 1), min(h, cy + r + 1)
    patch = image[y0:y1, x0:x1]
    ys, xs = np.mgrid[y0:y1, x0:x1]
    inside = (xs - centre[0]) ** 2 + (ys - centre[1]) ** 2 <= radius * radius
    return patch, inside


def _width(tile: FoundTile) -> float:
    (xa, ya), (xb, yb) = tile.px
    return float(np.hypot(xb - xa, yb - ya))


def _colours(
    images: Sequence[tuple[U8, Detection]], s: Settings
) -> tuple[Colour, dict[int, Colour]]:
    faces: list[U8] = []
    pips: dict[int, list[U8]] = defaultdict(list)
    for image, detection in images:
        for tile in detection.tiles:
            radius = DISC * _width(tile)
            for centre, n in zip(tile.px, tile.pips, strict=True):
                patch, inside = _disc(image, centre, radius)
                if patch.size == 0 or not inside.any():
                    continue
                bright = bright_image(patch, s).astype(np.float32)
                top = float(np.percentile(bright[inside], 90))
                faces.append(patch[inside & (bright >= FACE * top)])
                if n > 0:
                    pips[n].append(patch[inside & (bright <= MARK * top)])
    return _median(faces), {n: _median(found) for n, found in sorted(pips.items())}


def _median(parts: Sequence[U8]) -> Colour:
    pixels = np.concatenate([p.reshape(-1, 3) for p in parts]) if parts else np.zeros((0, 3))
    if pixels.shape[0] == 0:
        return (0.0, 0.0, 0.0)
    b, g, r = (float(v) for v in np.median(pixels, axis=0))
    return (b, g, r)


def measure(
    seen: Sequence[tuple[U8, Detection, Callable[[Point], Point] | None]], settings: Settings
) -> Measured:
    """The look of the tiles `seen` (each image, what was read in it with `settings`, and
    its pixel -> mm map when calibrated)."""
    face, pips = _colours([(image, det) for image, det, _ in seen], settings)
    widths = [_width(t) for _, det, _ in seen for t in det.tiles]
    in_mm = [
        float(np.hypot(*np.subtract(to_mm(t.px[1]), to_mm(t.px[0]))))
        for _, det, to_mm in seen
        if to_mm is not None
        for t in det.tiles
    ]
    tile_mm = None
    if in_mm:
        width = round(float(np.median(in_mm)) * 2.0) / 2.0  # to 0.5 mm
        tile_mm = (2.0 * width, width)
    return Measured(face, pips, float(np.median(widths)) if widths else 0.0, tile_mm)
