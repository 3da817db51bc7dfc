"""Shiny parts and the light's direction (issue 26): domed pins larger than a pip with a
highlight towards the light, glossy pips, shadows cast away from the light, a phone's
sharpening."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import numpy.typing as npt

from engine.surface import SeenTile
from tablesim.render import Camera, RenderStyle, Scene, Spinner, Surface, TileStyle, render_frame
from tablesim.render.sets import SETS

Image = npt.NDArray[np.uint8]
SCENE = Scene((SeenTile(2, 5, 48, 40, 72, 40),), size_mm=(120, 80), markers=False, margin_mm=5)
CAMERA = Camera.over((60.0, 40.0), 12.0, (1280, 960))  # a close-up: 12 px per mm
PLAIN = RenderStyle.clean(TileStyle.IVORY)


def _grey(image: Image) -> npt.NDArray[np.float64]:
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.float64)


def _pinned(metal: Spinner, light_from: tuple[float, float] = (-0.35, -0.5)) -> Image:
    tiles = replace(SETS[TileStyle.IVORY], spinner=metal)
    style = replace(RenderStyle.clean(tiles), light_from=light_from)
    return render_frame(SCENE, CAMERA, style, seed=1, canvas_limit=16.0).image


def test_a_domed_pin_is_larger_than_a_pip_and_shines_towards_the_light() -> None:
    out = render_frame(SCENE, CAMERA, PLAIN, seed=1, canvas_limit=16.0)
    centre = np.array(out.truth.tiles[0].centre_px)
    pip = np.array(out.truth.tiles[0].pips_a_px[0])
    pinned = _grey(_pinned(Spinner.BRASS_DOME))
    face = float(np.median(pinned))
    differs = np.abs(pinned - _grey(out.image)) > 25
    ys, xs = np.nonzero(differs)
    pin_r = float(np.max(np.hypot(xs - centre[0], ys - centre[1])))
    dy, dx = np.mgrid[-40:41, -40:41]
    x, y = round(pip[0]), round(pip[1])
    dark = _grey(out.image)[y - 40 : y + 41, x - 40 : x + 41] < 0.5 * face
    pip_r = float(np.max(np.hypot(dx[dark], dy[dark])))
    assert pin_r > pip_r  # the pin is larger than a pip (with its dark edge)
    for light_from in ((-0.5, -0.5), (0.5, 0.5)):
        grey = _grey(_pinned(Spinner.STEEL_DOME, light_from))
        toward = centre + np.array(light_from) / np.hypot(*light_from) * 0.4 * pin_r
        away = centre - np.array(light_from) / np.hypot(*light_from) * 0.4 * pin_r
        bright = grey[round(toward[1]), round(toward[0])]
        shaded = grey[round(away[1]), round(away[0])]
        assert bright > shaded + 40, (light_from, bright, shaded)


def test_a_domed_pin_is_brass_or_steel() -> None:
    out = render_frame(SCENE, CAMERA, PLAIN, seed=1, canvas_limit=16.0)
    x, y = (round(v) for v in out.truth.tiles[0].centre_px)
    brass = _pinned(Spinner.BRASS_DOME)[y - 5 : y + 6, x - 5 : x + 6].reshape(-1, 3).mean(axis=0)
    steel = _pinned(Spinner.STEEL_DOME)[y - 5 : y + 6, x - 5 : x + 6].reshape(-1, 3).mean(axis=0)
    assert brass[2] > brass[0] + 60  # red over blue: yellow metal
    assert abs(steel[2] - steel[0]) < 25  # grey metal (daylight is a little blue)


def test_glossy_pips_carry_a_highlight_towards_the_light() -> None:
    glossy = replace(SETS[TileStyle.IVORY], glossy=True)
    plain = render_frame(SCENE, CAMERA, PLAIN, seed=1, canvas_limit=16.0)
    shiny = render_frame(SCENE, CAMERA, RenderStyle.clean(glossy), seed=1, canvas_limit=16.0)
    for pip in plain.truth.tiles[0].pips_b_px:
        x, y = (round(v) for v in pip)
        flat = _grey(plain.image)[y - 12 : y + 1, x - 12 : x + 1]  # up and left: the light
        lit = _grey(shiny.image)[y - 12 : y + 1, x - 12 : x + 1]
        assert lit.max() > flat.max() + 60


def test_shadows_fall_away_from_the_light_and_soften() -> None:
    def table_beside(style: RenderStyle, away: int = 30) -> tuple[float, float]:
        out = render_frame(SCENE, CAMERA, style, seed=1, canvas_limit=16.0)
        grey = _grey(out.image)
        xs = np.array([p[0] for p in out.truth.tiles[0].corners_px])
        ys = np.array([p[1] for p in out.truth.tiles[0].corners_px])
        cx = round(xs.mean())
        above, below = round(ys.min()) - away, round(ys.max()) + away
        return float(grey[above, cx]), float(grey[below, cx])

    base = RenderStyle(tiles=TileStyle.IVORY, surface=Surface.WHITE_PAPER, blur_px=0, noise=0)
    up, down = table_beside(replace(base, light_from=(0.0, -0.6)))  # light from the top
    assert down < up - 10  # the shadow falls below
    up, down = table_beside(replace(base, light_from=(0.0, 0.6)))
    assert up < down - 10
    far = 120  # px: 10 mm beyond the tile, twice the shadow's offset
    hard_up, _ = table_beside(replace(base, light_from=(0.0, 0.6), shadow_mm=1.0), far)
    soft_up, _ = table_beside(replace(base, light_from=(0.0, 0.6), shadow_mm=8.0), far)
    assert soft_up < hard_up - 3  # a soft shadow reaches farther


def test_a_phone_sharpens_edges() -> None:
    base = RenderStyle(tiles=TileStyle.IVORY, blur_px=1.5, noise=0)
    soft = render_frame(SCENE, CAMERA, base, seed=1).image
    sharp = render_frame(SCENE, CAMERA, replace(base, sharpen=1.0), seed=1).image
    lap = [float(np.abs(cv2.Laplacian(_grey(im), cv2.CV_64F)).mean()) for im in (soft, sharp)]
    assert lap[1] > 1.5 * lap[0]


def test_shiny_parts_beyond_the_table_s_edge_are_left_out() -> None:
    """A glossy, pinned tile half off the table: what lies beyond is not drawn (a
    training frame's tiles may reach past the frame and the table drawn under it)."""
    tiles = replace(SETS[TileStyle.IVORY], glossy=True, spinner=Spinner.STEEL_DOME)
    scene = Scene((SeenTile(6, 6, -30, 40, -6, 40),), size_mm=(120, 80), markers=False,
                  margin_mm=5)  # fmt: skip
    out = render_frame(scene, CAMERA, RenderStyle.clean(tiles), seed=1)
    assert out.image.shape == (960, 1280, 3)
