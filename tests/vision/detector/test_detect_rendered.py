"""Detection on rendered frames of laid-out games, looks the detector once failed on.

The scenes are random legal hands laid out by the engine's Placer (`tablesim.scenes.
sim_game`), rendered by `tablesim.render` with the answer in pixels. Each test pins how
many tiles are read right (pips and both half centres within 8 px) and that none is
read wrong.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine.surface import SeenTile
from tablesim.render import Camera, Lighting, RenderStyle, Scene, Surface, TileStyle, render_frame
from tablesim.render.scene import Truth
from tablesim.scenes import sim_game
from tests.vision.scoring import score
from vision.detector.detect import Detection, Settings, detect
from vision.detector.results import UnsureReason
from vision.detector.settings import SearchSettings
from vision.tiles.dark_marks import Tone, threshold_surface, tone_image


def _frame(seed: int, style: RenderStyle) -> tuple[np.ndarray, Truth]:
    game = sim_game("straight-block", 2, seed=seed, plays=10)
    scene = Scene().with_tiles(tuple(game.scenes[-1]))
    cam = Camera.overhead(scene.size_mm, margin_mm=scene.margin_mm)
    out = render_frame(scene, cam, style, seed, frame=3)
    return out.image, out.truth


def _score(det: Detection, truth: Truth) -> tuple[int, int]:
    """(tiles read right, tiles found in a true tile's place with the wrong pips)."""
    scored = score(det, truth)
    return len(scored.right), scored.wrong


def test_wooden_tiles_on_white_cloth_are_darker_than_the_table_and_still_found() -> None:
    style = RenderStyle(tiles=TileStyle.WOOD, surface=Surface.WHITE_CLOTH, lighting=Lighting.LAMP)
    image, truth = _frame(3, style)
    det = detect(image, settings=Settings(tone=Tone.GREY))
    right, wrong = _score(det, truth)
    assert wrong == 0
    assert right >= 6, f"{right} of {len(truth.tiles)} read right"


def test_a_glare_spot_beside_the_tiles_is_not_tile_material() -> None:
    style = RenderStyle.harsh(TileStyle.IVORY)
    image, truth = _frame(13, style)
    img = tone_image(image, Tone.LIGHT)
    away = np.ones(img.shape, dtype=bool)  # the table: away from tiles and markers
    boxes = [(t.corners_px, 3) for t in truth.tiles] + [(m.corners_px, 30) for m in truth.markers]
    for corners, grow in boxes:
        x0, y0 = np.floor(np.min(corners, axis=0)).astype(int) - grow
        x1, y1 = np.ceil(np.max(corners, axis=0)).astype(int) + grow
        away[max(0, y0) : y1 + 1, max(0, x0) : x1 + 1] = False
    otsu, _ = cv2.threshold(img, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    # the glare makes a good part of the table brighter than the frame's one Otsu
    # threshold; the threshold surface takes hardly any of it for tile material
    assert (img > otsu)[away].mean() > 0.02
    assert (img > threshold_surface(img))[away].mean() < 0.005
    det = detect(image, settings=Settings(tone=Tone.LIGHT))
    right, wrong = _score(det, truth)
    assert wrong == 0
    assert right >= 3, f"{right} of {len(truth.tiles)} read right"


@pytest.mark.parametrize("tiles", [TileStyle.IVORY, TileStyle.BLACK])
def test_harsh_frames_read_no_tile_wrong(tiles: TileStyle) -> None:
    tone = Tone.LIGHT if tiles is TileStyle.IVORY else Tone.DARK
    image, truth = _frame(13, RenderStyle.harsh(tiles))
    _, wrong = _score(detect(image, settings=Settings(tone=tone)), truth)
    assert wrong == 0


def _extra(det: Detection, truth: Truth, px: float = 8.0) -> int:
    """Tiles reported where no true tile lies (both half centres within `px`)."""
    extra = 0
    for f in det.tiles:
        fa, fb = np.asarray(f.px[0]), np.asarray(f.px[1])
        if not any(
            (np.hypot(*(fa - t.a_px)) <= px and np.hypot(*(fb - t.b_px)) <= px)
            or (np.hypot(*(fa - t.b_px)) <= px and np.hypot(*(fb - t.a_px)) <= px)
            for t in truth.tiles
        ):
            extra += 1
    return extra


@pytest.mark.parametrize(("seed", "least", "unsure_left"), [(10, 4, True), (16, 9, False)])
def test_a_pale_pip_under_glare_is_unsure_never_a_missing_pip(
    seed: int, least: int, unsure_left: bool
) -> None:
    # The coloured set's 1 is a pale green pip; under the harsh lamp's glare it falls
    # short of the frame's mark threshold, and the half used to read as a blank (a
    # 5-1 accepted as a 5-0 in a rendered game). Seen at half the contrast it is
    # still a round mark of a pip's size: the tile is unsure, unless the half's own
    # threshold reads surely as many pips as that faint look saw (seed 16: 6 of 10
    # tiles read before, 9 now; seed 10: 3 of 9, then 4, the rest still unsure).
    image, truth = _frame(seed, RenderStyle.harsh(TileStyle.COLOURED))
    det = detect(image, settings=Settings(tone=Tone.LIGHT))
    right, wrong = _score(det, truth)
    assert wrong == 0
    assert _extra(det, truth) == 0
    assert right >= least, f"{right} of {len(truth.tiles)} read right"
    faint = any(u.reason == UnsureReason.FAINT_MARK for u in det.unsure)
    assert faint == unsure_left


@pytest.mark.parametrize("seed", [1, 6, 8])
def test_a_tile_end_on_white_cloth_is_no_divider(seed: int) -> None:
    # Ivory on white cloth under the lamp: the straight shadow line at a tile's end
    # or side passed for a divider in the third (thin-line) divider pass, and a
    # "tile" across it read the real half and a blank half of cloth.
    style = RenderStyle(tiles=TileStyle.IVORY, surface=Surface.WHITE_CLOTH, lighting=Lighting.LAMP)
    image, truth = _frame(seed, style)
    det = detect(image, settings=Settings(tone=Tone.LIGHT))
    right, wrong = _score(det, truth)
    assert wrong == 0
    assert _extra(det, truth) == 0
    assert right >= len(truth.tiles) - 1, f"{right} of {len(truth.tiles)} read right"


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "blanks_in_grain"), [(2, 0), (6, 1), (7, 1)])
def test_no_blank_tile_in_a_wooden_tables_grain(seed: int, blanks_in_grain: int) -> None:
    # Issue 26 point 1: a stretch of wood between two grain lines, darker by a step
    # on three sides, passed for a blank tile (0-0, confidence 1: 1, 2 and 5 of them
    # on seeds 2, 6 and 7). Three darker sides now need an even face or a strong
    # outline. Seeds 6 and 7 keep one each: beside the table's dark edge, two sides
    # clearly darker and two faint steps of grain pass as a blank's faint rims.
    style = RenderStyle(tiles=TileStyle.WOOD, surface=Surface.WOOD, lighting=Lighting.LAMP)
    image, truth = _frame(seed, style)
    det = detect(image, settings=Settings(tone=Tone.GREY))
    assert _extra(det, truth) <= blanks_in_grain


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "least"), [(2, 9), (6, 10), (7, 10)])
def test_wooden_tiles_on_a_wooden_table_read_where_another_pass_placed_them_better(
    seed: int, least: int
) -> None:
    # On a wooden table, grain lines shift the tile width the first passes agree on;
    # their tiles then read lop-sided (pips in no domino's layout) and some read
    # wrong. A tile of another divider pass in the same place that reads as a domino
    # takes such a tile's place.
    style = RenderStyle(tiles=TileStyle.WOOD, surface=Surface.WOOD, lighting=Lighting.LAMP)
    image, truth = _frame(seed, style)
    right, wrong = _score(detect(image, settings=Settings(tone=Tone.GREY)), truth)
    assert wrong == 0
    assert right >= least, f"{right} of {len(truth.tiles)} read right"


