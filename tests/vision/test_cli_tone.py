"""`vision detect` on sets of unknown tone: auto (the default) tries light, dark and grey.

Rendered frames (`tablesim.render`) of a laid-out game in a black set and in a wooden
set are written to files and read through the command line with no `--tone`, and
with `--tone auto`: both sets are found and read. With `--tone light` (the default
before) neither is.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from tablesim.render import Camera, Lighting, RenderStyle, Scene, Surface, TileStyle, render_frame
from tablesim.render.scene import Truth
from tablesim.scenes import sim_game
from vision.cli import vision

LOOKS = [
    pytest.param(RenderStyle(tiles=TileStyle.BLACK, surface=Surface.WOOD), id="black-on-wood"),
    pytest.param(
        RenderStyle(tiles=TileStyle.WOOD, surface=Surface.DARK_GLOSSY, lighting=Lighting.LAMP),
        id="wood-on-dark-glossy",
    ),
    pytest.param(RenderStyle(tiles=TileStyle.WOOD), id="wood-on-felt"),
]


def _photo(tmp_path: Path, style: RenderStyle, seed: int = 2) -> tuple[Path, Truth]:
    game = sim_game("straight-block", 2, seed=seed, plays=8)
    scene = Scene().with_tiles(tuple(game.scenes[-1]))
    cam = Camera.overhead(scene.size_mm, margin_mm=scene.margin_mm)
    out = render_frame(scene, cam, style, seed, frame=3)
    path = tmp_path / f"{style.tiles}-{style.surface}.png"
    assert cv2.imwrite(str(path), out.image)
    return path, out.truth


def _read(args: list[str]) -> list[dict[str, object]]:
    result = CliRunner().invoke(vision, ["detect", "--json", *args])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.output.splitlines() if line.strip()]


def _right(record: dict[str, object], truth: Truth, px: float = 8.0) -> tuple[int, int]:
    """(tiles read right, tiles found in a true tile's place with the wrong pips)."""
    tiles = record["tiles"]
    assert isinstance(tiles, list)
    right = wrong = 0
    for t in truth.tiles:
        a, b = np.asarray(t.a_px), np.asarray(t.b_px)
        for f in tiles:
            fa, fb = np.asarray(f["px"][0]), np.asarray(f["px"][1])
            same = np.hypot(*(fa - a)) <= px and np.hypot(*(fb - b)) <= px
            turned = np.hypot(*(fa - b)) <= px and np.hypot(*(fb - a)) <= px
            if same or turned:
                pips = tuple(f["pips"]) if same else tuple(f["pips"][::-1])
                if pips == (t.tile.a, t.tile.b):
                    right += 1
                else:
                    wrong += 1
                break
    return right, wrong


@pytest.mark.slow
@pytest.mark.parametrize("style", LOOKS)
def test_auto_is_the_default_and_reads_black_and_wooden_sets(
    tmp_path: Path, style: RenderStyle
) -> None:
    path, truth = _photo(tmp_path, style)
    n = len(truth.tiles)
    (default,) = _read([str(path)])
    (auto,) = _read(["--tone", "auto", str(path)])
    assert default["tiles"] == auto["tiles"]
    right, wrong = _right(auto, truth)
    assert wrong == 0
    assert right >= n - 1, f"{right} of {n} read right"
    (light,) = _read(["--tone", "light", str(path)])
    assert _right(light, truth)[0] <= 1  # a light reading does not see these sets


def test_auto_reads_a_light_set_as_light_does(tmp_path: Path) -> None:
    path, truth = _photo(tmp_path, RenderStyle(tiles=TileStyle.IVORY))
    (auto,) = _read([str(path)])
    (light,) = _read(["--tone", "light", str(path)])
    assert auto["tiles"] == light["tiles"]
    assert _right(auto, truth) == (len(truth.tiles), 0)
