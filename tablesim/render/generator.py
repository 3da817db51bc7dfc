"""Random frames with their truth, for testing a detector and training a learned part.

`random_frame(seed)` draws everything from the seed: a set (`random_looks.random_set`),
a table, light and camera defects (`random_style`), a camera at any height and turn,
and tiles of that set laid out in one of several ways (strewn at any angle, touching
lines with doubles crosswise, T and L layouts, a lone tile in close-up), sometimes
face-down tiles and a hand. The same seed gives the same frame. `Sample.labels()` is
the truth as plain JSON: tile corners, values, pip centres and colours, in pixels.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

import cv2
import numpy as np
import numpy.typing as npt

from engine.surface import SeenTile
from tablesim.render.arrangements import Pair, corners, ell, line, scattered, tee, tile_at
from tablesim.render.draw import render_frame
from tablesim.render.random_looks import random_style
from tablesim.render.scene import Camera, FaceDownTile, Hand, Scene, TileTruth, Truth
from tablesim.render.sets import TileSet
from tablesim.render.styles import RenderStyle

__all__ = ["Arrangement", "Sample", "random_frame"]

Image = npt.NDArray[np.uint8]
Points = npt.NDArray[np.float64]

RESOLUTION: Final = (640, 480)
TILE_WIDTH_PX: Final = (12.0, 80.0)  # the drawn tiles' width, log-uniform
CLOSE_UP_WIDTH_PX: Final = (80.0, 200.0)
MAX_TILES: Final = 24


class Arrangement(StrEnum):
    """How the tiles of a random frame lie."""

    SCATTERED = "scattered"  # strewn at any angle, apart
    LINE = "line"  # touching end to end, doubles crosswise
    TEE = "tee"  # a line meeting another's middle
    ELL = "ell"  # a line turning a corner
    MIXED = "mixed"  # a line or a T, and tiles strewn around it
    CLOSE_UP = "close-up"  # one tile, near


_ARRANGEMENTS: Final = tuple(Arrangement)
_WEIGHTS: Final = (0.3, 0.15, 0.12, 0.1, 0.23, 0.1)


@dataclass(frozen=True, slots=True)
class Sample:
    """A random frame: the image (BGR), its truth, and what was drawn."""

    seed: int
    image: Image
    truth: Truth
    scene: Scene
    style: RenderStyle
    arrangement: Arrangement
    exposure: float

    @property
    def tile_set(self) -> TileSet:
        return self.style.tile_set

    def labels(self) -> dict[str, Any]:
        """The truth as plain JSON (pixels; colours BGR as drawn before the light).

        Each tile: `a`, `b`, `corners` (its rectangle), `a_centre`, `b_centre`,
        `pips_a`, `pips_b` (every pip centre), `pip_colour_a`, `pip_colour_b`, `face`,
        `spinner` (a pin's centre, which is not a pip, or null), `occluded` (a hand
        covers part of it) and `whole` (false: the frame's edge cuts it)."""
        w, h = self.truth.camera.width, self.truth.camera.height
        return {
            "seed": self.seed,
            "size": [w, h],
            "set": self.tile_set.name,
            "layout": self.tile_set.layout.value,
            "arrangement": self.arrangement.value,
            "surface": self.style.surface.value,
            "tiles": [_tile_labels(t, w, h) for t in self.truth.tiles],
            "facedown": [[list(p) for p in f.corners_px] for f in self.truth.facedown],
            "hand_fraction": self.truth.hand_fraction,
        }


def _tile_labels(t: TileTruth, w: int, h: int) -> dict[str, Any]:
    box = np.array(t.corners_px)
    whole = bool(np.all((box >= 0) & (box < np.array([w, h]))))
    return {
        "a": t.tile.a,
        "b": t.tile.b,
        "corners": [list(p) for p in t.corners_px],
        "a_centre": list(t.a_px),
        "b_centre": list(t.b_px),
        "pips_a": [list(p) for p in t.pips_a_px],
        "pips_b": [list(p) for p in t.pips_b_px],
        "pip_colour_a": list(t.pip_colour_a),
        "pip_colour_b": list(t.pip_colour_b),
        "face": list(t.face),
        "spinner": list(t.spinner_px) if t.spinner_px is not None else None,
        "occluded": t.occluded,
        "whole": whole,
    }


def random_frame(seed: int, *, resolution: tuple[int, int] = RESOLUTION) -> Sample:
    """One random frame and its truth, everything drawn from `seed`."""
    rng = np.random.default_rng([seed, 0x6E4])
    style = random_style(rng)
    tiles_set = style.tile_set
    kind = _ARRANGEMENTS[int(rng.choice(len(_ARRANGEMENTS), p=_WEIGHTS))]
    width_px = _tile_width_px(rng, kind)
    tile_mm = tiles_set.size_mm
    cam, scene = _camera_and_table(rng, resolution, width_px / tile_mm[1], tile_mm)
    view = cam.px_to_mm(_frame_corners(resolution, inset=-0.02))
    tiles = _lay(rng, kind, tiles_set, scene, view)
    facedown = _facedown(rng, scene, view, tiles) if rng.uniform() < 0.2 else ()
    scene = Scene(tiles, facedown, scene.size_mm, tile_mm, markers=False, margin_mm=scene.margin_mm)
    hand = _hand(rng, cam, tiles) if tiles and rng.uniform() < 0.1 else None
    exposure = float(rng.uniform(0.65, 1.3))
    fine = 1.1 * width_px / tile_mm[1]  # the canvas: a little finer than the frame's foot
    out = render_frame(scene, cam, style, seed, hand=hand, exposure=exposure, canvas_px_per_mm=fine)
    image = _cast(out.image, rng)
    return Sample(seed, image, out.truth, scene, style, kind, exposure)


def _tile_width_px(rng: np.random.Generator, kind: Arrangement) -> float:
    lo, hi = CLOSE_UP_WIDTH_PX if kind is Arrangement.CLOSE_UP else TILE_WIDTH_PX
    return float(math.exp(rng.uniform(math.log(lo), math.log(hi))))


def _frame_corners(resolution: tuple[int, int], inset: float) -> Points:
    w, h = resolution
    dx, dy = w * inset, h * inset
    return np.array([[dx, dy], [w - dx, dy], [w - dx, h - dy], [dx, h - dy]], dtype=np.float64)


def _camera_and_table(
    rng: np.random.Generator,
    resolution: tuple[int, int],
    px_per_mm: float,
    tile_mm: tuple[float, float],
) -> tuple[Camera, Scene]:
    """A camera at any turn and tilt, and a table just covering what it sees."""
    rotation = float(rng.uniform(0.0, 360.0))
    keystone = float(rng.uniform(0.0, 0.35)) if rng.uniform() < 0.6 else 0.0
    lens = {"rotation_deg": rotation, "keystone": keystone, "fov_deg": float(rng.uniform(30, 70))}
    probe = Camera.over((0.0, 0.0), px_per_mm, resolution, **lens)
    seen = probe.px_to_mm(_frame_corners(resolution, inset=-0.02))
    lo, hi = seen.min(axis=0), seen.max(axis=0)
    margin = 2.0
    size = (float(hi[0] - lo[0]), float(hi[1] - lo[1]))
    centre = (float(-lo[0]), float(-lo[1]))  # what the frame shows runs from (0, 0)
    cam = Camera.over(centre, px_per_mm, resolution, **lens)
    return cam, Scene(size_mm=size, tile_mm=tile_mm, markers=False, margin_mm=margin)


def _pairs(rng: np.random.Generator, highest: int, count: int) -> list[Pair]:
    """`count` different tiles of a set, blanks often among them (a 0-0 in a third of
    the frames)."""
    every = [(a, b) for a in range(highest + 1) for b in range(a, highest + 1)]
    order = [every[i] for i in rng.permutation(len(every))]
    if rng.uniform() < 0.33:
        order.remove((0, 0))
        order.insert(int(rng.integers(0, min(count, len(order)) + 1)), (0, 0))
    picked = order[:count]
    return [(b, a) if rng.uniform() < 0.5 else (a, b) for a, b in picked]


def _chain(rng: np.random.Generator, highest: int, count: int, used: set[Pair]) -> list[Pair]:
    """Tiles that match end to end, as a line of play does (fewer if none is left)."""
    out: list[Pair] = []
    end = int(rng.integers(highest + 1))
    for _ in range(count):
        options = [n for n in range(highest + 1) if (min(end, n), max(end, n)) not in used]
        if not options:
            break
        n = options[int(rng.integers(len(options)))]
        used.add((min(end, n), max(end, n)))
        out.append((end, n))
        end = n
    return out


def _inside(view: Points, points: Points) -> bool:
    """Whether every point lies inside the convex quadrilateral `view`."""
    contour = view.astype(np.float32).reshape(-1, 1, 2)
    return all(cv2.pointPolygonTest(contour, (float(x), float(y)), False) >= 0 for x, y in points)


def _touches(view: Points, points: Points) -> bool:
    contour = view.astype(np.float32).reshape(-1, 1, 2)
    return any(cv2.pointPolygonTest(contour, (float(x), float(y)), False) >= 0 for x, y in points)


def _lay(
    rng: np.random.Generator, kind: Arrangement, tiles: TileSet, scene: Scene, view: Points
) -> tuple[SeenTile, ...]:
    """The face-up tiles, in view (a line may run out of the frame: its cut tiles
    stay, tiles wholly outside go)."""
    tile_mm = scene.tile_mm
    lo, hi = view.min(axis=0), view.max(axis=0)
    area = (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))
    centre = (float((lo[0] + hi[0]) / 2), float((lo[1] + hi[1]) / 2))
    if kind is Arrangement.CLOSE_UP:
        pair = _pairs(rng, tiles.highest, 1)[0]
        return (tile_at(pair, centre, float(rng.uniform(0, 360)), tile_mm),)
    room = max(1, int((hi[0] - lo[0]) * (hi[1] - lo[1]) / (tile_mm[0] * tile_mm[1] * 4)))
    laid: tuple[SeenTile, ...] = ()
    used: set[Pair] = set()
    if kind is not Arrangement.SCATTERED:
        laid = _lines(rng, kind, tiles.highest, centre, tile_mm, used, room)
        laid = tuple(t for t in laid if _touches(view, corners(t, tile_mm)))
    if kind in (Arrangement.SCATTERED, Arrangement.MIXED):
        count = int(rng.integers(1, min(MAX_TILES, room) + 1))
        spare = [p for p in _pairs(rng, tiles.highest, count + len(used)) if _key(p) not in used]
        strewn = scattered(spare[:count], area, rng, tile_mm, gap_mm=float(rng.uniform(1, 12)),
                           taken=laid)  # fmt: skip
        laid += tuple(t for t in strewn if _inside(view, corners(t, tile_mm)))
    return laid


