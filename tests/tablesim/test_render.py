"""The synthetic frame renderer: determinism, styles, ground truth, speed."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from engine.surface import SeenTile
from tablesim.errors import RenderError
from tablesim.render import Camera, FaceDownTile, Hand, RenderStyle, Scene, render_frame
from tablesim.render.pip_layouts import pip_layout, pip_radius
from tablesim.render.scene import TileTruth
from tablesim.render.styles import Lighting, Surface, TileStyle
from vision.calibration.aruco_markers import detect_markers

LINE = (
    SeenTile(6, 6, 450, 288, 450, 312),  # a crosswise double
    SeenTile(6, 3, 474, 300, 498, 300),
    SeenTile(3, 5, 522, 300, 546, 300),
    SeenTile(6, 1, 426, 300, 402, 300),
    SeenTile(2, 4, 200, 150, 200, 174),
)
SCENE = Scene(LINE, (FaceDownTile(800, 520, 20), FaceDownTile(760, 540, 100)))


def test_same_seed_same_frame_other_seed_other_frame() -> None:
    first = render_frame(SCENE, seed=5)
    again = render_frame(SCENE, seed=5)
    other = render_frame(SCENE, seed=6)
    assert first.image.shape == (960, 1280, 3)
    assert first.image.dtype == np.uint8
    assert np.array_equal(first.image, again.image)
    assert first.truth == again.truth
    assert not np.array_equal(first.image, other.image)


def test_frame_index_changes_only_the_noise() -> None:
    a = render_frame(SCENE, seed=2, frame=0).image.astype(np.int16)
    b = render_frame(SCENE, seed=2, frame=1).image.astype(np.int16)
    diff = np.abs(a - b)
    assert diff.max() > 0
    assert diff.mean() < 4


@pytest.mark.slow
@pytest.mark.parametrize("tiles", list(TileStyle))
@pytest.mark.parametrize("surface", list(Surface))
def test_every_style_renders_its_tiles_visibly(tiles: TileStyle, surface: Surface) -> None:
    style = RenderStyle(tiles=tiles, surface=surface, brass_pin=True, glare=0.4)
    # a small frame (the table 0.7 px a mm): the same styles and textures at a quarter
    # of the pixels, every pairing of set and table is drawn
    camera = Camera.overhead(SCENE.size_mm, (640, 480))
    out = render_frame(SCENE, camera, style=style, seed=1)
    gray = cv2.cvtColor(out.image, cv2.COLOR_BGR2GRAY).astype(np.float64)
    tile = out.truth.tiles[4]  # the lone 2-4
    face = _mean_in(gray, tile.corners_px, shrink=0.9)
    x, y = tile.centre_px
    beside = float(gray[round(y), round(x) + 30])  # about 40 mm beside its centre
    # as bright as the table (a yellow tile on a plaid's yellow band) it must differ in colour
    hue = [_mean_in(out.image[..., k].astype(np.float64), tile.corners_px, shrink=0.9)
           for k in range(3)]  # fmt: skip
    apart = float(np.abs(np.array(hue) - out.image[round(y), round(x) + 30]).max())
    assert abs(face - beside) > 2 or apart > 20, (
        f"{tiles} on {surface}: tile {face:.0f} vs table {beside:.0f}, colours {apart:.0f} apart"
    )


@pytest.mark.parametrize("lighting", list(Lighting))
def test_lighting_tints_the_frame(lighting: Lighting) -> None:
    style = RenderStyle(surface=Surface.WHITE_CLOTH, lighting=lighting, noise=0, blur_px=0)
    out = render_frame(Scene(), style=style, seed=3)
    b, _g, r = (float(c) for c in out.image[300:660, 400:880].reshape(-1, 3).mean(axis=0))
    if lighting is Lighting.LAMP:
        assert r > b + 30  # warm
    else:
        assert b > r  # cool


def _mean_in(
    gray: npt.NDArray[np.float64], corners: tuple[tuple[float, float], ...], *, shrink: float
) -> float:
    pts = np.array(corners)
    centre = pts.mean(axis=0)
    poly = np.round(centre + (pts - centre) * shrink).astype(np.int32)
    mask = np.zeros(gray.shape, dtype=np.uint8)
    cv2.fillPoly(mask, [poly], 255)
    return float(gray[mask > 0].mean())


def _half_mask(shape: tuple[int, int], t: TileTruth, half: str) -> npt.NDArray[np.uint8]:
    """The tile half's square, kept clear of the divider and the tile's edge."""
    a, b = np.array(t.a_px), np.array(t.b_px)
    centre = a if half == "a" else b
    out = centre - (b if half == "a" else a)  # from the divider outwards, one half long
    side = np.array([-out[1], out[0]])
    quad = [
        centre + out * su * 0.42 + side * sv * 0.44
        for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))
    ]
    quad = [q + out * 0.04 for q in quad]  # away from the divider line
    mask = np.zeros(shape, dtype=np.uint8)
    cv2.fillPoly(mask, [np.round(np.array(quad) * 16).astype(np.int32)], 255, cv2.LINE_8, 4)
    return mask


def _dark_blobs(
    gray: npt.NDArray[np.uint8], mask: npt.NDArray[np.uint8]
) -> list[tuple[float, float]]:
    x, y, w, h = cv2.boundingRect(mask)
    roi = (slice(y, y + h), slice(x, x + w))
    dark = ((gray[roi] < 110) & (mask[roi] > 0)).astype(np.uint8)
    n, _labels, stats, centroids = cv2.connectedComponentsWithStats(dark)
    return [
        (float(centroids[i][0]) + x, float(centroids[i][1]) + y)
        for i in range(1, n)
        if stats[i, cv2.CC_STAT_AREA] >= 3
    ]


ALL_PAIRS = [(a, b) for a in range(13) for b in range(a, 13)]


@pytest.mark.parametrize(
    ("size_mm", "highest"), [((300.0, 200.0), 12), ((900.0, 600.0), 9)], ids=["close", "far"]
)
def test_dark_blobs_in_each_clean_ivory_half_are_its_pips(
    size_mm: tuple[float, float], highest: int
) -> None:
    pairs = [(a, b) for a, b in ALL_PAIRS if b <= highest]
    w, h = size_mm
    cols, rows = int(w // 60), int(h // 60)  # one tile per 60 mm cell, none touching
    for start in range(0, len(pairs), cols * rows):
        tiles = []
        for k, (a, b) in enumerate(pairs[start : start + cols * rows]):
            x, y = 30 + 60 * (k % cols), 30 + 60 * (k // cols)
            upright = k % 2 == 1
            tiles.append(
                SeenTile(a, b, x, y - 12, x, y + 12)
                if upright
                else SeenTile(a, b, x - 12, y, x + 12, y)
            )
        scene = Scene(tuple(tiles), size_mm=size_mm, margin_mm=40)
        out = render_frame(scene, style=RenderStyle.clean(), seed=4)
        _assert_blobs_are_pips(out.image, out.truth.tiles)


def _assert_blobs_are_pips(image: npt.NDArray[np.uint8], tiles: tuple[TileTruth, ...]) -> None:
    gray = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    for t in tiles:
        for half, pips, truth_px in (("a", t.tile.a, t.pips_a_px), ("b", t.tile.b, t.pips_b_px)):
            blobs = _dark_blobs(gray, _half_mask(gray.shape, t, half))
            assert len(blobs) == pips, f"{t.tile} half {half}: {len(blobs)} blobs"
            for bx, by in blobs:
                nearest = min(np.hypot(bx - px, by - py) for px, py in truth_px)
                assert nearest < 1.0


def test_coloured_double_twelve_pips_take_the_number_colour() -> None:
    scene = Scene((SeenTile(3, 2, 100, 100, 124, 100),), size_mm=(300, 200), margin_mm=40)
    out = render_frame(scene, style=RenderStyle.clean(TileStyle.COLOURED), seed=0)
    t = out.truth.tiles[0]
    red = out.image[round(t.pips_a_px[1][1]), round(t.pips_a_px[1][0])]
    green = out.image[round(t.pips_b_px[0][1]), round(t.pips_b_px[0][0])]
    assert red[2] > 150 > red[0]  # 3 is red (BGR)
    assert green[1] > 120 > green[2]  # 2 is green


def test_ground_truth_is_the_camera_homography_of_the_scene() -> None:
    cam = Camera.overhead((900, 600), (1280, 960), keystone=0.06, rotation_deg=3)
    out = render_frame(SCENE, cam, RenderStyle.clean(), seed=0)
    for t in out.truth.tiles:
        assert t.a_px == pytest.approx(tuple(cam.mm_to_px([t.tile.xa, t.tile.ya])))
        assert t.b_px == pytest.approx(tuple(cam.mm_to_px([t.tile.xb, t.tile.yb])))
    # a half centre is on the bright face, 20 mm beside the lone tile is felt
    lone = out.truth.tiles[4]
    x, y = (round(v) for v in lone.a_px)
    assert out.image[y, x].min() > 180
    fx, fy = (round(v) for v in cam.mm_to_px([230, 150]))
    assert out.image[fy, fx][1] > out.image[fy, fx][0] + 30


@pytest.mark.slow
def test_markers_are_drawn_where_the_truth_says() -> None:
    cam = Camera.overhead((900, 600), (1536, 2040), rotation_deg=90, keystone=0.05)
    out = render_frame(Scene(LINE), cam, RenderStyle(), seed=9)
    assert out.image.shape == (2040, 1536, 3)
    found = detect_markers(out.image)
    assert sorted(found) == [0, 1, 2, 3]
    for m in out.truth.markers:
        assert found[m.marker_id].centre == pytest.approx(m.centre_px, abs=0.6)


def test_a_hand_covers_what_lies_under_it() -> None:
    target = LINE[1]
    plain = render_frame(SCENE, seed=0)
    tip = plain.truth.tiles[1].centre_px
    out = render_frame(SCENE, seed=0, hand=Hand(tip, (1400.0, tip[1] + 200)))
    assert out.truth.hand_visible
    assert 0.01 < out.truth.hand_fraction < 0.3
    assert out.truth.tiles[1].tile == target
    assert out.truth.tiles[1].occluded
    assert not out.truth.tiles[4].occluded
    assert not plain.truth.hand_visible


def test_face_down_tiles_show_no_pips() -> None:
    scene = Scene(facedown=(FaceDownTile(150, 100, 30),), size_mm=(300, 200), margin_mm=40)
    out = render_frame(scene, style=RenderStyle.clean(), seed=0)
    gray = cv2.cvtColor(out.image, cv2.COLOR_BGR2GRAY)
    back = out.truth.facedown[0]
    x, y = (round(v) for v in back.centre_px)
    patch = gray[y - 8 : y + 9, x - 8 : x + 9]
    assert patch.min() > 150


def test_bad_scenes_are_refused() -> None:
    with pytest.raises(RenderError, match="same point"):
        render_frame(Scene((SeenTile(1, 2, 10, 10, 10, 10),)))
    with pytest.raises(RenderError, match="0 to 12"):
        render_frame(Scene((SeenTile(13, 2, 10, 10, 34, 10),)))
    with pytest.raises(RenderError, match="margin"):
        Scene(marker_mm=80, margin_mm=40)


@pytest.mark.parametrize("pips", range(13))
def test_pip_layouts_have_the_count_and_fit_the_half(pips: int) -> None:
    layout = np.array(pip_layout(pips)).reshape(-1, 2)
    r = pip_radius(pips)
    assert len(layout) == pips
    assert np.all(np.abs(layout) + r <= 1.0)
    for i in range(pips):
        for j in range(i + 1, pips):
            assert np.hypot(*(layout[i] - layout[j])) > 2 * r


def test_a_double_lies_as_its_coordinates_say() -> None:
    out = render_frame(SCENE, Camera.overhead(rotation_deg=0, keystone=0), RenderStyle.clean())
    crosswise, in_line = out.truth.tiles[0], out.truth.tiles[1]

    def extent(t: TileTruth) -> tuple[float, float]:
        pts = np.array(t.corners_px)
        return float(np.ptp(pts[:, 0])), float(np.ptp(pts[:, 1]))

    cw, ch = extent(crosswise)
    lw, lh = extent(in_line)
    assert ch == pytest.approx(2 * cw, rel=0.01)  # the 6-6 stands across the line
    assert lw == pytest.approx(2 * lh, rel=0.01)  # the 6-3 runs along it


def test_glare_jpeg_and_blur_change_the_frame_a_little() -> None:
    plain = RenderStyle(noise=0, blur_px=0)
    base = render_frame(SCENE, style=plain, seed=5).image.astype(np.int16)
    glared = render_frame(SCENE, style=replace(plain, glare=1.0), seed=5).image.astype(np.int16)
    jpeg = render_frame(SCENE, style=replace(plain, jpeg_quality=40), seed=5).image.astype(np.int16)
    blurred = render_frame(SCENE, style=replace(plain, blur_px=2.0), seed=5).image.astype(np.int16)
    assert (glared - base).max() > 150  # a bright spot
    assert (glared - base).min() >= 0  # glare only adds light
    assert 0 < np.abs(jpeg - base).mean() < 4
    sharp = cv2.Laplacian(base.astype(np.float64), cv2.CV_64F).var()
    soft = cv2.Laplacian(blurred.astype(np.float64), cv2.CV_64F).var()
    assert soft < sharp / 2


def test_truth_reads_as_a_perfect_snapshot() -> None:
    snap = render_frame(SCENE, seed=0).truth.snapshot(at=12.5)
    assert snap.tiles == LINE
    assert snap.facedown == 2
    assert snap.at == 12.5


def test_brass_pin_sits_on_the_divider_at_the_tile_centre() -> None:
    scene = Scene((SeenTile(2, 5, 100, 100, 124, 100),), size_mm=(300, 200), margin_mm=40)
    pinned = render_frame(scene, style=replace(RenderStyle.clean(), brass_pin=True), seed=0)
    plain = render_frame(scene, style=RenderStyle.clean(), seed=0)
    x, y = (round(v) for v in pinned.truth.tiles[0].centre_px)
    b, g, r = (int(c) for c in pinned.image[y + 2, x + 1])
    assert r > g > b + 40  # brass
    assert plain.image[y + 2, x].max() < 100  # the dark divider line without it


def test_a_moving_hand_is_smeared_along_the_arm() -> None:
    clean = RenderStyle.clean()
    still = render_frame(Scene(), None, clean, hand=Hand((640, 480), (1300, 900)))
    moving = render_frame(Scene(), None, clean, hand=Hand((640, 480), (1300, 900), blur_px=25))
    assert moving.truth.hand_fraction > still.truth.hand_fraction
    box = (slice(380, 560), slice(560, 760))  # fingers and palm

    def sharpness(image: npt.NDArray[np.uint8]) -> float:
        gray = cv2.cvtColor(image[box], cv2.COLOR_BGR2GRAY).astype(np.float64)
        dx = cv2.Sobel(gray, cv2.CV_64F, 1, 0, ksize=3)
        dy = cv2.Sobel(gray, cv2.CV_64F, 0, 1, ksize=3)
        ux, uy = np.array([640 - 1300, 480 - 900]) / np.hypot(660, 420)
        return float(np.abs(dx * ux + dy * uy).max())  # edges across the motion

    assert sharpness(moving.image) < 0.7 * sharpness(still.image)


def test_without_glare_the_light_is_as_with_glare_and_adds_nothing() -> None:
    from tablesim.render.effects import light_field

    def field(glare: float) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
        style = RenderStyle(lighting=Lighting.LAMP, glare=glare)
        return light_field(style, (130, 170), np.random.default_rng(5))

    gains, glare = field(0.0)
    lit, shone = field(0.6)
    assert np.array_equal(gains, lit)  # the same draws from the seed, glare or not
    assert glare.shape == shone.shape == (130, 170, 3)
    assert not glare.any() and shone.max() > 50
