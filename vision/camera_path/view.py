"""What the camera sees, drawn for people: a frame with its reading on it, as a JPEG.

`draw_view(image, parts)` draws on a copy of the frame (shrunk to `MAX_SIDE`): the play
area's outline, the corner markers found (and where a missing one should be), every
tile read outlined with its value beside it, every unsure place ringed, the seat zones,
and a caption with the frame's time. `encode_jpeg` makes the bytes `camera/snapshot`
carries. Nothing here runs unless a snapshot is published.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from engine.surface import Snapshot
from vision.calibration.aruco_markers import MarkerSighting
from vision.calibration.homography import Calibration
from vision.camera_path.outlines import Outlines, Polygon

__all__ = ["MAX_SIDE", "ViewParts", "draw_view", "encode_jpeg"]

Image = npt.NDArray[np.uint8]
MAX_SIDE = 1280  # the snapshot's longer side at most, in pixels
JPEG_QUALITY = 80

# BGR
AREA = (230, 150, 40)
MARKER = (230, 60, 230)
SURE = (60, 210, 60)
DOUBTFUL = (0, 190, 255)
UNSURE = (40, 40, 240)
ZONE = (220, 220, 220)
INK = (20, 20, 20)
CORNERS = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))  # marker ids 0-3, in play-area units


@dataclass(frozen=True, slots=True)
class ViewParts:
    """What to draw. `reading` is in mm on a calibrated frame, else in pixels;
    `tile_width` is a tile's width in the same unit; `zones` seat -> (x0, y0, x1, y1)
    in mm; `caption` the first line written (the frame's time); `markers` the corner
    markers found (a missing one is ringed where it should be), or None when they were
    not looked for on this frame (a history's frame: none drawn)."""

    calibration: Calibration | None
    reading: Snapshot | None
    markers: Sequence[MarkerSighting] | None = ()
    zones: Mapping[int, tuple[float, float, float, float]] = field(default_factory=dict)
    tile_width: float = 24.0
    caption: str = ""


def draw_view(image: Image, parts: ViewParts) -> Image:
    """A copy of the frame (BGR), shrunk to fit `MAX_SIDE`, with `parts` drawn on it."""
    h, w = image.shape[:2]
    k = min(1.0, MAX_SIDE / max(h, w))
    out = image.copy() if k == 1.0 else cv2.resize(image, (round(w * k), round(h * k)))
    if out.ndim == 2:
        out = cv2.cvtColor(out, cv2.COLOR_GRAY2BGR)
    out = np.asarray(out, dtype=np.uint8)
    pen = _Pen(out, k)
    outlines = Outlines(parts.calibration, parts.tile_width)
    if parts.calibration is not None:
        _area(pen, parts.calibration)
        for seat, (x0, y0, x1, y1) in sorted(parts.zones.items()):
            zone = outlines.rectangle(x0, y0, x1, y1)
            pen.polygon(zone, ZONE, dashed=True)
            pen.label(f"seat {seat}", zone[0], ZONE, offset=(6, 18))
    _markers(pen, parts.markers, parts.calibration)
    if parts.reading is not None:
        _reading(pen, parts.reading, outlines)
    pen.caption(parts.caption, parts.reading)
    return out


def encode_jpeg(image: Image, quality: int = JPEG_QUALITY) -> bytes:
    """The image as JPEG bytes."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:  # pragma: no cover - OpenCV encodes any 8-bit BGR image
        raise ValueError("the snapshot could not be encoded as JPEG")
    return bytes(data.tobytes())


def _area(pen: _Pen, calibration: Calibration) -> None:
    pen.polygon(tuple(calibration.corners_px), AREA)


def _markers(
    pen: _Pen, markers: Sequence[MarkerSighting] | None, calibration: Calibration | None
) -> None:
    if markers is None:  # not looked for
        return
    seen = {m.marker_id for m in markers}
    for m in markers:
        pen.polygon(tuple(m.corners), MARKER)
        pen.label(f"marker {m.marker_id}", m.centre, MARKER, offset=(-30, -m.side_px * 0.7))
    if calibration is None:
        return
    for marker_id, corner in enumerate(calibration.corners_px):
        if marker_id not in seen:  # where it should be: a ring and the word
            pen.ring(corner, 26 / pen.k, UNSURE)
            pen.label(f"marker {marker_id} missing", corner, UNSURE, offset=(-60, -34))


def _reading(pen: _Pen, reading: Snapshot, outlines: Outlines) -> None:
    for tile in reading.tiles:
        colour = SURE if tile.confidence >= 0.9 else DOUBTFUL
        face = outlines.tile(tile)
        pen.polygon(face, colour)
        a, b = outlines.points([(tile.xa, tile.ya), (tile.xb, tile.yb)])
        pen.line((float(a[0]), float(a[1])), (float(b[0]), float(b[1])), colour)
        at, up = _beside(face)
        pen.tag(f"{tile.a}-{tile.b}", at, colour, up=up)
    for spot in reading.unsure:
        ((x, y),) = outlines.points([(spot.x, spot.y)])
        radius = outlines.radius_px((spot.x, spot.y), outlines.tile_width * 1.1)
        pen.ring((float(x), float(y)), radius, UNSURE)
        pen.label("?", (float(x), float(y)), UNSURE, offset=(-6, 8))


def _beside(face: Polygon) -> tuple[tuple[float, float], bool]:
    """Where a tile's value goes: above a tile lying across the frame (True), left of
    one lying up and down (False): the middle of that side of its outline."""
    pts = np.asarray(face, dtype=np.float64)
    sides = [(pts[i] + pts[(i + 1) % 4]) / 2 for i in range(4)]
    wide = abs(pts[1][0] - pts[0][0]) + abs(pts[2][0] - pts[1][0]) >= abs(
        pts[1][1] - pts[0][1]
    ) + abs(pts[2][1] - pts[1][1])
    mid = min(sides, key=lambda p: p[1]) if wide else min(sides, key=lambda p: p[0])
    return (float(mid[0]), float(mid[1])), bool(wide)


class _Pen:
    """Draws in frame pixels on an image shrunk by `k`."""

    def __init__(self, image: Image, k: float) -> None:
        self.image = image
        self.k = k
        self.thick = max(2, round(image.shape[1] / 500))
        self.font = max(0.5, image.shape[1] / 1600)

    def _pt(self, p: tuple[float, float]) -> tuple[int, int]:
        return (round(p[0] * self.k), round(p[1] * self.k))

    def polygon(self, points: Polygon, colour: tuple[int, int, int], dashed: bool = False) -> None:
        pts = [self._pt(p) for p in points]
        if not dashed:
            cv2.polylines(
                self.image, [np.asarray(pts, np.int32)], True, colour, self.thick, cv2.LINE_AA
            )
            return
        for a, b in zip(pts, pts[1:] + pts[:1], strict=True):
            self._dashes(a, b, colour)

    def _dashes(self, a: tuple[int, int], b: tuple[int, int], colour: tuple[int, int, int]) -> None:
        length = float(np.hypot(b[0] - a[0], b[1] - a[1]))
        steps = max(1, int(length // 12))
        for i in range(0, steps, 2):
            s, e = i / steps, min(1.0, (i + 1) / steps)
            p = (round(a[0] + (b[0] - a[0]) * s), round(a[1] + (b[1] - a[1]) * s))
            q = (round(a[0] + (b[0] - a[0]) * e), round(a[1] + (b[1] - a[1]) * e))
            cv2.line(self.image, p, q, colour, self.thick, cv2.LINE_AA)

    def line(
        self, a: tuple[float, float], b: tuple[float, float], colour: tuple[int, int, int]
    ) -> None:
        cv2.line(self.image, self._pt(a), self._pt(b), colour, max(1, self.thick - 1), cv2.LINE_AA)

    def ring(
        self, centre: tuple[float, float], radius: float, colour: tuple[int, int, int]
    ) -> None:
        r = max(6, round(radius * self.k))
        cv2.circle(self.image, self._pt(centre), r, colour, self.thick + 1, cv2.LINE_AA)

    def label(
        self,
        text: str,
        at: tuple[float, float],
        colour: tuple[int, int, int],
        offset: tuple[float, float] = (0, 0),
    ) -> None:
        x, y = self._pt(at)
        org = (round(x + offset[0]), round(y + offset[1]))
        self._text(text, org, colour, self.font)

    def _text(
        self, text: str, org: tuple[int, int], colour: tuple[int, int, int], scale: float
    ) -> None:
        font = cv2.FONT_HERSHEY_SIMPLEX
        cv2.putText(self.image, text, org, font, scale, INK, self.thick + 3, cv2.LINE_AA)
        cv2.putText(self.image, text, org, font, scale, colour, self.thick, cv2.LINE_AA)

    def tag(
        self, text: str, at: tuple[float, float], colour: tuple[int, int, int], *, up: bool
    ) -> None:
        """`text` in `colour` on a dark box just above `at` (frame pixels), or just left
        of it."""
        font, scale = cv2.FONT_HERSHEY_SIMPLEX, self.font * 0.9
        (tw, th), base = cv2.getTextSize(text, font, scale, self.thick)
        x, y = self._pt(at)
        if up:
            x0, y0 = x - tw // 2 - 3, y - th - base - 10
        else:
            x0, y0 = x - tw - 10, y - th // 2 - 4
        cv2.rectangle(self.image, (x0, y0), (x0 + tw + 6, y0 + th + base + 6), INK, cv2.FILLED)
        cv2.putText(
            self.image, text, (x0 + 3, y0 + th + 3), font, scale, colour, self.thick, cv2.LINE_AA
        )

    def caption(self, text: str, reading: Snapshot | None) -> None:
        """The frame's time and what was read, on a dark band along the bottom."""
        told = "not read (the table was moving)"
        if reading is not None:
            told = f"{len(reading.tiles)} tiles read, {len(reading.unsure)} unsure"
        line = f"{text}  {told}" if text else told
        font, scale = cv2.FONT_HERSHEY_SIMPLEX, self.font * 1.1
        (_, th), base = cv2.getTextSize(line, font, scale, self.thick)
        h = self.image.shape[0]
        top = h - th - base - 16
        band = self.image[top:h]
        band[:] = (band * 0.35).astype(np.uint8)
        cv2.putText(
            self.image,
            line,
            (12, h - base - 8),
            font,
            scale,
            (255, 255, 255),
            self.thick,
            cv2.LINE_AA,
        )