def _key(pair: Pair) -> Pair:
    return (min(pair), max(pair))


def _lines(
    rng: np.random.Generator,
    kind: Arrangement,
    highest: int,
    centre: tuple[float, float],
    tile_mm: tuple[float, float],
    used: set[Pair],
    room: int,
) -> tuple[SeenTile, ...]:
    angle = float(rng.uniform(0, 360))
    n = int(rng.integers(2, max(3, min(9, room + 2))))
    first = _chain(rng, highest, n, used)
    gap = 0.0 if rng.uniform() < 0.7 else float(rng.uniform(0.3, 3.0))
    d = np.array([math.cos(math.radians(angle)), math.sin(math.radians(angle))])
    start = np.array(centre) - d * (len(first) * tile_mm[0] / 2)
    at = (float(start[0]), float(start[1]))
    if kind is Arrangement.ELL:
        second = _chain(rng, highest, int(rng.integers(1, 5)), used)
        return ell(first, second, at, angle, tile_mm, gap_mm=gap).tiles
    if kind is Arrangement.TEE or (kind is Arrangement.MIXED and rng.uniform() < 0.5):
        stem = _chain(rng, highest, int(rng.integers(1, 4)), used)
        return tee(first, stem, at, angle, tile_mm, gap_mm=gap).tiles
    return line(first, at, angle, tile_mm, gap_mm=gap).tiles


