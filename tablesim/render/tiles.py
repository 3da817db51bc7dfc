"""Drawing tiles and markers onto the top-down table canvas (millimetres scaled).

The canvas is the table surface seen straight from above at `scale` pixels per mm;
the renderer warps it into the camera afterwards. Everything is drawn anti-aliased
with sub-pixel precision.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from engine.surface import SeenTile
from tablesim.errors import RenderError
from tablesim.render.gloss import dome, face_sheen, pip_highlight
from tablesim.render.pip_layouts import GRID, pip_layout
from tablesim.render.portable import warp
from tablesim.render.sets import BGR, DOMES, SPINNER_COLOURS, Spinner, TileSet
from vision.calibration.aruco_markers import MODULES, marker_image

Image = npt.NDArray[np.uint8]
Points = npt.NDArray[np.float64]

SHIFT = 4  # fixed-point bits for sub-pixel drawing
ONE = 1 << SHIFT
PAPER: BGR = (246, 246, 244)


@dataclass(frozen=True, slots=True)
class Canvas:
    """Maps table mm onto canvas pixels: px = (mm - origin) * scale."""

    scale: float
    origin: tuple[float, float]

    def px(self, points_mm: Points) -> Points:
        return np.asarray((points_mm - np.asarray(self.origin)) * self.scale, dtype=np.float64)

    def fixed(self, points_mm: Points) -> npt.NDArray[np.int32]:
        return np.round(self.px(points_mm) * ONE).astype(np.int32)


@dataclass(frozen=True, slots=True)
class TileShape:
    """A tile's top face and pips in table mm, for drawing and for the ground truth."""

    outline: Points  # rounded rectangle, (n, 2)
    centre: Points
    u: Points  # unit vector from half a to half b
    v: Points
    pips_a: Points  # (k, 2)
    pips_b: Points
    pip_r_mm: float


_ARC = np.radians(np.arange(24) % 6 * 18.0 + np.repeat([0.0, 90.0, 180.0, 270.0], 6))
_ARC_UV = np.stack([np.cos(_ARC), np.sin(_ARC)], axis=1)  # (24, 2) unit arcs, 4 corners
_CORNER_SIGNS = np.repeat(np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]], dtype=np.float64), 6, 0)


def rounded_rect(centre: Points, u: Points, half_len: float, half_wid: float, r: float) -> Points:
    """A rounded rectangle along `u`, as 24 points (6 per corner arc), in mm."""
    v = np.array([-u[1], u[0]])
    local = _CORNER_SIGNS * np.array([half_len - r, half_wid - r]) + _ARC_UV * r
    return np.asarray(centre + local[:, :1] * u + local[:, 1:] * v, dtype=np.float64)


def tile_shape(tile: SeenTile, tile_mm: tuple[float, float], tiles: TileSet) -> TileShape:
    """Where a tile's face and pips lie, in mm, as the set `tiles` draws them."""
    a = np.array([tile.xa, tile.ya])
    b = np.array([tile.xb, tile.yb])
    dist = float(np.linalg.norm(b - a))
    if dist < 1e-6:
        raise RenderError(f"tile {tile}: its two halves lie on the same point")
    u = (b - a) / dist
    v = np.array([-u[1], u[0]])
    length, width = tile_mm
    centre = (a + b) / 2
    outline = rounded_rect(centre, u, length / 2, width / 2, 0.1 * width)
    half = width / 2

    def pips(count: int, at: Points, out: Points) -> Points:
        side = np.array([-out[1], out[0]])
        layout = pip_layout(count, tiles.layout)
        if not layout:
            return np.zeros((0, 2))
        uv = np.array(layout) * tiles.pip_spread
        return np.asarray(at + (uv[:, :1] * out + uv[:, 1:] * side) * half, dtype=np.float64)

    r = tiles.pip_radius(tile.a, tile.b)
    return TileShape(outline, centre, u, v, pips(tile.a, a, -u), pips(tile.b, b, u), r * half)


def side_hull(top: Points, lift: Points) -> Points:
    """The tile's whole silhouette: its top face and its base `lift` mm away."""
    both = np.vstack([top, top - lift]).astype(np.float32)
    return np.asarray(cv2.convexHull(both), dtype=np.float64).reshape(-1, 2)


def fill(img: Image, canvas: Canvas, poly: Points, colour: BGR | int) -> None:
    cv2.fillPoly(img, [canvas.fixed(poly)], _colour(colour), cv2.LINE_AA, SHIFT)


