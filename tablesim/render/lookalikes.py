"""Frames that look like the real photos the detector failed on (issue 26).

Each kind names one failure seen on real photos of sets this project never saw,
where a rendered test had passed because the renders did not look like the photo:

- `PINK_CLOSE_UP`: big glossy pink plastic tiles, yellow pips and bar, seen close on
  knotty wood or black crinkled leather (the tiles not found, tiny false tiles in the
  texture);
- `IVORY_ON_TEXTURE`: ivory tiles seen close on black leather, red damask, plaid or a
  speckled mat (false tiles in the texture);
- `WHITE_ON_WHITE`: ivory tiles on white paper at many angles under a soft light, soft
  shadows, a 0-0 among them (a quarter not found);
- `BRASS_PINS`: white tiles with domed brass or steel spinner pins, larger than a pip,
  on green card (every pinned tile missed);
- `LONE_SMALL`: one tile in a small (640 x 640) photo (3 of 4 missed);
- `SILVER_PIN_CLOSE_UP`: close-ups of ivory tiles with a small steel pin on black cloth
  (a tile read as two tiny tiles of its own pips).

`lookalike(kind, seed)` draws one such frame, everything from the seed, as a phone
takes it (defocus, noise, sharpening, JPEG), with its truth. The real photos stay in
`../shared` and are never copied; these frames are drawn from nothing but code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final

import numpy as np

from engine.surface import SeenTile
from tablesim.render.arrangements import Pair, corners, line, scattered, tile_at
from tablesim.render.draw import render_frame
from tablesim.render.scene import Camera, Rendered, Scene
from tablesim.render.sets import (
    SETS,
    Face,
    PipColour,
    Spinner,
    TileSet,
    TileStyle,
    plastic_set,
    same,
    shade,
)
from tablesim.render.styles import Lighting, RenderStyle, Surface

__all__ = ["GLOSSY_IVORY", "Kind", "Lookalike", "lookalike", "phone_style"]


class Kind(StrEnum):
    """A failure seen on real photos (the module's table)."""

    PINK_CLOSE_UP = "pink-close-up"
    IVORY_ON_TEXTURE = "ivory-on-texture"
    WHITE_ON_WHITE = "white-on-white"
    BRASS_PINS = "brass-pins"
    LONE_SMALL = "lone-small"
    SILVER_PIN_CLOSE_UP = "silver-pin-close-up"


GLOSSY_IVORY: Final = replace(SETS[TileStyle.IVORY], name="glossy ivory", glossy=True)
_WHITE_PINNED: Final = replace(
    SETS[TileStyle.IVORY],
    name="white, pinned",
    face=(236, 240, 240),
    side=(30, 30, 32),  # white tops on black bases
    divider=(35, 35, 35),
    divider_mm=0.6,
    glossy=True,
)
Point = tuple[float, float]
_TEXTURES: Final = (Surface.BLACK_LEATHER, Surface.RED_DAMASK, Surface.PLAID, Surface.SPECKLED_MAT)


@dataclass(frozen=True, slots=True)
class Lookalike:
    """A frame of one kind, its truth, and how it was drawn."""

    kind: Kind
    seed: int
    rendered: Rendered
    style: RenderStyle
    scene: Scene


def phone_style(
    rng: np.random.Generator, tiles: TileSet, surface: Surface, *, soft: bool = False
) -> RenderStyle:
    """A phone's photo of `tiles` on `surface`: light from any side (a soft light:
    broad, faint shadows), defocus, noise, sharpening and JPEG."""
    angle = rng.uniform(0, 2 * math.pi)
    reach = float(rng.uniform(0.2, 0.8))
    return RenderStyle(
        tiles=tiles,
        surface=surface,
        lighting=Lighting.LAMP if rng.uniform() < 0.3 else Lighting.DAYLIGHT,
        light_from=(reach * math.cos(angle), reach * math.sin(angle)),
        shadow_mm=float(rng.uniform(5.0, 10.0) if soft else rng.uniform(1.5, 4.0)),
        shadow_depth=float(rng.uniform(0.15, 0.35) if soft else rng.uniform(0.3, 0.55)),
        glare=float(rng.uniform(0.0, 0.3)) if rng.uniform() < 0.3 else 0.0,
        blur_px=float(rng.uniform(0.5, 1.6)),
        noise=float(rng.uniform(1.5, 5.0)),
        sharpen=float(rng.uniform(0.3, 1.0)),
        jpeg_quality=int(rng.integers(60, 92)),
    )


def _camera(
    rng: np.random.Generator, resolution: tuple[int, int], px_per_mm: float, centre: Point
) -> Camera:
    return Camera.over(
        centre,
        px_per_mm,
        resolution,
        rotation_deg=float(rng.uniform(-12, 12)),
        keystone=float(rng.uniform(0.0, 0.25)),
        fov_deg=float(rng.uniform(55, 70)),
    )


def _pairs(rng: np.random.Generator, count: int, *, blank: bool = False) -> list[Pair]:
    every = [(a, b) for a in range(7) for b in range(a, 7)]
    picked = [every[i] for i in rng.permutation(len(every))[:count]]
    if blank and (0, 0) not in picked:
        picked[int(rng.integers(len(picked)))] = (0, 0)
    return [(b, a) if rng.uniform() < 0.5 else (a, b) for a, b in picked]


def _frame(
    kind: Kind,
    seed: int,
    tiles: tuple[SeenTile, ...],
    tile_mm: tuple[float, float],
    camera: Camera,
    style: RenderStyle,
) -> Lookalike:
    view = camera.px_to_mm(
        np.array([[0, 0], [camera.width, 0], [camera.width, camera.height], [0, camera.height]])
    )
    lo, hi = view.min(axis=0) - 3, view.max(axis=0) + 3
    shifted = tuple(
        SeenTile(t.a, t.b, t.xa - lo[0], t.ya - lo[1], t.xb - lo[0], t.yb - lo[1]) for t in tiles
    )
    size = (float(hi[0] - lo[0]), float(hi[1] - lo[1]))
    h = camera.matrix @ np.array([[1, 0, lo[0]], [0, 1, lo[1]], [0, 0, 1]])
    moved = Camera(camera.width, camera.height, tuple(float(v) for v in h.ravel()),
                   camera.height_mm)  # fmt: skip
    scene = Scene(shifted, size_mm=size, tile_mm=tile_mm, markers=False, margin_mm=2.0)
    fine = 1.15 * max(moved.px_per_mm(t.centre) for t in shifted) if shifted else None
    out = render_frame(scene, moved, style, seed, canvas_px_per_mm=fine, canvas_limit=36.0)
    return Lookalike(kind, seed, out, style, scene)


def _in_view(camera: Camera, tiles: tuple[SeenTile, ...], tile_mm: tuple[float, float]) -> bool:
    for t in tiles:
        px = camera.mm_to_px(corners(t, tile_mm))
        if px.min() < 2 or np.any(px.max(axis=0) > np.array([camera.width, camera.height]) - 2):
            return False
    return True


def _close_up(
    rng: np.random.Generator,
    tile_mm: tuple[float, float],
    count: int,
    width_px: tuple[float, float],
) -> tuple[Camera, tuple[SeenTile, ...], float]:
    """A phone close-up of `count` tiles side by side or in a line, each `width_px`
    wide (a range), all in view."""
    resolution = (1200, 1600) if rng.uniform() < 0.5 else (1600, 1200)
    for _ in range(20):
        px_per_mm = float(rng.uniform(*width_px)) / tile_mm[1]
        angle = float(rng.choice([0.0, 90.0])) + float(rng.normal(0, 6))
        pairs = _pairs(rng, count)
        if rng.uniform() < 0.5:
            laid = line(pairs, (0.0, 0.0), angle, tile_mm).tiles
        else:  # side by side, a little apart
            step = tile_mm[1] + float(rng.uniform(3, 15))
            d = np.array([math.cos(math.radians(angle + 90)), math.sin(math.radians(angle + 90))])
            laid = tuple(tile_at(p, (float(d[0] * k * step), float(d[1] * k * step)), angle,
                                 tile_mm) for k, p in enumerate(pairs))  # fmt: skip
        centre = tuple(np.mean([t.centre for t in laid], axis=0))
        cam = _camera(rng, resolution, px_per_mm, (float(centre[0]), float(centre[1])))
        if _in_view(cam, laid, tile_mm):
            return cam, laid, px_per_mm
        count = max(1, count - 1)
    raise AssertionError("no close-up fits the frame")  # pragma: no cover


def _pink(rng: np.random.Generator, seed: int) -> Lookalike:
    pink = (int(rng.uniform(170, 205)), int(rng.uniform(100, 175)), int(rng.uniform(235, 255)))
    yellow = (int(rng.uniform(20, 140)), int(rng.uniform(200, 240)), int(rng.uniform(235, 255)))
    tiles = replace(
        plastic_set(Face.PINK, PipColour.YELLOW),
        face=pink,
        side=shade(pink, 0.75),
        pips=same(yellow),
        divider=yellow,
        glossy=True,
        size_mm=(50.0, 25.0),
    )
    surface = Surface.KNOTTY_WOOD if rng.uniform() < 0.5 else Surface.BLACK_LEATHER
    cam, laid, _ = _close_up(rng, tiles.size_mm, int(rng.integers(1, 4)), (300.0, 750.0))
    style = phone_style(rng, tiles, surface)
    return _frame(Kind.PINK_CLOSE_UP, seed, laid, tiles.size_mm, cam, style)


def _ivory_texture(rng: np.random.Generator, seed: int) -> Lookalike:
    leather = rng.uniform() < 0.6
    surface = Surface.BLACK_LEATHER if leather else _TEXTURES[int(rng.integers(len(_TEXTURES)))]
    cam, laid, _ = _close_up(rng, GLOSSY_IVORY.size_mm, int(rng.integers(1, 4)), (300.0, 750.0))
    style = phone_style(rng, GLOSSY_IVORY, surface)
    return _frame(Kind.IVORY_ON_TEXTURE, seed, laid, GLOSSY_IVORY.size_mm, cam, style)


def _strewn(
    rng: np.random.Generator,
    tile_mm: tuple[float, float],
    count: int,
    resolution: tuple[int, int],
    px_per_mm: float,
    *,
    blank: bool,
) -> tuple[Camera, tuple[SeenTile, ...]]:
    """`count` tiles strewn at any angle, all in view of an overhead phone."""
    cam = _camera(rng, resolution, px_per_mm, (0.0, 0.0))
    w, h = resolution
    inset = np.array([[40, 40], [w - 40, 40], [w - 40, h - 40], [40, h - 40]], dtype=np.float64)
    view = cam.px_to_mm(inset)
    lo, hi = view.min(axis=0), view.max(axis=0)
    area = (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))
    laid = scattered(_pairs(rng, count, blank=blank), area, rng, tile_mm, gap_mm=6.0)
    return cam, tuple(t for t in laid if _in_view(cam, (t,), tile_mm))


