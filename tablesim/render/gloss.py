"""Shiny things on a tile: domed metal spinner pins, glossy pips, a glossy face's sheen.

Real spinner pins (issue 26) are domed brass or steel heads, often larger than a pip:
a dark rim where the dome turns away, a body in the metal's colour and a bright
highlight towards the light. Glossy pips carry a small highlight of their own, and a
glossy plastic face a soft band of sheen. Everything is computed in numpy (float64,
rounded to 8 bits) on the top-down canvas, so a frame is the same bytes everywhere.
"""

from __future__ import annotations

import math
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from tablesim.render.sets import BGR, Spinner

Image = npt.NDArray[np.uint8]
Points = npt.NDArray[np.float64]
Floats = npt.NDArray[np.float64]

# (dark, body, highlight) of each domed metal, BGR
DOME_COLOURS: Final[dict[Spinner, tuple[BGR, BGR, BGR]]] = {
    Spinner.BRASS_DOME: ((20, 70, 105), (70, 160, 205), (205, 245, 255)),
    Spinner.STEEL_DOME: ((55, 55, 60), (170, 170, 175), (252, 252, 252)),
}


def _power(x: Floats, n: int) -> Floats:
    """x ** n by repeated squaring (multiplications only: the same on every CPU)."""
    out = np.ones_like(x)
    base = x.copy()
    while n:
        if n & 1:
            out = out * base
        base = base * base
        n >>= 1
    return out


def _window(
    img: Image, centre_px: Points, reach: float
) -> tuple[slice, slice, Floats, Floats] | None:
    """The image window around `centre_px` reaching `reach` px, and each of its
    pixels' offsets from the centre (pixel k's centre is at k, as OpenCV draws); None
    when the window lies wholly outside the image."""
    h, w = img.shape[:2]
    x0 = max(0, math.floor(centre_px[0] - reach))
    x1 = min(w, math.ceil(centre_px[0] + reach) + 1)
    y0 = max(0, math.floor(centre_px[1] - reach))
    y1 = min(h, math.ceil(centre_px[1] + reach) + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float64)
    return slice(y0, y1), slice(x0, x1), xx - centre_px[0], yy - centre_px[1]


def _blend(img: Image, rows: slice, cols: slice, colour: Floats, alpha: Floats) -> None:
    """img = img * (1 - alpha) + colour * alpha in the window, rounded half to even."""
    roi = img[rows, cols].astype(np.float64)
    out = roi * (1.0 - alpha[:, :, None]) + colour * alpha[:, :, None]
    img[rows, cols] = np.clip(np.rint(out), 0, 255).astype(np.uint8)


def _light_vector(light_from: tuple[float, float]) -> Floats:
    lx, ly = light_from
    v = np.array([lx, ly, 1.3])
    return np.asarray(v / np.linalg.norm(v), dtype=np.float64)


def dome(
    img: Image,
    centre_px: Points,
    r_px: float,
    metal: Spinner,
    light_from: tuple[float, float],
) -> None:
    """A domed metal pin of radius `r_px` at `centre_px` (canvas pixels), lit from
    `light_from` (a direction in the table's plane, x right, y down)."""
    dark, body, high = (np.array(c, dtype=np.float64) for c in DOME_COLOURS[metal])
    window = _window(img, centre_px, r_px * 1.25 + 2)
    if window is None:
        return
    rows, cols, dx, dy = window
    d = np.sqrt(dx * dx + dy * dy)
    ring = np.clip(r_px * 1.18 - d + 0.5, 0.0, 1.0) * np.clip(d - r_px + 0.5, 0.0, 1.0)
    _blend(img, rows, cols, np.zeros(3), 0.55 * ring)  # the hole's dark edge
    cover = np.clip(r_px - d + 0.5, 0.0, 1.0)
    s = np.minimum(d / r_px, 1.0)
    nz = np.sqrt(np.maximum(0.0, 1.0 - 0.85 * s * s))
    nx, ny = 0.92 * dx / r_px, 0.92 * dy / r_px
    norm = np.sqrt(nx * nx + ny * ny + nz * nz)
    light = _light_vector(light_from)
    diffuse = np.maximum(0.0, (nx * light[0] + ny * light[1] + nz * light[2]) / norm)
    half = light + np.array([0.0, 0.0, 1.0])
    half = half / np.linalg.norm(half)
    spec = _power(np.maximum(0.0, (nx * half[0] + ny * half[1] + nz * half[2]) / norm), 24)
    rim = np.clip((s - 0.72) / 0.28, 0.0, 1.0)
    colour = (dark[None, None, :] * (1 - diffuse[:, :, None])) + body * diffuse[:, :, None]
    colour = colour * (1.0 - 0.6 * rim[:, :, None]) + dark * 0.6 * rim[:, :, None]
    colour = colour * (1.0 - spec[:, :, None]) + high * spec[:, :, None]
    _blend(img, rows, cols, colour, cover)


def pip_highlight(
    img: Image,
    centre_px: Points,
    r_px: float,
    colour: BGR,
    light_from: tuple[float, float],
) -> None:
    """A glossy pip's highlight: a small light spot towards the light."""
    lx, ly = light_from
    n = math.hypot(lx, ly) or 1.0
    at = centre_px + np.array([lx, ly]) / n * (0.5 * r_px)
    window = _window(img, at, 0.2 * r_px + 2)
    if window is None:
        return
    rows, cols, dx, dy = window
    d = np.sqrt(dx * dx + dy * dy)
    spot = np.clip(0.13 * r_px - d + 0.5, 0.0, 1.0)
    light = np.array(colour, dtype=np.float64) * 0.3 + 0.7 * 250.0
    _blend(img, rows, cols, light, 0.75 * spot)


def face_sheen(
    img: Image,
    outline_px: Points,
    centre_px: Points,
    long_px: Points,
    strength: float,
    light_from: tuple[float, float],
) -> None:
    """A soft band of sheen across a glossy face, nearer the light's side."""
    reach = float(np.max(np.linalg.norm(outline_px - centre_px, axis=1))) + 2
    window = _window(img, centre_px, reach)
    if window is None:
        return
    rows, cols, dx, dy = window
    mask = np.zeros(dx.shape, dtype=np.uint8)
    local = outline_px - np.array([cols.start, rows.start])
    cv2.fillPoly(mask, [np.round(local * 16).astype(np.int32)], (255,), cv2.LINE_AA, 4)
    lx, ly = light_from
    n = math.hypot(lx, ly) or 1.0
    across = (dx * lx + dy * ly) / n  # towards the light
    scale = float(np.linalg.norm(long_px)) or 1.0
    band = np.exp(-(((across / scale) - 0.25) ** 2) / 0.05)
    alpha = strength * band * (mask.astype(np.float64) / 255.0)
    _blend(img, rows, cols, np.full(3, 255.0), alpha)
