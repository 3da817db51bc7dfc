"""The ground truth of a rendered frame: every tile, back and marker in pixels."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from tablesim.render.scene import (
    Camera,
    FaceDownTruth,
    MarkerTruth,
    Point,
    Scene,
    TileTruth,
    Truth,
)
from tablesim.render.sets import Spinner
from tablesim.render.styles import RenderStyle
from tablesim.render.tiles import TileShape, facedown_outline
from vision.calibration.aruco_markers import Corner

Image = npt.NDArray[np.uint8]
Points = npt.NDArray[np.float64]

_BOX = np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]], dtype=np.float64)


def ground_truth(
    scene: Scene, cam: Camera, shapes: list[TileShape], mask: Image | None, style: RenderStyle
) -> Truth:
    """What was drawn, in pixels; `mask` is the hand's coverage (None: no hand)."""
    tiles = tuple(_tile(scene, cam, shape, i, mask, style) for i, shape in enumerate(shapes))
    backs = tuple(_back(scene, cam, i, mask) for i in range(len(scene.facedown)))
    markers = _markers(scene, cam, mask) if scene.markers else ()
    fraction = 0.0 if mask is None else float(np.count_nonzero(mask)) / mask.size
    return Truth(cam, tiles, backs, markers, fraction)


def _box(centre: Points, u: Points, tile_mm: tuple[float, float]) -> Points:
    """The four corners of a tile's rectangle (without the rounding), in mm."""
    v = np.array([-u[1], u[0]])
    length, width = tile_mm
    return np.asarray(
        centre + _BOX[:, :1] * u * (length / 2) + _BOX[:, 1:] * v * (width / 2), dtype=np.float64
    )


def _tile(
    scene: Scene, cam: Camera, shape: TileShape, i: int, mask: Image | None, style: RenderStyle
) -> TileTruth:
    tile = scene.tiles[i]
    look = style.tile_set
    pin = None if style.spinner is Spinner.NONE else _point(cam.mm_to_px(shape.centre))
    ends = cam.mm_to_px(np.array([[tile.xa, tile.ya], [tile.xb, tile.yb]]))
    pips_a, pips_b = cam.mm_to_px(shape.pips_a), cam.mm_to_px(shape.pips_b)
    corners = cam.mm_to_px(_box(shape.centre, shape.u, scene.tile_mm))
    probe = np.vstack([ends, pips_a, pips_b, corners])
    return TileTruth(
        tile,
        _point(ends[0]),
        _point(ends[1]),
        _points(pips_a),
        _points(pips_b),
        _points(corners),
        _covered(mask, probe),
        look.face,
        look.pips[tile.a],
        look.pips[tile.b],
        pin,
    )


def _back(scene: Scene, cam: Camera, i: int, mask: Image | None) -> FaceDownTruth:
    f = scene.facedown[i]
    a = math.radians(f.angle_deg)
    centre = np.array([f.x, f.y])
    corners = cam.mm_to_px(_box(centre, np.array([math.cos(a), math.sin(a)]), scene.tile_mm))
    outline = cam.mm_to_px(facedown_outline(f.x, f.y, f.angle_deg, scene.tile_mm))
    return FaceDownTruth(f, _point(cam.mm_to_px(centre)), _points(corners), _covered(mask, outline))


def _markers(scene: Scene, cam: Camera, mask: Image | None) -> tuple[MarkerTruth, ...]:
    half = scene.marker_mm / 2
    square = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    out = []
    for corner in Corner:
        centre = np.array(corner.position_mm(*scene.size_mm))
        px = cam.mm_to_px(centre + square)
        c = cam.mm_to_px(centre)
        covered = _covered(mask, np.vstack([px, c]))
        out.append(MarkerTruth(int(corner), _point(c), _points(px), covered))
    return tuple(out)


def _covered(mask: Image | None, pts: Points) -> bool:
    """Whether the hand covers any of these pixels."""
    if mask is None:
        return False
    h, w = mask.shape
    xy = np.round(pts).astype(np.int64)
    inside = (xy[:, 0] >= 0) & (xy[:, 0] < w) & (xy[:, 1] >= 0) & (xy[:, 1] < h)
    xy = xy[inside]
    return bool(np.any(mask[xy[:, 1], xy[:, 0]] > 0))


def _point(p: Points) -> Point:
    return (float(p[0]), float(p[1]))


def _points(arr: Points) -> tuple[Point, ...]:
    return tuple((float(x), float(y)) for x, y in arr.reshape(-1, 2))