def _colour(colour: BGR | int) -> tuple[int, ...]:
    return (colour,) if isinstance(colour, int) else colour


def disc(img: Image, canvas: Canvas, at: Points, r_mm: float, colour: BGR) -> None:
    c = canvas.fixed(at)
    r = round(r_mm * canvas.scale * ONE)
    cv2.circle(img, (int(c[0]), int(c[1])), r, colour, -1, cv2.LINE_AA, SHIFT)


def draw_face(
    img: Image,
    canvas: Canvas,
    tile: SeenTile,
    shape: TileShape,
    tiles: TileSet,
    *,
    jitter: float,
    spinner: Spinner,
    light_from: tuple[float, float] = (-0.35, -0.5),
) -> None:
    """The tile's face, divider, pips and spinner (its shadow and side are drawn
    beforehand: every tile's side before any face, as a side never hides a face).
    `light_from` (table plane) places a glossy set's highlights and a domed pin's."""
    face = _shade(tiles.face, jitter)
    fill(img, canvas, shape.outline, face)
    if tiles.grain:
        _grain(img, canvas, shape, face)
    _bevel(img, canvas, shape, face)
    width = 2 * _half_dims(shape)[1]
    if tiles.glossy:
        long_px = canvas.px(shape.centre + shape.u * width) - canvas.px(shape.centre)
        outline = canvas.px(shape.outline)
        face_sheen(img, outline, canvas.px(shape.centre), long_px, 0.35, light_from)
    _divider(img, canvas, shape, tiles.divider, tiles.divider_mm * width / 24.0)
    if tiles.rings is not None:
        _rings(img, canvas, shape, tiles, tiles.rings, light_from)
    for count, centres in ((tile.a, shape.pips_a), (tile.b, shape.pips_b)):
        for at in centres:
            _pip(img, canvas, at, shape.pip_r_mm, colour=tiles.pips[count], tiles=tiles, face=face)
            if tiles.glossy:
                r_px = shape.pip_r_mm * canvas.scale
                pip_highlight(img, canvas.px(at), r_px, tiles.pips[count], light_from)
    r = tiles.spinner_radius_mm(spinner, width)
    if spinner in DOMES:
        dome(img, canvas.px(shape.centre), r * canvas.scale, spinner, light_from)
    elif spinner is not Spinner.NONE:
        dark, light = SPINNER_COLOURS[spinner]
        disc(img, canvas, shape.centre, r, dark)
        disc(img, canvas, shape.centre - np.array([0.25, 0.25]) * r, 0.375 * r, light)


def _rings(
    img: Image,
    canvas: Canvas,
    shape: TileShape,
    tiles: TileSet,
    colour: BGR,
    light_from: tuple[float, float],
) -> None:
    """A raised empty ring at each of the 3x3 grid places of both halves: its rim lit
    on the side towards the light and shaded on the other."""
    half = _half_dims(shape)[1]  # a half is a square as wide as the tile
    thick = max(1, round(canvas.scale * 0.06 * half))
    r_mm = tiles.ring_r * half
    light = np.asarray(light_from, dtype=np.float64)
    light = light / (float(np.hypot(light[0], light[1])) or 1.0)
    lit = tuple(min(255, c + 45) for c in colour)
    dark = tuple(max(0, c - 40) for c in colour)
    for sign in (-1.0, 1.0):
        centre = shape.centre + sign * shape.u * half
        for gu in (-GRID, 0.0, GRID):
            for gv in (-GRID, 0.0, GRID):
                at = centre + (gu * shape.u + gv * shape.v) * half
                for offset, shade in ((-0.12, dark), (0.12, lit), (0.0, colour)):
                    c = canvas.fixed(at + light * offset * thick / canvas.scale)
                    r = round(r_mm * canvas.scale * ONE)
                    cv2.circle(img, (int(c[0]), int(c[1])), r, shade, thick, cv2.LINE_AA, SHIFT)


def _divider(img: Image, canvas: Canvas, shape: TileShape, colour: BGR, thick_mm: float) -> None:
    """The line across the tile's middle, stopping short of its long edges."""
    reach = shape.v * (_half_dims(shape)[1] * 0.82)
    ends = canvas.fixed(np.array([shape.centre + reach, shape.centre - reach]))
    thick = max(1, round(canvas.scale * thick_mm))
    p0 = (int(ends[0][0]), int(ends[0][1]))
    p1 = (int(ends[1][0]), int(ends[1][1]))
    cv2.line(img, p0, p1, colour, thick, cv2.LINE_AA, SHIFT)


