"""The snapshot drawn: the play area, the markers found (and a missing one's place),
every tile read outlined in its colour, unsure places ringed, seat zones, the caption;
shrunk to 1280 px at most, as a JPEG that decodes to the drawing."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from engine.surface import SeenTile, Snapshot, Unsure
from tablesim.render import Camera, RenderStyle, Scene, TileStyle, render_frame
from vision.calibration.homography import calibrate_markers
from vision.camera_path.outlines import Outlines
from vision.camera_path.quality import measure
from vision.camera_path.view import (
    AREA,
    DOUBTFUL,
    MARKER,
    SURE,
    UNSURE,
    ViewParts,
    draw_view,
    encode_jpeg,
)
from vision.detector.results import UnsureReason

OUT = Path(__file__).resolve().parents[3] / "test-output" / "camera"
TILES = (SeenTile(6, 6, 450, 288, 450, 312), SeenTile(6, 3, 574, 300, 598, 300, 0.6))
Image = npt.NDArray[np.uint8]


def near(image: Image, at: tuple[float, float], colour: tuple[int, int, int], r: int = 4) -> bool:
    """Some pixel within `r` of `at` has `colour` (give or take the anti-aliasing)."""
    x, y = round(at[0]), round(at[1])
    patch = image[max(0, y - r) : y + r + 1, max(0, x - r) : x + r + 1].astype(np.int16)
    return bool((np.abs(patch - np.array(colour, np.int16)).max(axis=2) <= 40).any())


def test_the_reading_is_drawn_where_it_lies() -> None:
    scene = Scene(tiles=TILES)
    image = render_frame(scene, None, RenderStyle.clean(TileStyle.IVORY), seed=1).image
    cal = calibrate_markers(image, (900, 600))
    looks = measure(image, calibration=cal)
    reading = Snapshot(TILES, 0, (Unsure(700, 150, UnsureReason.NOT_PIPS),))
    parts = ViewParts(cal, reading, looks.markers[1:], {0: (0, 510, 900, 600)}, 24.0, "12:03:04")
    out = draw_view(image, parts)
    OUT.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(OUT / "view-drawn.png"), out)
    outlines = Outlines(cal, 24.0)
    for tile, colour in zip(TILES, (SURE, DOUBTFUL), strict=True):
        face = outlines.tile(tile)
        for a, b in zip(face, face[1:] + face[:1], strict=True):  # each side's middle
            assert near(out, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), colour), tile
    ((ux, uy),) = outlines.points([(700, 150)])
    radius = outlines.radius_px((700, 150), 24 * 1.1)
    assert near(out, (ux + radius, uy), UNSURE) and near(out, (ux, uy - radius), UNSURE)
    for m in looks.markers[1:]:  # outlined; marker 0 is left out: its place is ringed
        assert all(near(out, corner, MARKER) for corner in m.corners)
    x0, y0 = cal.corners_px[0]
    assert near(out, (x0 + 26, y0), UNSURE)
    top = (
        (cal.corners_px[0][0] + cal.corners_px[1][0]) / 2,
        (cal.corners_px[0][1] + cal.corners_px[1][1]) / 2,
    )
    assert near(out, top, AREA)
    band = out[-20:, 600:].astype(np.float64)  # the caption's dark band, right of its words
    assert band.mean() < image[-20:, 600:].astype(np.float64).mean() * 0.5


def test_a_large_frame_is_shrunk_and_encoded() -> None:
    camera = Camera.overhead((900, 600), (2048, 1536))
    image = render_frame(Scene(tiles=TILES), camera, RenderStyle(), seed=1).image
    out = draw_view(image, ViewParts(None, None, caption="12:03:04"))
    assert out.shape == (960, 1280, 3)
    decoded = cv2.imdecode(np.frombuffer(encode_jpeg(out), np.uint8), cv2.IMREAD_COLOR)
    assert decoded is not None and decoded.shape == out.shape
    assert float(np.abs(decoded.astype(np.int16) - out).mean()) < 4  # the drawing, not noise
    assert image.shape == (1536, 2048, 3)  # the frame itself is left as it was
