"""Drawing one synthetic frame: table canvas, tiles, warp into the camera, hand, light.

The table is drawn top-down on a canvas a little finer than the camera sees it,
warped into the camera by its homography, then the hand, light and sensor effects
are added in image space. The ground truth comes from the same geometry.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from tablesim.errors import RenderError
from tablesim.render.effects import finish
from tablesim.render.hand import draw_hand
from tablesim.render.portable import linear_resize, scaled_product, warp
from tablesim.render.props import draw_prop, shadow_outline
from tablesim.render.scene import (
    Camera,
    Hand,
    Rendered,
    Scene,
)
from tablesim.render.styles import RenderStyle
from tablesim.render.textures import surface_texture
from tablesim.render.tiles import (
    Canvas,
    TileShape,
    draw_face,
    draw_marker,
    facedown_outline,
    fill,
    side_hull,
    tile_shape,
)
from tablesim.render.truth import ground_truth
from vision.calibration.aruco_markers import Corner

log = logging.getLogger(__name__)

Image = npt.NDArray[np.uint8]
Points = npt.NDArray[np.float64]

BACKGROUND: Final = (38, 44, 52)  # the floor around the table
SHADOW_SUBSAMPLE: Final = 4
# What lies flat on the table under the tiles (printed pages: `tablesim.render.mat`),
# drawn on the top-down canvas after the surface and before any shadow.
Underlay = Callable[[Image, Canvas], None]


def render_frame(
    scene: Scene,
    camera: Camera | None = None,
    style: RenderStyle | None = None,
    seed: int = 0,
    *,
    frame: int = 0,
    hand: Hand | None = None,
    exposure: float = 1.0,
    canvas_px_per_mm: float | None = None,
    canvas_limit: float = 8.0,
    underlay: Underlay | None = None,
    view: TableView | None = None,
) -> Rendered:
    """One camera frame of `scene` and its ground truth.

    `camera` defaults to `Camera.overhead(scene.size_mm)` (1280x960) and `style` to
    `RenderStyle()`. `seed` fixes the table texture, light and tile shading; `frame`
    varies the sensor noise only; `hand`, when given, reaches over the table;
    `exposure` scales the light of the whole scene (1 = as the style says);
    `canvas_px_per_mm` is the resolution the table is drawn at before the camera's warp
    (default: a little finer than the camera sees the table's nearest corner; give it
    when the table reaches far beyond the frame, as a close-up's does), at most
    `canvas_limit` px per mm (a phone's close-up sees 10-20); `underlay` draws what
    lies flat under the tiles (paper) on the table's top-down canvas. `view`, from
    `table_view` with the same arguments, is the table as the camera sees it, drawn
    once for all the frames of a scene (the same bytes as drawn here).
    """
    cam = camera or Camera.overhead(scene.size_mm, margin_mm=scene.margin_mm)
    look = style or RenderStyle()
    if view is None:
        view = table_view(scene, cam, look, seed, canvas_px_per_mm, canvas_limit, underlay)
    elif view.drawn != (scene, cam, look, seed, canvas_px_per_mm, canvas_limit, underlay):
        raise RenderError("a table view drawn for another scene, camera, style or seed")
    image, shapes = view.image, list(view.shapes)
    mask = None
    if hand is not None:
        image = image.copy()  # the view is shared by the scene's frames
        scale = cam.px_per_mm(cam.centre_mm())
        mask = draw_hand(image, hand, scale, shadow=look.shadows)
    image = finish(image, look, seed, frame, exposure)
    log.debug(
        "render: frame %d, %d tiles, %d face down, seed %d, hand %s",
        frame,
        len(scene.tiles),
        len(scene.facedown),
        seed,
        hand is not None,
    )
    return Rendered(image, ground_truth(scene, cam, shapes, mask, look))


@dataclass(frozen=True, slots=True)
class TableView:
    """The table as the camera sees it before the hand, the light and the sensor: what
    every frame of a scene shares. `drawn` is what it was drawn for; `image` is
    read-only."""

    image: Image
    shapes: tuple[TileShape, ...]
    drawn: tuple[object, ...]


def table_view(
    scene: Scene,
    camera: Camera | None = None,
    style: RenderStyle | None = None,
    seed: int = 0,
    canvas_px_per_mm: float | None = None,
    canvas_limit: float = 8.0,
    underlay: Underlay | None = None,
) -> TableView:
    """The table drawn top-down and warped into the camera (`render_frame`'s first half),
    with `render_frame`'s defaults: give it as `view=` to each frame of the scene."""
    cam = camera or Camera.overhead(scene.size_mm, margin_mm=scene.margin_mm)
    look = style or RenderStyle()
    canvas = _canvas(scene, cam, canvas_px_per_mm, canvas_limit)
    table, shapes = _draw_table(scene, cam, canvas, look, seed, underlay)
    image = _warp(table, canvas, cam)
    image.flags.writeable = False
    drawn = (scene, cam, look, seed, canvas_px_per_mm, canvas_limit, underlay)
    return TableView(image, tuple(shapes), drawn)


def _draw_table(
    scene: Scene,
    cam: Camera,
    canvas: Canvas,
    look: RenderStyle,
    seed: int,
    underlay: Underlay | None = None,
) -> tuple[Image, list[TileShape]]:
    """The table seen straight from above: surface, paper, shadows, markers, tiles."""
    x0, y0, x1, y1 = scene.surface_rect_mm
    ch, cw = math.ceil((y1 - y0) * canvas.scale), math.ceil((x1 - x0) * canvas.scale)
    table = _tinted(surface_texture(look.surface, (ch, cw), round(canvas.scale, 3), seed), look)
    if underlay is not None:
        underlay(table, canvas)
    foot = np.array(cam.centre_mm())
    shapes = [tile_shape(t, scene.tile_mm, look.tile_set) for t in scene.tiles]
    backs = [facedown_outline(f.x, f.y, f.angle_deg, scene.tile_mm) for f in scene.facedown]
    lifts = [_lift(s.centre, foot, scene, cam) for s in shapes]
    back_lifts = [_lift(np.mean(b, axis=0), foot, scene, cam) for b in backs]
    prop_lifts = [_lift(np.array([p.x, p.y]), foot, scene, cam, p.height_mm) for p in scene.props]
    if look.shadows:
        tops = backs + [s.outline for s in shapes]
        cast = [
            shadow_outline(p, lift, look.light_from)
            for p, lift in zip(scene.props, prop_lifts, strict=True)
        ]
        _shadows(table, canvas, tops, back_lifts + lifts, scene, look, cast)
    if scene.markers:
        for corner in Corner:
            centre = np.array(corner.position_mm(*scene.size_mm))
            draw_marker(table, canvas, int(corner), centre, scene.marker_mm)
    sides = look.tile_set.side
    for top, lift in zip(backs + [s.outline for s in shapes], back_lifts + lifts, strict=True):
        fill(table, canvas, side_hull(top, lift), sides)  # no side hides a face
    for back in backs:
        fill(table, canvas, back, look.tile_set.back)
    _draw_faces(table, canvas, scene, look, seed=seed, shapes=shapes)
    for prop, lift in zip(scene.props, prop_lifts, strict=True):
        draw_prop(table, canvas, prop, lift, look.light_from)
    return table, shapes


def _tinted(texture: Image, style: RenderStyle) -> Image:
    """A writable copy of the table's texture in the style's tint."""
    if style.surface_tint == (1.0, 1.0, 1.0):
        return texture.copy()
    gains = np.asarray(style.surface_tint, dtype=np.float32)
    return np.asarray(np.clip(texture * gains, 0, 255), dtype=np.uint8)


def _canvas(scene: Scene, cam: Camera, px_per_mm: float | None, limit: float) -> Canvas:
    """A top-down canvas a little finer than the camera sees the table."""
    x0, y0, x1, y1 = scene.surface_rect_mm
    if px_per_mm is None:
        finest = max(cam.px_per_mm((x, y)) for x in (x0, x1) for y in (y0, y1))
        px_per_mm = 1.15 * finest
    return Canvas(min(limit, max(1.0, px_per_mm)), (x0, y0))


def _lift(
    centre: Points, foot: Points, scene: Scene, cam: Camera, height_mm: float | None = None
) -> Points:
    """How far a tile's top face (or the top of a thing `height_mm` tall) appears
    shifted from its base (table mm)."""
    height = scene.thickness_mm if height_mm is None else height_mm
    if height >= cam.height_mm:
        raise RenderError(
            f"a thing {height:g} mm tall under a camera {cam.height_mm:.0f} mm above the "
            "table: the camera must stand higher"
        )
    return np.asarray((centre - foot) * (height / cam.height_mm), dtype=np.float64)


def _shadows(
    table: Image,
    canvas: Canvas,
    tops: list[Points],
    lifts: list[Points],
    scene: Scene,
    look: RenderStyle,
    cast: list[Points] | None = None,
) -> None:
    """Darken the table under soft tile shadows (computed at a quarter of the scale),
    cast away from `look.light_from`, and under the outlines `cast` (the props'
    shadows, already cast)."""
    h, w = table.shape[:2]
    small = Canvas(canvas.scale / SHADOW_SUBSAMPLE, canvas.origin)
    mask = np.zeros((h // SHADOW_SUBSAMPLE + 1, w // SHADOW_SUBSAMPLE + 1), dtype=np.uint8)
    offset = -np.array(look.light_from) * scene.thickness_mm
    for top, lift in zip(tops, lifts, strict=True):
        fill(mask, small, side_hull(top, lift) + offset, 255)
    for outline in cast or []:
        fill(mask, small, outline, 255)
    soft = cv2.GaussianBlur(mask, (0, 0), look.shadow_mm * small.scale)
    keep = 255 - np.asarray(soft * look.shadow_depth, dtype=np.uint8)
    # the same bytes on every OpenCV and CPU (tablesim.render.portable)
    big = linear_resize(keep, (w, h))
    table[...] = scaled_product(table, big[:, :, None], 255)


def _draw_faces(
    table: Image,
    canvas: Canvas,
    scene: Scene,
    style: RenderStyle,
    *,
    seed: int,
    shapes: list[TileShape],
) -> None:
    tiles, spinner = style.tile_set, style.spinner
    rng = np.random.default_rng([seed, 0x711E])
    for tile, shape in zip(scene.tiles, shapes, strict=True):
        jitter = float(rng.uniform(-0.03, 0.03))
        draw_face(
            table,
            canvas,
            tile,
            shape,
            tiles,
            jitter=jitter,
            spinner=spinner,
            light_from=style.light_from,
        )


def _warp(table: Image, canvas: Canvas, cam: Camera) -> Image:
    """The canvas as the camera sees it: its homography after canvas px -> table mm
    (mm = px / scale + origin), multiplied out in Python floats and warped by
    `portable.warp`, so the frame is the same on every OpenCV version and CPU."""
    s = canvas.scale
    ox, oy = canvas.origin
    h = cam.homography
    m = np.array(
        [[h[r] / s, h[r + 1] / s, h[r] * ox + h[r + 1] * oy + h[r + 2]] for r in (0, 3, 6)],
        dtype=np.float64,
    )
    return warp(table, m, (cam.width, cam.height), border=BACKGROUND)
