"""Double-twelve tiles with a colour per number: 7 to 12 pips in three lines along the
half, and pale colours (a lavender 7, a grey 12) beside dark ones (a black 11, a purple
9). The frame's mark threshold suits the dark pips; pale pips fall short of it and are
read as marks too small to be pips, so the half is looked at again with its own
threshold (`search_pass._read_tile`). Before, every tile with a lavender 7 beside
darker pips was left unsure ("marks that are not pips")."""

from __future__ import annotations

import numpy as np
import pytest

from engine.surface import SeenTile
from engine.tiles import DominoSet
from tablesim.render import Camera, RenderStyle, Scene, TileStyle, render_frame
from tests.vision.drawn import Look, blur, draw, table
from vision.detector.detect import Settings, detect
from vision.tiles.dark_marks import Tone

# the usual double-twelve colour code (BGR), by number 0..12
COLOURS = (
    (0, 0, 0),
    (225, 175, 70),  # light blue
    (60, 160, 40),  # green
    (55, 45, 210),  # red
    (40, 85, 135),  # brown
    (160, 50, 20),  # dark blue
    (25, 195, 240),  # yellow
    (205, 125, 215),  # lavender
    (40, 95, 25),  # dark green
    (150, 35, 105),  # purple
    (20, 125, 245),  # orange
    (28, 28, 28),  # black
    (125, 125, 125),  # grey
)
IVORY, FELT, CLOTH = (200, 228, 240), (50, 120, 40), (45, 40, 40)
LOOK = Look(face=IVORY, pips=COLOURS, divider=(60, 60, 60), pip_share=0.13)


def frame(values: list[tuple[int, int]], under: tuple[int, int, int], width: float) -> np.ndarray:
    cols = 10
    img = table(round(2.6 * width) * (1 + (len(values) - 1) // cols) + 40, 1900, under)
    for i, value in enumerate(values):
        r, c = divmod(i, cols)
        centre = (90.0 + c * 1.8 * width, 20 + 1.3 * width + r * 2.6 * width)
        draw(img, centre, value, 90.0 + (17.0 if i % 3 == 0 else 0.0), width, LOOK)
    return blur(img, 1.0)


def read(img: np.ndarray) -> list[tuple[int, int]]:
    det = detect(img, settings=Settings(tone=Tone.LIGHT))
    return sorted(tuple(sorted(t.pips)) for t in det.tiles)  # type: ignore[misc]


@pytest.mark.parametrize("width", [40.0, 44.0, 50.0])
def test_pale_sevens_beside_dark_pips_are_read(width: float) -> None:
    """Each half read against its own pip when the frame's does not fit (a black 11's
    pips and the chains of its merged columns of four are twice the frame's median
    pip, a lavender 7's smaller)."""
    values = [(7, 7), (7, 12), (1, 7), (6, 7), (12, 11), (9, 8), (10, 7), (7, 4), (11, 11)]
    assert read(frame(values, FELT, width)) == sorted(tuple(sorted(v)) for v in values)


@pytest.mark.parametrize("under", [FELT, CLOTH])
def test_every_tile_of_a_double_twelve_set_is_read(under: tuple[int, int, int]) -> None:
    tiles = [(t.low, t.high) for t in DominoSet.DOUBLE_TWELVE.tiles()]
    got = read(frame(tiles, under, 46.0))
    assert got == sorted(tiles)


@pytest.mark.parametrize("width", [44.0, 50.0])
def test_a_paler_seven_the_faint_look_saw_is_read_by_its_own_threshold(width: float) -> None:
    """A paler lavender beside yellow 6s: the frame's threshold leaves its pips as specks
    and the half reads blank; the faint look sees seven pips (before: the tile was
    only unsure), and the half's own threshold reads seven surely: both agree."""
    paler = Look(face=IVORY, pips=(*COLOURS[:7], (210, 140, 220), *COLOURS[8:]),
                 divider=(60, 60, 60), pip_share=0.13)  # fmt: skip
    values = [(6, 7), (6, 6), (11, 6), (6, 2), (6, 5), (7, 2)]
    img = table(220, 900, FELT)
    for i, value in enumerate(values):
        draw(img, (60.0 + i * 2.05 * width, 110.0), value, 0.0, width, paler)
    assert read(blur(img, 1.0)) == sorted(tuple(sorted(v)) for v in values)


def test_a_double_crosswise_between_touching_tiles_is_read() -> None:
    """A double laid crosswise between two tiles it touches: each run along its divider
    went on into a neighbour and stopped at that neighbour's centre pip, so it measured
    its tile too wide, and it was dropped as no tile of the frame's size."""
    w = 44.0
    img = table(500, 700, FELT)
    draw(img, (350, 250), (7, 7), 0.0, w, LOOK)
    draw(img, (350 - w / 2, 250 - w), (12, 7), 0.0, w, LOOK)  # its 7 over the divider
    draw(img, (350, 250 + 1.5 * w), (7, 8), 90.0, w, LOOK)  # its 7 under it
    draw(img, (350 + 3.5 * w, 250), (3, 1), 0.0, w, LOOK)
    assert read(blur(img, 1.0)) == [(1, 3), (7, 7), (7, 8), (7, 12)]


# A double-twelve game's layout (walnut, five players: a spinner 11-11 with its arms),
# tiles of 56 x 28 mm as a big double-twelve set's, in table mm
LAYOUT = (
    SeenTile(11, 11, 450, 286, 450, 314),
    SeenTile(11, 8, 450, 258, 450, 230),
    SeenTile(8, 7, 450, 202, 450, 174),
    SeenTile(11, 3, 450, 342, 450, 370),
    SeenTile(7, 7, 436, 146, 464, 146),  # crosswise between 8-7 and 12-7
    SeenTile(11, 6, 478, 300, 506, 300),
    SeenTile(6, 6, 534, 286, 534, 314),
    SeenTile(7, 6, 590, 300, 562, 300),  # a lavender 7 beside yellow 6s
    SeenTile(11, 10, 422, 300, 394, 300),
    SeenTile(4, 3, 450, 426, 450, 398),
    SeenTile(10, 5, 366, 300, 338, 300),
    SeenTile(5, 1, 310, 300, 282, 300),
    SeenTile(7, 2, 618, 300, 646, 300),
    SeenTile(6, 2, 702, 300, 674, 300),
    SeenTile(6, 5, 730, 300, 758, 300),
    SeenTile(10, 1, 226, 300, 254, 300),
    SeenTile(7, 4, 450, 482, 450, 454),
    SeenTile(9, 5, 786, 272, 786, 300),
    SeenTile(9, 2, 786, 244, 786, 216),
    SeenTile(12, 7, 422, 118, 450, 118),
)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_rendered_double_twelve_layout_is_read_whole(seed: int) -> None:
    """The renderer's colour-coded double-twelve, as the double-twelve camera demo sees
    it (2028 x 1520 over the 900 x 600 mm table): the spinner, its arms and a double
    crosswise between two tiles, all read, nothing unsure."""
    scene = Scene(tiles=LAYOUT, tile_mm=(56.0, 28.0))
    camera = Camera.overhead(resolution=(2028, 1520))
    image = render_frame(scene, camera, RenderStyle(TileStyle.IVORY_TWELVE), seed=seed).image
    det = detect(image, settings=Settings(tone=Tone.LIGHT))
    assert det.unsure == ()
    assert sorted(sorted(t.pips) for t in det.tiles) == sorted(sorted((t.a, t.b)) for t in LAYOUT)
