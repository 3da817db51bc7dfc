"""The enrolment mat on the table, filled with a set's tiles, rendered as a camera sees it.

`filled_mat(mat, tile_mm, ...)` lays the mat's pages on the play area (side by side,
each turned a little) and a tile in each slot (off its centre and turned by a little,
either end up), and says what lies in each slot: the slot's tile, another one, the
slot's tile face down, or nothing (`empty`, `swapped`, `face_down`). `render_mat(...)`
draws it: each page is printed as `mat.pdf` prints it (its markers, the slots'
outlines and names, its title; `print_page`), laid flat on the table under the tiles
(`render_frame`'s `underlay`), then seen through the camera.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from engine.surface import SeenTile
from engine.tiles import Tile
from mat import Mat, Page
from mat.markers import MODULES, modules
from tablesim.errors import RenderError
from tablesim.render.draw import render_frame
from tablesim.render.portable import warp
from tablesim.render.scene import Camera, FaceDownTile, Hand, Rendered, Scene
from tablesim.render.styles import RenderStyle
from tablesim.render.tiles import PAPER, Canvas

__all__ = ["MatScene", "PagePlace", "filled_mat", "print_page", "render_mat"]

Image = npt.NDArray[np.uint8]
Point = tuple[float, float]

PRINT_PX_PER_MM: Final = 8.0  # a page is printed this fine, then shrunk to the canvas
INK: Final = (18, 18, 18)
OUTLINE: Final = (110, 110, 110)
PAGE_GAP_MM: Final = 12.0
SIDE_REACH_MM: Final = 20.0


@dataclass(frozen=True, slots=True)
class PagePlace:
    """Where a page lies on the table: its top-left corner in table mm, turned
    `turn_deg` (clockwise on screen) about that corner."""

    page: int  # from 1
    at_mm: Point
    turn_deg: float = 0.0

    def to_table(self, points_mm: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """Page mm to table mm."""
        a = math.radians(self.turn_deg)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        pts = np.asarray(points_mm, dtype=np.float64)
        return np.asarray(pts @ rot.T + np.asarray(self.at_mm), dtype=np.float64)


@dataclass(frozen=True, slots=True)
class MatScene:
    """A filled mat on the table: the scene to render, where its pages lie, and what
    lies in each slot (a tile face up, `face down`, or None: empty), by the slot's tile."""

    mat: Mat
    places: tuple[PagePlace, ...]
    scene: Scene
    in_slot: Mapping[Tile, Tile | str | None] = field(default_factory=dict)


