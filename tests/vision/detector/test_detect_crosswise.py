"""Crosswise doubles between touching neighbours, on rendered frames.

A double laid across a line of play touches a neighbour on each long side; its
divider runs to those sides, where the gaps between the tiles are. The camera demo
(`sim_game(seed=0)`, scene 7) lost such a 2-2 the moment the 2-1 was laid against
it: at the divider's contrast the divider and the gap merged into one T-shaped mark
that was no divider. Here nine such groups of three (some lines running down the
frame, at odd offsets so the tile edges fall anywhere on the pixel grid) are read in
several sets and on several tables, and every tile must be read right.
"""

from __future__ import annotations

import pytest

from engine.surface import SeenTile
from tablesim.render import Camera, Lighting, RenderStyle, Scene, Surface, TileStyle, render_frame
from tablesim.render.scene import Truth
from tests.vision.scoring import score
from vision.detector.detect import Detection, Settings, detect
from vision.tiles.dark_marks import Tone

# (double, the neighbour before it, the neighbour after it)
GROUPS = [
    (2, (3, 2), (2, 1)),
    (5, (6, 5), (5, 4)),
    (4, (1, 4), (4, 6)),
    (6, (3, 6), (6, 0)),
    (3, (0, 3), (3, 5)),
    (1, (4, 1), (1, 0)),
]


def _group(cx: float, cy: float, double: int, before: tuple[int, int], after: tuple[int, int],
           down: bool) -> list[SeenTile]:  # fmt: skip
    """A double across a line of play at (cx, cy) mm, a neighbour touching each side."""

    def at(u: float, v: float) -> tuple[float, float]:
        return (cx + v, cy + u) if down else (cx + u, cy + v)

    return [
        SeenTile(double, double, *at(0, -12), *at(0, 12)),
        SeenTile(before[0], before[1], *at(-48, 0), *at(-24, 0)),
        SeenTile(after[0], after[1], *at(24, 0), *at(48, 0)),
    ]


def _scene() -> Scene:
    tiles: list[SeenTile] = []
    k = 0
    for j, y in enumerate((120.0, 300.0, 480.0)):
        for i, x in enumerate((150.0, 450.0, 750.0)):
            double, before, after = GROUPS[k % len(GROUPS)]
            k += 1
            tiles += _group(x + 3.7 * j + 1.3 * i, y + 2.1 * i, double, before, after, k % 3 == 0)
    return Scene().with_tiles(tuple(tiles))


def _score(det: Detection, truth: Truth) -> tuple[int, int, int]:
    """(tiles read right, doubles read right, tiles in a true tile's place read wrong)."""
    scored = score(det, truth)
    doubles = sum(t.tile.a == t.tile.b for t in scored.right)
    return len(scored.right), doubles, scored.wrong


STYLES = [
    pytest.param(RenderStyle(tiles=TileStyle.IVORY), Tone.LIGHT, id="ivory-felt"),
    pytest.param(
        RenderStyle(tiles=TileStyle.IVORY, surface=Surface.DARK_GLOSSY, lighting=Lighting.LAMP),
        Tone.LIGHT,
        id="ivory-glossy-lamp",
    ),
    pytest.param(
        RenderStyle(tiles=TileStyle.BLACK, surface=Surface.WOOD), Tone.DARK, id="black-wood"
    ),
    pytest.param(RenderStyle(tiles=TileStyle.COLOURED), Tone.LIGHT, id="coloured-felt"),
]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize(("style", "tone"), STYLES)
def test_a_crosswise_double_between_touching_neighbours_is_read(
    style: RenderStyle, tone: Tone, seed: int
) -> None:
    scene = _scene()
    cam = Camera.overhead(scene.size_mm, margin_mm=scene.margin_mm)
    out = render_frame(scene, cam, style, seed, frame=3)
    det = detect(out.image, settings=Settings(tone=tone))
    right, doubles, wrong = _score(det, out.truth)
    assert wrong == 0
    assert doubles == 9, f"{doubles} of 9 crosswise doubles read right"
    assert right == len(out.truth.tiles), f"{right} of {len(out.truth.tiles)} read right"
    assert len(det.tiles) == right
