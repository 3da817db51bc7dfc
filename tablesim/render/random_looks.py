"""Random looks for training frames: a set, a table and light, drawn from a generator.

`random_set` draws a domino set: a shipped one now and then, else ivory, white,
black, wooden or coloured plastic faces with pips that stand out on them (black, white,
yellow, or a colour per number), either pip layout, a pip size and spread, a bar of
some thickness, sometimes a spinner pin (flat, or a domed brass or steel head of any
size), glossy or not. `random_style` draws the table's surface and tint, the light
(its colour, the side it comes from, how soft the shadows are) and the camera's
defects (blur, noise, a phone's sharpening, JPEG).
"""

from __future__ import annotations

import colorsys
import math
from dataclasses import replace
from typing import Final

import numpy as np

from tablesim.render.pip_layouts import PipLayout
from tablesim.render.sets import (
    BGR,
    DOMES,
    NUMBER_COLOURS,
    SETS,
    WHITE_SET_COLOURS,
    Spinner,
    TileSet,
    same,
    shade,
)
from tablesim.render.styles import Lighting, RenderStyle, Surface

__all__ = ["random_set", "random_style"]

SHIPPED_SHARE: Final = 0.3  # of random sets, this share are the shipped sets
MIN_CONTRAST: Final = 70.0  # grey levels between a set's face and its plain pips


def _grey(colour: BGR) -> float:
    b, g, r = colour
    return 0.114 * b + 0.587 * g + 0.299 * r


def _jitter(rng: np.random.Generator, colour: BGR, amount: float) -> BGR:
    b, g, r = (int(np.clip(c + rng.normal(0.0, amount), 0, 255)) for c in colour)
    return (b, g, r)


def _hsv(h: float, s: float, v: float) -> BGR:
    r, g, b = colorsys.hsv_to_rgb(h, s, v)
    return (round(b * 255), round(g * 255), round(r * 255))


def _face(rng: np.random.Generator) -> tuple[str, BGR]:
    kind = str(
        rng.choice(["ivory", "white", "black", "wood", "plastic"], p=[0.25, 0.15, 0.15, 0.1, 0.35])
    )
    if kind == "ivory":
        return kind, _hsv(rng.uniform(0.09, 0.14), rng.uniform(0.08, 0.25), rng.uniform(0.8, 0.97))
    if kind == "white":
        return kind, _hsv(rng.uniform(0.0, 1.0), rng.uniform(0.0, 0.05), rng.uniform(0.88, 0.99))
    if kind == "black":
        return kind, _hsv(rng.uniform(0.0, 1.0), rng.uniform(0.0, 0.3), rng.uniform(0.06, 0.2))
    if kind == "wood":
        return kind, _hsv(rng.uniform(0.06, 0.1), rng.uniform(0.4, 0.65), rng.uniform(0.5, 0.85))
    return kind, _hsv(rng.uniform(0.0, 1.0), rng.uniform(0.45, 0.9), rng.uniform(0.45, 0.95))


def _pips(rng: np.random.Generator, face: BGR) -> tuple[BGR, ...]:
    """Pips that stand out on `face`: one plain colour, or a colour per number on a
    light face."""
    if _grey(face) > 170 and rng.uniform() < 0.4:
        code = NUMBER_COLOURS if rng.uniform() < 0.7 else WHITE_SET_COLOURS
        return tuple(_jitter(rng, c, 12.0) for c in code)
    choices = [(22, 22, 26), (240, 242, 242), (30, 210, 250), (40, 40, 190), (150, 60, 20)]
    plain = [c for c in choices if abs(_grey(c) - _grey(face)) >= MIN_CONTRAST]
    if not plain:  # a mid-grey face: the darkest or lightest pips
        plain = [(22, 22, 26) if _grey(face) > 128 else (240, 242, 242)]
    return same(_jitter(rng, plain[int(rng.integers(len(plain)))], 8.0))


def random_set(rng: np.random.Generator) -> TileSet:
    """A domino set of any common kind, its look drawn from `rng`."""
    spinner = Spinner.NONE
    if rng.uniform() < 0.25:
        pins = (Spinner.BRASS, Spinner.SILVER, Spinner.BRASS_DOME, Spinner.STEEL_DOME)
        spinner = pins[int(rng.choice(4, p=[0.25, 0.1, 0.4, 0.25]))]
    pin_mm = float(rng.uniform(1.2, 3.4)) if spinner in DOMES else None
    glossy = bool(rng.uniform() < 0.4)
    if rng.uniform() < SHIPPED_SHARE:
        shipped = list(SETS.values())[int(rng.integers(len(SETS)))]
        return replace(
            shipped,
            spinner=spinner if spinner is not Spinner.NONE else shipped.spinner,
            spinner_mm=pin_mm,
            glossy=glossy,
        )
    kind, face = _face(rng)
    pips = _pips(rng, face)
    highest = int(rng.choice([6, 9, 12], p=[0.5, 0.2, 0.3]))
    layout = PipLayout.COLUMNS if rng.uniform() < 0.5 else PipLayout.GRID
    small = highest == 12 or rng.uniform() < 0.2
    coloured = len(set(pips[1:])) > 1
    divider = (60, 60, 60) if coloured else pips[1]
    length = float(rng.uniform(44.0, 56.0))
    return TileSet(
        name=f"random {kind}",
        face=face,
        side=shade(face, float(rng.uniform(0.6, 0.85))),
        back=shade(face, 0.96),
        divider=divider,
        pips=pips,
        layout=layout,
        pip_size=float(rng.uniform(0.11, 0.14) if small else rng.uniform(0.15, 0.2)),
        pip_spread=float(rng.uniform(0.9, 1.04)),
        divider_mm=float(rng.uniform(0.5, 1.5)),
        spinner=spinner,
        size_mm=(length, length / 2),
        highest=highest,
        grain=kind == "wood",
        engraved=kind == "wood" and rng.uniform() < 0.6,
        spinner_mm=pin_mm,
        glossy=glossy,
    )


def random_style(rng: np.random.Generator) -> RenderStyle:
    """A set on a table under some light, through a camera of some quality."""
    surface = list(Surface)[int(rng.integers(len(Surface)))]
    angle = float(rng.uniform(0.0, 2 * math.pi))
    reach = float(rng.uniform(0.2, 0.8))
    tint = (1.0, 1.0, 1.0)
    if rng.uniform() < 0.5:
        b, g, r = (float(v) for v in rng.uniform(0.7, 1.3, 3))
        tint = (b, g, r)
    return RenderStyle(
        tiles=random_set(rng),
        surface=surface,
        lighting=Lighting.LAMP if rng.uniform() < 0.4 else Lighting.DAYLIGHT,
        shadows=rng.uniform() < 0.8,
        glare=float(rng.uniform(0.0, 0.6)) if rng.uniform() < 0.3 else 0.0,
        blur_px=float(rng.uniform(0.0, 1.8)),
        noise=float(rng.uniform(0.0, 7.0)),
        jpeg_quality=int(rng.integers(40, 96)) if rng.uniform() < 0.5 else None,
        surface_tint=tint,
        light_from=(reach * math.cos(angle), reach * math.sin(angle)),
        shadow_mm=float(rng.uniform(1.5, 10.0)),
        shadow_depth=float(rng.uniform(0.15, 0.55)),
        sharpen=float(rng.uniform(0.3, 1.0)) if rng.uniform() < 0.4 else 0.0,
    )
