"""A board table's surface at an event, drawn as a PNG from the board's report.

The record keeps what the board reported (`board_surface`: each tile's two halves and
where their centres lie, in mm); `draw_png` draws it when a `frame` command asks: the
surface to scale, each tile where it lay with its pips, and a caption with the time of
the report. OpenCV is imported when a picture is drawn, not before (a board table's
service starts without it).
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from engine.surface import Snapshot
from service.history.store import Picture

__all__ = ["SIDE_PX", "board_surface", "draw_png", "image_of"]

SIDE_PX = 1000  # the picture's longer side, in pixels (without the caption)
CAPTION_PX = 44
MIN_VIEW_MM = 360.0  # the drawn part's longer side at least (a few tiles fill no picture)
FELT = (52, 96, 36)  # BGR
EDGE = (120, 170, 110)
FACE = (226, 238, 242)
INK = (30, 30, 30)
TEXT = (240, 240, 240)

# pip positions on a 3x3 grid (-1..1) for 0-9; larger numbers are written as digits
_PIPS: tuple[tuple[tuple[int, int], ...], ...] = (
    (),
    ((0, 0),),
    ((-1, -1), (1, 1)),
    ((-1, -1), (0, 0), (1, 1)),
    ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
    ((-1, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (1, 1)),
    ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)),
    ((-1, -1), (0, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1), (1, 1)),
)


def board_surface(
    snapshot: Snapshot, size_mm: tuple[int, int], tile_mm: tuple[int, int], at: datetime
) -> dict[str, Any]:
    """What the record keeps of a board's report: plain JSON."""
    return {
        "surface": list(size_mm),
        "tile_mm": list(tile_mm),
        "tiles": [[t.a, t.b, t.xa, t.ya, t.xb, t.yb] for t in snapshot.tiles],
        "at": at.strftime("%Y-%m-%dT%H:%M:%S.") + f"{at.microsecond // 1000:03d}Z",
    }


def image_of(picture: Picture, caption: str = "") -> bytes:
    """A kept picture as image bytes: a camera's JPEG as kept, a board's report drawn."""
    if picture.jpeg is not None:
        return picture.jpeg
    assert picture.surface is not None
    return draw_png(picture.surface, caption)


def draw_png(surface: dict[str, Any], caption: str = "") -> bytes:
    """The surface a board reported (`board_surface`) as PNG bytes: the part of it where
    the tiles lie (at least `MIN_VIEW_MM`, the surface's edge drawn where it shows),
    drawn to scale."""
    import cv2  # noqa: PLC0415 - only when a board's picture is asked for
    import numpy as np  # noqa: PLC0415

    width_mm, height_mm = (float(v) for v in surface["surface"])
    length_mm, breadth_mm = (float(v) for v in surface.get("tile_mm") or (48, 24))
    x0, y0, x1, y1 = _view(surface["tiles"], (width_mm, height_mm), length_mm)
    k = SIDE_PX / max(x1 - x0, y1 - y0)
    w, h = round((x1 - x0) * k), round((y1 - y0) * k)
    image = np.zeros((h + CAPTION_PX, w, 3), np.uint8)
    image[:h] = FELT
    edge = [round(-x0 * k), round(-y0 * k), round((width_mm - x0) * k), round((height_mm - y0) * k)]
    cv2.rectangle(image, (edge[0], edge[1]), (edge[2], edge[3]), EDGE, 2)
    image[h:] = 0
    for a, b, xa, ya, xb, yb in surface["tiles"]:
        at = (xa - x0, ya - y0, xb - x0, yb - y0)
        _tile(cv2, np, image, k, (int(a), int(b)), at, (length_mm, breadth_mm))
    words = f"{caption}  " if caption else ""
    words += f"{len(surface['tiles'])} tiles as the board reported them, {surface.get('at', '')}"
    cv2.putText(image, words, (10, h + 29), cv2.FONT_HERSHEY_SIMPLEX, 0.6, TEXT, 1, cv2.LINE_AA)
    ok, data = cv2.imencode(".png", image)
    if not ok:  # pragma: no cover - OpenCV encodes any 8-bit BGR image
        raise ValueError("the surface could not be drawn as PNG")
    return bytes(data.tobytes())


def _view(
    tiles: list[list[float]], size: tuple[float, float], length: float
) -> tuple[float, float, float, float]:
    """The part of the surface drawn (mm): around the tiles, at least `MIN_VIEW_MM` (in
    the surface's proportions), the whole surface when there is no tile."""
    width, height = size
    if not tiles:
        return (0.0, 0.0, width, height)
    xs = [v for t in tiles for v in (t[2], t[4])]
    ys = [v for t in tiles for v in (t[3], t[5])]
    pad = length * 1.5
    x0, x1, y0, y1 = min(xs) - pad, max(xs) + pad, min(ys) - pad, max(ys) + pad
    want_w = max(x1 - x0, MIN_VIEW_MM * width / max(width, height))
    want_h = max(y1 - y0, MIN_VIEW_MM * height / max(width, height))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return (cx - want_w / 2, cy - want_h / 2, cx + want_w / 2, cy + want_h / 2)


def _tile(
    cv2: Any,
    np: Any,
    image: Any,
    k: float,
    values: tuple[int, int],
    at: tuple[float, float, float, float],
    size: tuple[float, float],
) -> None:
    xa, ya, xb, yb = at
    length, breadth = size
    cx, cy = (xa + xb) / 2 * k, (ya + yb) / 2 * k
    angle = math.atan2(yb - ya, xb - xa) if (xa, ya) != (xb, yb) else 0.0
    ux, uy = math.cos(angle), math.sin(angle)  # along the tile, from half a to half b
    vx, vy = -uy, ux
    half_l, half_b = length * k / 2, breadth * k / 2
    corners = [
        (cx + sx * half_l * ux + sy * half_b * vx, cy + sx * half_l * uy + sy * half_b * vy)
        for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
    ]
    poly = np.asarray([[round(x), round(y)] for x, y in corners], np.int32)
    cv2.fillPoly(image, [poly], FACE, cv2.LINE_AA)
    cv2.polylines(image, [poly], True, INK, 2, cv2.LINE_AA)
    d1 = (round(cx + 0.8 * half_b * vx), round(cy + 0.8 * half_b * vy))
    d2 = (round(cx - 0.8 * half_b * vx), round(cy - 0.8 * half_b * vy))
    cv2.line(image, d1, d2, INK, 1, cv2.LINE_AA)
    step = half_b * 0.55
    for value, side in zip(values, (-1, 1), strict=True):
        hx, hy = cx + side * half_l / 2 * ux, cy + side * half_l / 2 * uy
        if value > 9:
            scale = max(0.4, half_b / 22)
            (tw, th), _ = cv2.getTextSize(str(value), cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
            org = (round(hx - tw / 2), round(hy + th / 2))
            cv2.putText(
                image, str(value), org, cv2.FONT_HERSHEY_SIMPLEX, scale, INK, 2, cv2.LINE_AA
            )
            continue
        for gx, gy in _PIPS[value]:
            px = hx + gx * step * ux + gy * step * vx
            py = hy + gx * step * uy + gy * step * vy
            cv2.circle(
                image, (round(px), round(py)), max(2, round(half_b * 0.14)), INK, -1, cv2.LINE_AA
            )