def _white_on_white(rng: np.random.Generator, seed: int) -> Lookalike:
    resolution = (1600, 1200) if rng.uniform() < 0.5 else (1200, 1600)
    px_per_mm = float(rng.uniform(60.0, 130.0)) / GLOSSY_IVORY.size_mm[1]
    cam, laid = _strewn(rng, GLOSSY_IVORY.size_mm, int(rng.integers(4, 9)), resolution,
                        px_per_mm, blank=True)  # fmt: skip
    style = phone_style(rng, GLOSSY_IVORY, Surface.WHITE_PAPER, soft=True)
    return _frame(Kind.WHITE_ON_WHITE, seed, laid, GLOSSY_IVORY.size_mm, cam, style)


def _brass_pins(rng: np.random.Generator, seed: int) -> Lookalike:
    metal = Spinner.BRASS_DOME if rng.uniform() < 0.6 else Spinner.STEEL_DOME
    tiles = replace(_WHITE_PINNED, spinner=metal, spinner_mm=float(rng.uniform(2.3, 3.4)))
    resolution = (1600, 900)
    px_per_mm = float(rng.uniform(45.0, 90.0)) / tiles.size_mm[1]
    cam = _camera(rng, resolution, px_per_mm, (0.0, 0.0))
    pairs = _pairs(rng, int(rng.integers(3, 7)))
    laid = line(pairs, (-len(pairs) * tiles.size_mm[0] / 2, 0.0), float(rng.uniform(-10, 10)),
                tiles.size_mm).tiles  # fmt: skip
    style = phone_style(rng, tiles, Surface.GREEN_FELT)
    style = replace(style, surface_tint=(0.75, 1.25, 1.05))  # green card
    return _frame(Kind.BRASS_PINS, seed, laid, tiles.size_mm, cam, style)