@pytest.mark.parametrize(
    ("tiles", "tone", "seed", "lead"),
    [
        (TileStyle.IVORY, Tone.LIGHT, 13, (3, 3)),
        (TileStyle.IVORY, Tone.LIGHT, 15, (6, 6)),
        (TileStyle.WOOD, Tone.GREY, 15, (5, 5)),
        (TileStyle.BLACK, Tone.DARK, 16, (5, 5)),
    ],
)
def test_a_lead_whose_divider_does_not_show_is_unsure_not_absent(
    tiles: TileStyle, tone: Tone, seed: int, lead: tuple[int, int]
) -> None:
    # Harsh light: the lead lies under the glare spot in the table's centre and its
    # divider does not show, so no tile is found there; its pips still do. A table
    # that looks empty would let the next tile read pass for the lead: the place is
    # reported unsure instead (UNREADABLE once it stands). So it is where the tiles
    # are not read by their pips' grid (the calibrated camera path, which reads them
    # by the tile's known size instead: `vision.camera_path.known_size`) ...
    scene = Scene().with_tiles((SeenTile(lead[0], lead[1], 450, 288, 450, 312),))
    cam = Camera.overhead(scene.size_mm, margin_mm=scene.margin_mm)
    out = render_frame(scene, cam, RenderStyle.harsh(tiles), seed, frame=3)
    no_grid = Settings(tone=tone, search=SearchSettings(grid_boxes=0))
    det = detect(out.image, settings=no_grid)
    cx, cy = out.truth.tiles[0].centre_px
    assert det.tiles == ()
    assert [u.reason for u in det.unsure if np.hypot(u.x - cx, u.y - cy) < 40] == [
        UnsureReason.STRAY_PIPS
    ]
    # ... and a photo of unknown scale reads the lead by the grid at the width its
    # pips' spacing suggests (issue 26), in its place
    [read] = detect(out.image, settings=Settings(tone=tone)).tiles
    truth = out.truth.tiles[0]
    assert sorted(read.pips) == sorted(lead)
    assert min(np.hypot(*np.subtract(read.px[0], p)) for p in (truth.a_px, truth.b_px)) < 8


