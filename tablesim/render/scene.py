"""What the renderer draws and what it reports: scene, camera and ground truth.

Scene positions are table millimetres (origin at marker 0's centre, x right, y down).
A face-up tile's coordinates are where its top face lies as the camera sees it through
the table-plane homography, so the ground truth and a calibrated reading agree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from engine.surface import SeenTile, Snapshot
from tablesim.errors import RenderError
from tablesim.render.pinhole import FIELD_OF_VIEW_DEG, tilted_homography
from tablesim.render.props import Prop
from tablesim.render.styles import BGR
from vision.calibration.aruco_markers import DEFAULT_MARKER_MM

Point = tuple[float, float]
Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class FaceDownTile:
    """A tile lying face down: its centre in mm and its long axis' angle in degrees
    (0 = along x, clockwise on screen)."""

    x: float
    y: float
    angle_deg: float = 0.0


@dataclass(frozen=True, slots=True)
class Scene:
    """The table at one moment.

    `size_mm` is the play area (W, H) whose corners are the marker centres; the table
    surface reaches `margin_mm` beyond it on every side. `tile_mm` is a tile's
    (length, width), 48 x 24 mm by default; `thickness_mm` its height. `props` are
    things on the table that are not tiles (`tablesim.render.props`: round game
    stones, a cup), drawn over the table after the tiles.
    """

    tiles: tuple[SeenTile, ...] = ()
    facedown: tuple[FaceDownTile, ...] = ()
    size_mm: tuple[float, float] = (900.0, 600.0)
    tile_mm: tuple[float, float] = (48.0, 24.0)
    thickness_mm: float = 7.0
    markers: bool = True
    marker_mm: float = DEFAULT_MARKER_MM
    margin_mm: float = 60.0
    props: tuple[Prop, ...] = ()

    def __post_init__(self) -> None:
        w, h = self.size_mm
        if not (w > 0 and h > 0):
            raise RenderError(f"play area {w}x{h} mm: both sides must be positive")
        if self.markers and self.margin_mm < 0.8 * self.marker_mm:
            raise RenderError(
                f"a {self.marker_mm:g} mm marker needs a margin of at least "
                f"{0.8 * self.marker_mm:g} mm around the play area"
            )

    def with_tiles(self, tiles: tuple[SeenTile, ...] | list[SeenTile]) -> Scene:
        """The same table with other face-up tiles."""
        return replace(self, tiles=tuple(tiles))

    @property
    def surface_rect_mm(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of the table surface."""
        m = self.margin_mm
        return (-m, -m, self.size_mm[0] + m, self.size_mm[1] + m)