def _lone_small(rng: np.random.Generator, seed: int) -> Lookalike:
    surfaces = (Surface.WHITE_PAPER, Surface.LIGHT_WOOD, Surface.DARK_CLOTH, *_TEXTURES)
    surface = surfaces[int(rng.integers(len(surfaces)))]
    px_per_mm = float(rng.uniform(30.0, 300.0)) / GLOSSY_IVORY.size_mm[1]
    cam = _camera(rng, (640, 640), px_per_mm, (0.0, 0.0))
    laid = (tile_at(_pairs(rng, 1)[0], (0.0, 0.0), float(rng.uniform(0, 360)),
                    GLOSSY_IVORY.size_mm),)  # fmt: skip
    style = phone_style(rng, GLOSSY_IVORY, surface, soft=rng.uniform() < 0.5)
    blur, quality = float(rng.uniform(0.5, 2.5)), int(rng.integers(40, 90))
    style = replace(style, blur_px=blur, jpeg_quality=quality)
    return _frame(Kind.LONE_SMALL, seed, laid, GLOSSY_IVORY.size_mm, cam, style)


def _silver_pin(rng: np.random.Generator, seed: int) -> Lookalike:
    small_pin = float(rng.uniform(1.0, 1.6))
    tiles = replace(GLOSSY_IVORY, spinner=Spinner.STEEL_DOME, spinner_mm=small_pin)
    cam, laid, _ = _close_up(rng, tiles.size_mm, int(rng.integers(1, 3)), (350.0, 1000.0))
    style = phone_style(rng, tiles, Surface.DARK_CLOTH)
    style = replace(style, surface_tint=(0.55, 0.6, 0.6))  # black cloth
    return _frame(Kind.SILVER_PIN_CLOSE_UP, seed, laid, tiles.size_mm, cam, style)


_MAKERS: Final = {
    Kind.PINK_CLOSE_UP: _pink,
    Kind.IVORY_ON_TEXTURE: _ivory_texture,
    Kind.WHITE_ON_WHITE: _white_on_white,
    Kind.BRASS_PINS: _brass_pins,
    Kind.LONE_SMALL: _lone_small,
    Kind.SILVER_PIN_CLOSE_UP: _silver_pin,
}


def lookalike(kind: Kind, seed: int) -> Lookalike:
    """A frame of `kind`, everything drawn from `seed` (the same seed, the same bytes)."""
    rng = np.random.default_rng([seed, 0x100C, list(Kind).index(kind)])
    return _MAKERS[kind](rng, seed)
