"""The corner markers in the searched area must not set the tile scale.

The camera path searches the area between the corner markers grown by 50 mm, so
the markers' printed squares on their white paper are always in view. On white
cloth (a table as light as the tiles) they set the split between face and mark
contrast so high that a coloured set's dividers in daylight were barely marks: the
first search agreed on a width of about 61 px (twice the real one) from a few
stray lines, read no tile at all, and the passes for small, faint dividers never
ran (they ran only below 40 px). Now a first search that reads nothing runs them
too. Coloured set in daylight, seeds 2 and 7, read no tile before; the other cases
pin that nothing else changes.
"""

from __future__ import annotations

import pytest

from tablesim.render import Camera, Lighting, RenderStyle, Surface, TileStyle, render_frame
from tests.vision.detector.test_detect_light_blank import _scene, _score
from tests.vision.scoring import camera_area
from vision.detector.detect import Settings, detect
from vision.tiles.dark_marks import Tone


@pytest.mark.parametrize(
    ("tiles", "lighting", "seed"),
    [
        (TileStyle.COLOURED, Lighting.DAYLIGHT, 2),
        (TileStyle.COLOURED, Lighting.DAYLIGHT, 7),
        (TileStyle.COLOURED, Lighting.LAMP, 5),
        (TileStyle.IVORY, Lighting.DAYLIGHT, 2),
    ],
)
def test_tiles_are_read_with_the_markers_in_view(
    tiles: TileStyle, lighting: Lighting, seed: int
) -> None:
    style = RenderStyle(tiles=tiles, surface=Surface.WHITE_CLOTH, lighting=lighting)
    scene = _scene(3.1 * seed, 1.7 * seed)
    cam = Camera.overhead(scene.size_mm, margin_mm=scene.margin_mm)
    out = render_frame(scene, cam, style, seed, frame=3)
    xs = [m.centre_px[0] for m in out.truth.markers]
    ys = [m.centre_px[1] for m in out.truth.markers]
    area = camera_area(out, scene.size_mm[0])
    # the markers lie inside the searched area
    assert all(area[0] < x < area[2] and area[1] < y < area[3] for x, y in zip(xs, ys, strict=True))
    det = detect(out.image, area, Settings(tone=Tone.LIGHT))
    right, wrong, missed = _score(det, out.truth)
    assert det.tile_width_px < 40.0  # the tiles' own width, not twice it
    assert wrong == 0
    assert not missed, f"missed {missed}"
    assert right == len(out.truth.tiles)