@pytest.mark.parametrize(("seed", "plays", "all_read"), [(3, 3, False), (7, 3, True)])
def test_unread_wooden_tiles_on_white_cloth_are_unsure(
    seed: int, plays: int, all_read: bool
) -> None:
    # Wooden tiles touching on white cloth: the search for tiles darker than the
    # table reads some; the others show no divider. Their pips, seen by that search
    # or by the one for lighter tiles, make unsure places: the reconciler must not
    # take the table for one without them (a 6-3 was accepted as the lead while the
    # 6-6 and 6-0 lay unread). Since tiles are also read by their pips' grid once
    # the frame's tile size is known (issue 26), seed 7's three tiles are all read.
    game = sim_game("straight-block", 2, seed=seed, plays=10)
    scene = Scene().with_tiles(tuple(game.scenes[plays - 1]))
    cam = Camera.overhead(scene.size_mm, margin_mm=scene.margin_mm)
    style = RenderStyle(tiles=TileStyle.WOOD, surface=Surface.WHITE_CLOTH, lighting=Lighting.LAMP)
    out = render_frame(scene, cam, style, seed, frame=3)
    det = detect(out.image, settings=Settings(tone=Tone.GREY))
    right, wrong = _score(det, out.truth)
    assert wrong == 0
    if all_read:
        assert right == len(out.truth.tiles)
    else:
        assert 1 <= right < len(out.truth.tiles)
    places = [(u.x, u.y) for u in det.unsure if u.reason == UnsureReason.STRAY_PIPS]
    read = {(round(t.px[0][0]), round(t.px[0][1])) for t in det.tiles}
    for t in out.truth.tiles:
        if any(np.hypot(t.a_px[0] - x, t.a_px[1] - y) < 8 for x, y in read) or any(
            np.hypot(t.b_px[0] - x, t.b_px[1] - y) < 8 for x, y in read
        ):
            continue
        cx, cy = t.centre_px
        assert any(np.hypot(cx - x, cy - y) < 2 * 28 for x, y in places), t.tile


def _noisy(image: np.ndarray, seed: int) -> np.ndarray:
    """`image` with 8 % of its pixels a grey level up or down: what a different resize
    on another machine made of the same frame (docs/design/arm64.md's knife edges)."""
    rng = np.random.default_rng(seed)
    out = image.astype(np.int16)
    mask = rng.random(out.shape[:2]) < 0.08
    out[mask] += rng.choice(np.array([-1, 1], dtype=np.int16), size=(int(mask.sum()), 1))
    return np.asarray(np.clip(out, 0, 255), dtype=np.uint8)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("seed", "style", "tone"),
    [
        (
            7,
            RenderStyle(tiles=TileStyle.WOOD, surface=Surface.WOOD, lighting=Lighting.LAMP),
            Tone.GREY,
        ),
        (16, RenderStyle.harsh(TileStyle.COLOURED), Tone.LIGHT),
    ],
)
def test_a_grey_level_of_noise_loses_no_tile(seed: int, style: RenderStyle, tone: Tone) -> None:
    # Issue 26 point 6, the two knife edges found on arm64: wooden tiles (seed 7), where
    # a grey level on 8 % of the pixels moved the width the lines agreed on from 26 to
    # 22 px and the 6-0 and 2-0 were lost (now the frame is read again at the width its
    # tiles were read at); a pale pip under glare (seed 16), where it made an extra tile.
    image, truth = _frame(seed, style)
    clean = _score(detect(image, settings=Settings(tone=tone)), truth)
    det = detect(_noisy(image, 1), settings=Settings(tone=tone))
    assert _score(det, truth) == clean == (len(truth.tiles), 0)
    assert _extra(det, truth) <= (1 if tone is Tone.GREY else 0)  # the grain's blank, above
