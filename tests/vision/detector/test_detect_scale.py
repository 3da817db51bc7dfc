"""Near and far: tiles read whatever their size in the frame, with no scale given.

A close-up (a phone held over one tile, a camera low over the table) gives tiles of
250-330 px whose dividers and pips are larger than the frame-wide bound on what a
mark may be; before `dark_marks.slight_holes` and `vision.detector.scales`, none of
these frames was read right (a 0-0 with its pips unseen, or nothing).
"""

from __future__ import annotations

import numpy as np
import pytest

from engine.surface import SeenTile
from tablesim.render import Camera, RenderStyle, Scene, Surface, TileStyle, render_frame
from vision.detector.detect import Settings, detect
from vision.detector.planes import Found
from vision.detector.results import FoundTile
from vision.detector.scales import coarser_scales, scaled
from vision.tiles.dark_marks import slight_holes, tile_mask


def _closeup(a: int, b: int, size: tuple[float, float], style: RenderStyle) -> np.ndarray:
    """One tile, crosswise in the middle of a small patch of table that fills the frame."""
    w, h = size
    tile = SeenTile(a, b, w / 2 - 12, h / 2, w / 2 + 12, h / 2)
    scene = Scene(tiles=(tile,), size_mm=size, markers=False, margin_mm=5)
    cam = Camera.overhead(scene.size_mm, (960, 720), margin_mm=5)
    return render_frame(scene, cam, style, seed=1).image


@pytest.mark.parametrize(
    ("tiles", "surface", "pips", "size"),
    [
        (TileStyle.IVORY, Surface.GREEN_FELT, (4, 3), (70.0, 50.0)),
        (TileStyle.IVORY, Surface.WHITE_CLOTH, (0, 2), (70.0, 50.0)),
        (TileStyle.BLACK, Surface.WOOD, (6, 5), (50.0, 40.0)),
        (TileStyle.WOOD, Surface.DARK_GLOSSY, (5, 1), (50.0, 40.0)),
        (TileStyle.COLOURED, Surface.GREEN_FELT, (12, 9), (50.0, 40.0)),
    ],
)
def test_a_tile_filling_much_of_the_frame_is_read(
    tiles: TileStyle, surface: Surface, pips: tuple[int, int], size: tuple[float, float]
) -> None:
    image = _closeup(*pips, size, RenderStyle(tiles=tiles, surface=surface))
    det = detect(image, settings=Settings(tone=None))
    assert [t.pips for t in det.tiles] == [pips], [str(t) for t in det.tiles]
    assert det.tile_width_px > 200


def test_a_divider_large_beside_the_frame_but_slight_beside_its_tile_is_a_mark() -> None:
    tile = np.zeros((200, 300), dtype=np.uint8)
    tile[50:150, 50:250] = 1  # a tile of 100 x 200 px in a frame of 60,000
    tile[97:103, 70:170] = 0  # its divider: 600 px, more than the frame's 1/400
    mask, solid = tile_mask(tile * 200 + 20, tile.size / 400)
    assert not mask[100, 100]  # the divider is no tile material ...
    assert solid[100, 100] == 1  # ... but a hole filled in: a mark on its tile


def test_slight_holes_weighs_each_hole_against_the_material_around_it() -> None:
    tile = np.ones((120, 120), dtype=np.uint8)
    tile[58:62, 20:100] = 0  # a thin line: 320 px in a sea of material
    tile[10:50, 10:50] = 0  # a square the size of much of what is around it
    ys, xs = np.nonzero(tile == 0)
    lab = np.where(ys >= 58, 1, 2).astype(np.int32)
    sizes = np.bincount(lab, minlength=3)
    large = np.array([False, True, True])
    out = slight_holes(tile, ys.astype(np.intp), xs.astype(np.intp), lab, sizes, large)
    assert out.tolist() == [False, True, False]


def test_a_reading_at_a_coarser_scale_is_mapped_back_to_the_frame() -> None:
    tile = FoundTile((3, 4), ((10.0, 20.0), (10.0, 30.0)), 1.0)
    found = Found([tile], [(5.0, 5.0)], [], 10.0, pip=2.0, stray=[(1.0, 2.0)])
    back = scaled(found, 4.0, (100.0, 200.0))
    assert back.tiles[0].px == ((140.0, 280.0), (140.0, 320.0))
    assert back.facedown == [(120.0, 220.0)]
    assert (back.width, back.pip, back.stray) == (40.0, 8.0, [(104.0, 208.0)])


def test_coarser_scales_bring_wide_tiles_near_fifty_pixels() -> None:
    assert coarser_scales((720, 960), 266.0) == [2]  # 4 would leave 180 px
    assert coarser_scales((1600, 900), 270.0) == [4]
    assert coarser_scales((1600, 900), 0.0) == [2, 4]
    assert coarser_scales((300, 300), 0.0) == []