def _facedown(
    rng: np.random.Generator, scene: Scene, view: Points, up: Sequence[SeenTile]
) -> tuple[FaceDownTile, ...]:
    """A few tiles face down, clear of the face-up ones."""
    lo, hi = view.min(axis=0), view.max(axis=0)
    area = (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))
    backs = scattered([(0, 1)] * int(rng.integers(1, 5)), area, rng, scene.tile_mm, taken=up)
    out = []
    for t in backs:
        if _inside(view, corners(t, scene.tile_mm)):
            angle = math.degrees(math.atan2(t.yb - t.ya, t.xb - t.xa))
            out.append(FaceDownTile(t.centre[0], t.centre[1], angle))
    return tuple(out)


def _hand(rng: np.random.Generator, cam: Camera, tiles: Sequence[SeenTile]) -> Hand:
    """A hand reaching in from an edge towards one of the tiles."""
    target = tiles[int(rng.integers(len(tiles)))]
    tip = cam.mm_to_px(np.array(target.centre)) + rng.normal(0, 20, 2)
    w, h = cam.width, cam.height
    side = int(rng.integers(4))
    t = float(rng.uniform(0.1, 0.9))
    entry = ((t * w, -40.0), (w + 40.0, t * h), (t * w, h + 40.0), (-40.0, t * h))[side]
    skin = (int(rng.integers(40, 160)), int(rng.integers(60, 190)), int(rng.integers(90, 230)))
    return Hand((float(tip[0]), float(tip[1])), entry, skin=skin, blur_px=float(rng.uniform(0, 8)))


def _cast(image: Image, rng: np.random.Generator) -> Image:
    """A colour cast the camera's white balance left (each channel 0.88-1.12)."""
    gains = rng.uniform(0.88, 1.12, 3).astype(np.float32)
    out = np.clip(image.astype(np.float32) * gains, 0, 255)
    return np.asarray(out, dtype=np.uint8)