def _bevel(img: Image, canvas: Canvas, shape: TileShape, face: BGR) -> None:
    """A darker rim where the face rounds over, a lighter line just inside it."""
    thick = max(1, round(canvas.scale * 0.4))
    hl, hw = _half_dims(shape)
    r = 0.1 * 2 * hw
    inner = rounded_rect(shape.centre, shape.u, hl - 0.9, hw - 0.9, max(0.1, r - 0.9))
    for poly, amount in ((shape.outline, -0.1), (inner, 0.05)):
        colour = _shade(face, amount)
        cv2.polylines(img, [canvas.fixed(poly)], True, colour, thick, cv2.LINE_AA, SHIFT)


def _half_dims(shape: TileShape) -> tuple[float, float]:
    pts = shape.outline - shape.centre
    return float(np.max(pts @ shape.u)), float(np.max(pts @ shape.v))


def _pip(
    img: Image,
    canvas: Canvas,
    at: Points,
    r: float,
    *,
    colour: BGR,
    tiles: TileSet,
    face: BGR,
) -> None:
    disc(img, canvas, at, r, colour)
    if tiles.engraved:  # burnt into wood: a lighter floor, lit from the top left
        b, g, red = (min(255, int(0.6 * c + 0.4 * f)) for c, f in zip(colour, face, strict=True))
        disc(img, canvas, at + np.array([0.25, 0.25]) * r, r * 0.55, (b, g, red))


def _grain(img: Image, canvas: Canvas, shape: TileShape, face: BGR) -> None:
    hl, hw = _half_dims(shape)
    dark = _shade(face, -0.12)
    thick = max(1, round(canvas.scale * 0.3))
    for k, off in enumerate(np.linspace(-0.8, 0.8, 6)):
        wobble = 0.15 * math.sin(3.1 * k + shape.centre[0])
        p0 = shape.centre - shape.u * (hl * 0.95) + shape.v * (hw * (off + wobble))
        p1 = shape.centre + shape.u * (hl * 0.95) + shape.v * (hw * (off - wobble))
        pts = canvas.fixed(np.array([p0, p1]))
        cv2.line(
            img,
            (int(pts[0][0]), int(pts[0][1])),
            (int(pts[1][0]), int(pts[1][1])),
            dark,
            thick,
            cv2.LINE_AA,
            SHIFT,
        )


def _shade(colour: BGR, amount: float) -> BGR:
    f = 1.0 + amount
    b, g, r = (int(min(255, max(0, round(c * f)))) for c in colour)
    return (b, g, r)


def facedown_outline(x: float, y: float, angle_deg: float, tile_mm: tuple[float, float]) -> Points:
    a = math.radians(angle_deg)
    u = np.array([math.cos(a), math.sin(a)])
    return rounded_rect(np.array([x, y]), u, tile_mm[0] / 2, tile_mm[1] / 2, 0.1 * tile_mm[1])


def draw_marker(
    img: Image, canvas: Canvas, marker_id: int, centre_mm: Points, side_mm: float
) -> None:
    """A printed marker: a white paper square with the black marker in its middle."""
    paper = 1.5 * side_mm / 2
    square = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], dtype=np.float64)
    fill(img, canvas, centre_mm + square * paper, PAPER)
    k = max(8, math.ceil(side_mm * canvas.scale / MODULES))
    mark = cv2.cvtColor(marker_image(marker_id, MODULES * k), cv2.COLOR_GRAY2BGR)
    top_left = canvas.px(centre_mm - side_mm / 2)
    side_px = side_mm * canvas.scale
    x0, y0 = (math.floor(v) - 1 for v in top_left)
    x1, y1 = (math.ceil(v) + 2 for v in top_left + side_px)
    if x0 < 0 or y0 < 0 or x1 > img.shape[1] or y1 > img.shape[0]:
        raise RenderError(f"marker {marker_id} does not fit on the table surface")
    roi = img[y0:y1, x0:x1]
    f = side_px / (MODULES * k)
    # pixel centres: marker pixel i covers [i, i+1); map its edges onto canvas edges
    m = np.array(
        [[f, 0, top_left[0] - x0 + 0.5 * f], [0, f, top_left[1] - y0 + 0.5 * f], [0, 0, 1]]
    )
    # the rim blends with the paper beneath (portable.warp: the same on every OpenCV;
    # OpenCV 4's warpAffine left it paper, and the marker was found 0.6 px off)
    warp(mark, m, (x1 - x0, y1 - y0), dst=roi)
