"""Things on the table that are not tiles: round game stones and a cup.

Games played with black sets are often scored with round black stones (go stones,
counters) laid beside and against the tiles, and a cup stands on many tables (issue
31: black tiles touching a stone or a cup were judged "partly covered"). A `Stone` is
a low glossy disc; a `Cup` a tall cylinder seen from above (its rim lifted towards
the frame's edge by the perspective, its side showing between base and rim), with a
handle and a drink in it. Both are drawn on the top-down canvas after the tiles, with
a soft shadow, in numpy and OpenCV's integer drawing only, so a frame is the same
bytes everywhere.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from tablesim.errors import RenderError
from tablesim.render.sets import BGR
from tablesim.render.tiles import Canvas, disc, fill

Image = npt.NDArray[np.uint8]
Points = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Stone:
    """A round game stone lying on the table: centre and radius in mm, its colour
    (black by default), `height_mm` thick."""

    x: float
    y: float
    radius_mm: float = 11.0
    colour: BGR = (22, 22, 24)
    height_mm: float = 6.0

    def __post_init__(self) -> None:
        if not self.radius_mm > 0:
            raise RenderError(f"a stone's radius must be positive, not {self.radius_mm}")


@dataclass(frozen=True, slots=True)
class Cup:
    """A cup standing on the table: the centre of its base and its radius in mm, its
    height, its colour and the drink's, and where its handle points (degrees, 0 = +x,
    clockwise on screen)."""

    x: float
    y: float
    radius_mm: float = 40.0
    height_mm: float = 90.0
    colour: BGR = (232, 234, 236)
    drink: BGR = (28, 44, 70)
    handle_deg: float = 30.0

    def __post_init__(self) -> None:
        if not (self.radius_mm > 0 and self.height_mm > 0):
            raise RenderError("a cup's radius and height must be positive")


Prop = Stone | Cup


def _shade(colour: BGR, f: float) -> BGR:
    b, g, r = (int(min(255, max(0, round(c * f)))) for c in colour)
    return (b, g, r)


def _circle(centre: Points, r: float, n: int = 48) -> Points:
    a = np.linspace(0.0, 2.0 * math.pi, n, endpoint=False)
    return np.asarray(centre + r * np.stack([np.cos(a), np.sin(a)], axis=1), dtype=np.float64)


def shadow_outline(prop: Prop, lift: Points, light_from: tuple[float, float]) -> Points:
    """The outline (mm) of the shadow `prop` casts on the table, away from the light."""
    centre = np.array([prop.x, prop.y])
    away = -np.asarray(light_from, dtype=np.float64) * prop.height_mm
    base = _circle(centre, prop.radius_mm)
    top = _circle(centre + lift + away, prop.radius_mm)
    hull = cv2.convexHull(np.vstack([base, top]).astype(np.float32))
    return np.asarray(hull, dtype=np.float64).reshape(-1, 2)


def draw_prop(
    img: Image, canvas: Canvas, prop: Prop, lift: Points, light_from: tuple[float, float]
) -> None:
    """`prop` on the canvas; `lift` is how far its top appears shifted from its base
    (mm, the perspective of a camera above the table)."""
    if isinstance(prop, Stone):
        _stone(img, canvas, prop, lift, light_from)
    else:
        _cup(img, canvas, prop, lift, light_from)


def _stone(
    img: Image, canvas: Canvas, stone: Stone, lift: Points, light_from: tuple[float, float]
) -> None:
    """A glossy disc: a dark rim where it rounds over, its body, a soft highlight
    towards the light."""
    centre = np.array([stone.x, stone.y]) + lift
    r = stone.radius_mm
    disc(img, canvas, centre, r, _shade(stone.colour, 0.55))
    disc(img, canvas, centre, 0.88 * r, stone.colour)
    light = np.asarray(light_from, dtype=np.float64)
    norm = float(np.hypot(light[0], light[1])) or 1.0
    towards = light / norm
    disc(img, canvas, centre + towards * 0.35 * r, 0.45 * r, _lighter(stone.colour, 22))
    disc(img, canvas, centre + towards * 0.5 * r, 0.18 * r, _lighter(stone.colour, 70))


def _lighter(colour: BGR, by: int) -> BGR:
    b, g, r = (min(255, c + by) for c in colour)
    return (b, g, r)


def _cup(
    img: Image, canvas: Canvas, cup: Cup, lift: Points, light_from: tuple[float, float]
) -> None:
    """The cup's side between its base and its lifted rim, the handle, the rim and
    the drink inside."""
    base = np.array([cup.x, cup.y])
    top = base + lift
    r = cup.radius_mm
    side = cv2.convexHull(np.vstack([_circle(base, r), _circle(top, r)]).astype(np.float32))
    fill(img, canvas, np.asarray(side, dtype=np.float64).reshape(-1, 2), _shade(cup.colour, 0.8))
    a = math.radians(cup.handle_deg)
    out = np.array([math.cos(a), math.sin(a)])
    handle = top - 0.3 * lift + out * (r + 0.22 * r)
    disc(img, canvas, handle, 0.3 * r, _shade(cup.colour, 0.85))
    disc(img, canvas, handle, 0.17 * r, _shade(cup.colour, 0.6))
    disc(img, canvas, top, r, cup.colour)
    light = np.asarray(light_from, dtype=np.float64)
    disc(img, canvas, top - light * 0.04 * r, 0.9 * r, _shade(cup.colour, 0.72))
    disc(img, canvas, top, 0.86 * r, cup.drink)
    disc(img, canvas, top + light * 0.3 * r, 0.2 * r, _lighter(cup.drink, 40))