@dataclass(frozen=True, slots=True)
class Camera:
    """A camera looking down at the table: resolution and the table-mm -> pixel
    homography (row-major, 9 numbers). `height_mm` is the lens' height above the table,
    used only to show the tiles' sides."""

    width: int
    height: int
    homography: tuple[float, ...]
    height_mm: float = 1000.0

    @classmethod
    def overhead(
        cls,
        size_mm: tuple[float, float] = (900.0, 600.0),
        resolution: tuple[int, int] = (1280, 960),
        *,
        margin_mm: float = 60.0,
        keystone: float = 0.04,
        rotation_deg: float = 1.5,
        fill: float = 0.94,
    ) -> Camera:
        """A camera framing the play area plus `margin_mm`, slightly tilted.

        `keystone` shrinks the far (top) edge by that fraction (perspective);
        `rotation_deg` turns the table in the image (90 puts a landscape table on a
        portrait sensor); `fill` is the share of the image the table spans along its
        tighter direction.
        """
        rw, rh = resolution
        w, h = size_mm
        tw, th = w + 2 * margin_mm, h + 2 * margin_mm
        a = math.radians(rotation_deg)
        bw = abs(tw * math.cos(a)) + abs(th * math.sin(a))  # the turned table's bounding box
        bh = abs(tw * math.sin(a)) + abs(th * math.cos(a))
        scale = fill * min(rw / bw, rh / bh)
        half_w, half_h = tw * scale / 2, th * scale / 2
        k = keystone * half_w
        quad = np.array(
            [[-half_w + k, -half_h], [half_w - k, -half_h], [half_w, half_h], [-half_w, half_h]]
        )
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        quad = quad @ rot.T + np.array([rw / 2, rh / 2])
        table = np.array(
            [
                [-margin_mm, -margin_mm],
                [w + margin_mm, -margin_mm],
                [w + margin_mm, h + margin_mm],
                [-margin_mm, h + margin_mm],
            ]
        )
        hom = cv2.getPerspectiveTransform(table.astype(np.float32), quad.astype(np.float32))
        return cls(rw, rh, tuple(float(v) for v in np.asarray(hom, dtype=np.float64).ravel()))

    @classmethod
    def over(
        cls,
        centre_mm: Point,
        px_per_mm: float,
        resolution: tuple[int, int] = (640, 480),
        *,
        rotation_deg: float = 0.0,
        keystone: float = 0.0,
        fov_deg: float = FIELD_OF_VIEW_DEG,
    ) -> Camera:
        """A pinhole camera whose frame's centre shows `centre_mm` at `px_per_mm`
        (across the frame), tilted so that the frame's top sees the table `keystone`
        smaller than its foot (near tiles look bigger than far ones, and foreshortened
        along the tilt), the table turned `rotation_deg` (clockwise on screen), through
        a lens of `fov_deg` vertical field of view (a narrower one stands farther off
        and shows less of the tiles' sides). For close-ups and scenes of any size,
        unlike `overhead`, which frames a whole table (`tablesim.render.pinhole`)."""
        hom, height = tilted_homography(
            centre_mm,
            px_per_mm,
            resolution,
            rotation_deg=rotation_deg,
            keystone=keystone,
            fov_deg=fov_deg,
        )
        width, tall = resolution
        return cls(width, tall, tuple(float(v) for v in hom.ravel()), height_mm=height)

    def px_to_mm(self, points: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """Pixels to table mm; shape (..., 2) in, the same shape out."""
        pts = np.asarray(points, dtype=np.float64)
        flat = pts.reshape(-1, 2)
        m = np.linalg.inv(self.matrix)
        hom = flat @ m[:, :2].T + m[:, 2]
        out: npt.NDArray[np.float64] = (hom[:, :2] / hom[:, 2:3]).reshape(pts.shape)
        return out

    @property
    def matrix(self) -> Matrix:
        return np.array(self.homography, dtype=np.float64).reshape(3, 3)

    def mm_to_px(self, points: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """Table mm to pixels; shape (..., 2) in, the same shape out."""
        pts = np.asarray(points, dtype=np.float64)
        flat = pts.reshape(-1, 2)
        m = self.matrix
        hom = flat @ m[:, :2].T + m[:, 2]
        out: npt.NDArray[np.float64] = (hom[:, :2] / hom[:, 2:3]).reshape(pts.shape)
        return out

    def px_per_mm(self, at_mm: Point) -> float:
        """The image scale near a table point."""
        x, y = at_mm
        p = self.mm_to_px([[x, y], [x + 1, y], [x, y + 1]])
        return float(np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 2

    def centre_mm(self) -> Point:
        """The table point under the image centre (the camera's foot, near enough)."""
        inv = np.linalg.inv(self.matrix)
        v = inv @ np.array([self.width / 2, self.height / 2, 1.0])
        return (float(v[0] / v[2]), float(v[1] / v[2]))


@dataclass(frozen=True, slots=True)
class Hand:
    """A hand reaching over the table, in image pixels: the arm comes in through
    `entry` (at or beyond the frame edge) and the fingertips are at `tip`.
    `blur_px` smears it along the arm, as a moving hand is smeared in one exposure."""

    tip: Point
    entry: Point
    skin: BGR = (120, 150, 200)
    sleeve: BGR = (110, 60, 40)
    blur_px: float = 0.0


@dataclass(frozen=True, slots=True)
class TileTruth:
    """Where a face-up tile is drawn, in pixels, and in which colours.

    `corners_px` is the tile's rectangle (without its rounding), in order around it:
    a corner at half `b`'s end, the two at half `a`'s end, the other at `b`'s. The
    colours are the set's, as drawn before light and sensor (each face is drawn up to
    3 % lighter or darker than `face`);
    `spinner_px` is the pin at the divider's centre, which is not a pip (None: no pin).
    """

    tile: SeenTile
    a_px: Point
    b_px: Point
    pips_a_px: tuple[Point, ...]
    pips_b_px: tuple[Point, ...]
    corners_px: tuple[Point, ...]
    occluded: bool = False  # a hand covers part of it
    face: BGR = (0, 0, 0)
    pip_colour_a: BGR = (0, 0, 0)
    pip_colour_b: BGR = (0, 0, 0)
    spinner_px: Point | None = None

    @property
    def centre_px(self) -> Point:
        return ((self.a_px[0] + self.b_px[0]) / 2, (self.a_px[1] + self.b_px[1]) / 2)


@dataclass(frozen=True, slots=True)
class FaceDownTruth:
    tile: FaceDownTile
    centre_px: Point
    corners_px: tuple[Point, ...]
    occluded: bool = False


@dataclass(frozen=True, slots=True)
class MarkerTruth:
    marker_id: int
    centre_px: Point
    corners_px: tuple[Point, ...]  # the black square, table-aligned, clockwise from top-left
    occluded: bool = False


@dataclass(frozen=True, slots=True)
class Truth:
    """The answer to a frame: everything drawn, in pixels."""

    camera: Camera
    tiles: tuple[TileTruth, ...]
    facedown: tuple[FaceDownTruth, ...]
    markers: tuple[MarkerTruth, ...]
    hand_fraction: float = 0.0  # share of the frame covered by a hand and arm

    @property
    def hand_visible(self) -> bool:
        return self.hand_fraction > 0.0

    def snapshot(self, at: float = 0.0) -> Snapshot:
        """What a perfect camera source would report for this frame, in table mm."""
        return Snapshot(tuple(t.tile for t in self.tiles), len(self.facedown), at=at)


@dataclass(frozen=True, slots=True)
class Rendered:
    """A frame (BGR, uint8, height x width x 3) and its ground truth."""

    image: npt.NDArray[np.uint8]
    truth: Truth
