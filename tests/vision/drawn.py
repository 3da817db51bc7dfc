"""Tiles drawn with OpenCV at any angle, for tests whose answers are known by
construction (shared by the detector's tests; `test_detect_synthetic.py` draws
tiles along the axes)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

Colour = tuple[int, int, int]
Image = NDArray[np.uint8]

# Pip positions on a half in units of the pip spacing, (along the tile, across it):
# rows of 6 and more run along the tile, as on real sets.
_R3 = (-1.0, 0.0, 1.0)
_R4 = (-1.15, -0.38, 0.38, 1.15)  # lines of four spread as the renderer's (0.2 widths apart)
LAYOUTS: dict[int, list[tuple[float, float]]] = {
    0: [],
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(x, y) for x in _R3 for y in (-1.0, 1.0)],
    7: [(x, y) for x in _R3 for y in (-1.0, 1.0)] + [(0, 0)],
    8: [(x, y) for x in _R3 for y in _R3 if (x, y) != (0, 0)],
    9: [(x, y) for x in _R3 for y in _R3],
    10: [(x, y) for x in _R4 for y in (-1.0, 1.0)] + [(-0.4, 0), (0.4, 0)],
    11: [(x, y) for x in _R4 for y in (-1.0, 1.0)] + [(x, 0) for x in _R3],
    12: [(x, y) for x in _R4 for y in _R3],
}


@dataclass(frozen=True)
class Look:
    """How a drawn tile looks."""

    face: Colour = (225, 235, 240)
    pips: Colour | tuple[Colour, ...] = (20, 20, 20)  # one colour, or one per value
    divider: Colour = (20, 20, 20)
    pin: float = 0.0  # a spinner pin at the centre of this radius / tile width: a dark
    # rim round a light dome
    pip_share: float = 0.17  # pip diameter / tile width
    divider_share: float = 0.76  # divider length / tile width
    length: float = 2.0  # tile length / tile width (pips spread along with it)
    gloss: float = 0.0  # a highlight of this radius / the pip's bites into each pip's edge


@dataclass(frozen=True)
class Drawn:
    """A tile drawn with half a centred at `pa`, half b at `pb`."""

    a: int
    b: int
    pa: tuple[float, float]
    pb: tuple[float, float]


def _pt(x: float, y: float) -> tuple[int, int]:
    return (round(x * 16), round(y * 16))


def draw(
    img: Image,
    centre: tuple[float, float],
    pips: tuple[int, int],
    angle_deg: float = 0.0,
    width: float = 50.0,
    look: Look | None = None,
) -> Drawn:
    """One domino of `width` px, its long axis at `angle_deg` (0: along x)."""
    look = look or Look()
    cx, cy = centre
    a = math.radians(angle_deg)
    ux, uy = math.cos(a), math.sin(a)  # along the tile, a to b
    vx, vy = -uy, ux  # across it
    half = look.length * width / 2  # from the centre to either end
    corners = [
        (cx + s * ux * half + t * vx * width / 2, cy + s * uy * half + t * vy * width / 2)
        for s, t in ((-1, -1), (1, -1), (1, 1), (-1, 1))
    ]
    poly = np.array([_pt(x, y) for x, y in corners], dtype=np.int32)
    cv2.fillConvexPoly(img, poly, look.face, cv2.LINE_AA, 4)
    rim = tuple(int(c * 0.8) for c in look.face)
    cv2.polylines(img, [poly], True, rim, 1, cv2.LINE_AA, 4)
    reach = look.divider_share * width / 2
    thick = max(2, round(width / 20))
    cv2.line(
        img,
        _pt(cx - vx * reach, cy - vy * reach),
        _pt(cx + vx * reach, cy + vy * reach),
        look.divider,
        thick,
        cv2.LINE_AA,
        4,
    )
    if look.pin > 0:
        r = look.pin * width
        cv2.circle(img, _pt(cx, cy), round(r * 16), (30, 30, 30), -1, cv2.LINE_AA, 4)
        cv2.circle(img, _pt(cx, cy), round(r * 0.6 * 16), (200, 205, 210), -1, cv2.LINE_AA, 4)
    pa = (cx - ux * half / 2, cy - uy * half / 2)
    pb = (cx + ux * half / 2, cy + uy * half / 2)
    for value, (hx, hy) in zip(pips, (pa, pb), strict=True):
        colour = look.pips if isinstance(look.pips[0], int) else look.pips[value]
        spacing = width * 0.26
        for u, v in LAYOUTS[value]:
            x = hx + (ux * u * look.length / 2 + vx * v) * spacing
            y = hy + (uy * u * look.length / 2 + vy * v) * spacing
            r = look.pip_share * width / 2
            cv2.circle(img, _pt(x, y), round(r * 16), colour, -1, cv2.LINE_AA, 4)
            if look.gloss > 0:  # lit from the top left
                at = _pt(x - 0.55 * r, y - 0.55 * r)
                cv2.circle(img, at, round(look.gloss * r * 16), (250, 250, 250), -1, cv2.LINE_AA, 4)
    return Drawn(pips[0], pips[1], pa, pb)


def table(h: int, w: int, colour: Colour, seed: int = 1) -> Image:
    """A plain table with sensor noise."""
    img = np.empty((h, w, 3), np.uint8)
    img[:] = colour
    noise = np.random.default_rng(seed).normal(0, 3.0, img.shape)
    return np.clip(img.astype(np.float32) + noise, 0, 255).astype(np.uint8)


def blur(img: Image, sigma: float = 0.8) -> Image:
    return np.asarray(cv2.GaussianBlur(img, (0, 0), sigma), dtype=np.uint8)