def _places(
    mat: Mat, size_mm: tuple[float, float], rng: random.Random, turn: float
) -> list[PagePlace]:
    w, h = mat.size_mm
    # pages may reach a little past the play area's sides (the camera sees its margin)
    room = size_mm[0] + 2 * SIDE_REACH_MM + PAGE_GAP_MM
    cols = max(1, min(len(mat.pages), int(room // (w + PAGE_GAP_MM))))
    rows = math.ceil(len(mat.pages) / cols)
    total_w = cols * w + (cols - 1) * PAGE_GAP_MM
    total_h = rows * h + (rows - 1) * PAGE_GAP_MM
    left, top = (size_mm[0] - total_w) / 2, (size_mm[1] - total_h) / 2
    out = []
    for k, page in enumerate(mat.pages):
        r, c = divmod(k, cols)
        deg = rng.uniform(-turn, turn)
        # turned about its centre: the corner moves so the centre stays in the grid
        centre = np.array(
            [left + c * (w + PAGE_GAP_MM) + w / 2, top + r * (h + PAGE_GAP_MM) + h / 2]
        )
        a = math.radians(deg)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        corner = centre - rot @ np.array([w / 2, h / 2])
        out.append(PagePlace(page.number, (float(corner[0]), float(corner[1])), deg))
    return out


def filled_mat(
    mat: Mat,
    tile_mm: tuple[float, float],
    *,
    seed: int = 0,
    size_mm: tuple[float, float] = (900.0, 600.0),
    empty: Iterable[Tile] = (),
    swapped: Iterable[tuple[Tile, Tile]] = (),
    face_down: Iterable[Tile] = (),
    page_turn_deg: float = 4.0,
    jitter_mm: float = 1.5,
    tile_turn_deg: float = 3.0,
) -> MatScene:
    """The mat's pages on a play area of `size_mm`, a tile of `tile_mm` (length, width)
    in every slot, off its centre by up to `jitter_mm` and turned by up to
    `tile_turn_deg`, either end up; but nothing in the slots of `empty`, each pair of
    `swapped` in each other's slot, and the tiles of `face_down` face down."""
    rng = random.Random(seed)
    places = _places(mat, size_mm, rng, page_turn_deg)
    by_page = {p.page: p for p in places}
    gone = set(empty)
    down = set(face_down)
    lies: dict[Tile, Tile] = {s.tile: s.tile for s in mat.slots}
    for one, other in swapped:
        lies[one], lies[other] = other, one
    length = tile_mm[0]
    if length > 60.0 or tile_mm[1] > 32.0:
        raise RenderError(f"a {tile_mm[0]:g} x {tile_mm[1]:g} mm tile does not fit a mat's slot")
    tiles: list[SeenTile] = []
    backs: list[FaceDownTile] = []
    in_slot: dict[Tile, Tile | str | None] = {}
    for slot in mat.slots:
        if slot.tile in gone:
            in_slot[slot.tile] = None
            continue
        place = by_page[slot.page]
        cx, cy = slot.centre_mm
        cx += rng.uniform(-jitter_mm, jitter_mm)
        cy += rng.uniform(-jitter_mm, jitter_mm)
        a = math.radians(90.0 + rng.uniform(-tile_turn_deg, tile_turn_deg))
        ux, uy = math.cos(a) * length / 4, math.sin(a) * length / 4
        ends = place.to_table([[cx - ux, cy - uy], [cx + ux, cy + uy]])
        if slot.tile in down:
            mid = ends.mean(axis=0)
            d = ends[1] - ends[0]
            angle = math.degrees(math.atan2(float(d[1]), float(d[0])))
            backs.append(FaceDownTile(float(mid[0]), float(mid[1]), angle))
            in_slot[slot.tile] = "face down"
            continue
        tile = lies[slot.tile]
        hi, lo = tile.high, tile.low
        a_pips, b_pips = (hi, lo) if rng.random() < 0.5 else (lo, hi)
        xa, ya, xb, yb = (float(v) for v in ends.ravel())
        tiles.append(SeenTile(a_pips, b_pips, xa, ya, xb, yb))
        in_slot[slot.tile] = tile
    scene = Scene(tuple(tiles), tuple(backs), size_mm=size_mm, tile_mm=tile_mm)
    return MatScene(mat, tuple(places), scene, in_slot)


def _text(img: Image, text: str, centre: Point, height_mm: float, k: float, bold: bool) -> None:
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = height_mm * k / 22.0
    thick = max(1, round(scale * (2.6 if bold else 1.6)))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    origin = (round(centre[0] * k - tw / 2), round(centre[1] * k + th / 2))
    cv2.putText(img, text, origin, font, scale, INK, thick, cv2.LINE_AA)


def print_page(mat: Mat, page: Page, px_per_mm: float = PRINT_PX_PER_MM) -> Image:
    """One page as printed (BGR), `px_per_mm` fine: what `mat.pdf` draws."""
    w, h = mat.size_mm
    k = px_per_mm
    img = np.full((round(h * k), round(w * k), 3), PAPER, dtype=np.uint8)
    for marker in page.markers:
        (x0, y0), _, (x1, _), _ = marker.corners_mm
        cell = (x1 - x0) / MODULES
        for r, row in enumerate(modules(marker.marker_id)):
            for c, black in enumerate(row):
                if black:
                    p0 = (round((x0 + c * cell) * k), round((y0 + r * cell) * k))
                    p1 = (
                        round((x0 + (c + 1) * cell) * k) - 1,
                        round((y0 + (r + 1) * cell) * k) - 1,
                    )
                    cv2.rectangle(img, p0, p1, (0, 0, 0), -1)
    thick = max(1, round(0.4 * k))
    for slot in page.slots:
        x0, y0, x1, y1 = slot.rect_mm
        cv2.rectangle(img, (round(x0 * k), round(y0 * k)), (round(x1 * k), round(y1 * k)),
                      OUTLINE, thick)  # fmt: skip
        _text(img, slot.tile.text, slot.label_mm, 3.8, k, bold=True)
    band = 8.0 + 12.0
    title = f"Enrolment mat: {mat.domino_set} set, page {page.number} of {len(mat.pages)}"
    _text(img, title, (w / 2, band - 4), 3.6, k, bold=True)
    _text(
        img, "Lay each tile face up in its slot, either end up.", (w / 2, band + 1.5), 2.4, k, False
    )
    _text(img, f"domino-table: {mat.domino_set}, {mat.paper}", (w / 2, h - band + 4), 2.0, k, False)
    return img


def _shrunk(img: Image, factor: int) -> Image:
    """`img` `factor` times smaller, each pixel the rounded mean of its block (the same
    bytes on every OpenCV: integer sums in NumPy)."""
    h, w = (img.shape[0] // factor) * factor, (img.shape[1] // factor) * factor
    blocks = img[:h, :w].reshape(h // factor, factor, w // factor, factor, 3).astype(np.uint32)
    total = blocks.sum(axis=(1, 3))
    n = factor * factor
    return np.asarray((total + n // 2) // n, dtype=np.uint8)


def lay_pages(table: Image, canvas: Canvas, mat: Mat, places: Iterable[PagePlace]) -> None:
    """Each page printed and laid on the table's canvas where `places` puts it."""
    factor = max(1, round(PRINT_PX_PER_MM / canvas.scale))
    k = canvas.scale * factor
    for place in places:
        page = mat.pages[place.page - 1]
        printed = _shrunk(print_page(mat, page, k), factor)
        s = canvas.scale
        # page px -> page mm -> table mm -> canvas px
        a = math.radians(place.turn_deg)
        ca, sa = math.cos(a), math.sin(a)
        ox = (place.at_mm[0] - canvas.origin[0]) * s
        oy = (place.at_mm[1] - canvas.origin[1]) * s
        pw, ph = mat.size_mm
        corners = place.to_table(np.array([[0.0, 0.0], [pw, 0.0], [pw, ph], [0.0, ph]]))
        px = canvas.px(corners)
        x0, y0 = (max(0, math.floor(v) - 2) for v in px.min(axis=0))
        x1 = min(table.shape[1], math.ceil(float(px[:, 0].max())) + 3)
        y1 = min(table.shape[0], math.ceil(float(px[:, 1].max())) + 3)
        if x1 <= x0 or y1 <= y0:
            raise RenderError(f"page {place.page} of the mat lies off the table")
        # a printed pixel's centre (i + 0.5) / s mm; the warp maps pixel centres
        m = np.array(
            [
                [ca, -sa, ox - x0 + 0.5 * (ca - sa) - 0.5],
                [sa, ca, oy - y0 + 0.5 * (sa + ca) - 0.5],
                [0.0, 0.0, 1.0],
            ]
        )
        roi = table[y0:y1, x0:x1]
        warp(printed, m, (x1 - x0, y1 - y0), dst=roi)


def render_mat(
    filled: MatScene,
    style: RenderStyle | None = None,
    *,
    camera: Camera | None = None,
    seed: int = 0,
    frame: int = 0,
    hand: Hand | None = None,
    resolution: tuple[int, int] = (1280, 960),
) -> Rendered:
    """A camera's frame of the filled mat on the table (the play area's own corner
    markers in view), with its ground truth."""
    scene = filled.scene
    cam = camera or Camera.overhead(scene.size_mm, resolution, margin_mm=scene.margin_mm)

    def pages(table: Image, canvas: Canvas) -> None:
        lay_pages(table, canvas, filled.mat, filled.places)

    return render_frame(scene, cam, style, seed, frame=frame, hand=hand, underlay=pages)
