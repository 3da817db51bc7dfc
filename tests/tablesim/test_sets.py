"""Sets of every common kind, drawn: their pips where the truth says, in their colours,
blanks, spinner pins that are not pips, double-nine and double-twelve layouts."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from engine.surface import SeenTile
from tablesim.errors import RenderError
from tablesim.render import (
    SETS,
    Camera,
    Face,
    PipColour,
    PipLayout,
    RenderStyle,
    Scene,
    Spinner,
    TileSet,
    TileStyle,
    pip_layout,
    plastic_set,
    render_frame,
)
from tablesim.render.pip_layouts import GRID
from tablesim.render.scene import Rendered
from tablesim.render.sets import FACE_COLOURS, NUMBER_COLOURS, PIP_COLOURS
from tablesim.render.styles import Surface
from tests.tablesim.pixels import (
    assert_pips_where_truth_says,
    colour_at,
    inside_half,
    marks_in_half,
    near,
)

SIZE = (460.0, 320.0)
FLAT = Camera.overhead(SIZE, (1050, 750), margin_mm=20, keystone=0.0, rotation_deg=0.0)


def _row(pairs: list[tuple[int, int]], tile_mm: tuple[float, float]) -> Scene:
    """Tiles in rows, 1.6 tile lengths apart, every other one turned 90 degrees."""
    length = tile_mm[0]
    tiles = []
    cols = int(SIZE[0] // (1.6 * length))
    for k, (a, b) in enumerate(pairs):
        x = 0.9 * length + (k % cols) * 1.6 * length
        y = 0.9 * length + (k // cols) * 1.6 * length
        q = length / 4
        tiles.append(
            SeenTile(a, b, x, y - q, x, y + q) if k % 2 else SeenTile(a, b, x - q, y, x + q, y)
        )
    return Scene(tuple(tiles), size_mm=SIZE, tile_mm=tile_mm, markers=False, margin_mm=20)


def _render(tiles: TileStyle | TileSet, pairs: list[tuple[int, int]], **style: object) -> Rendered:
    look = replace(RenderStyle.clean(tiles), **style)  # type: ignore[arg-type]
    size = look.tile_set.size_mm
    return render_frame(_row(pairs, size), FLAT, look, seed=3)


def _pairs(highest: int) -> list[tuple[int, int]]:
    """Every number of a set at least once on each side, 0-0 first."""
    tops = list(range(highest + 1))
    return [(0, 0)] + [(n, tops[(n + 5) % len(tops)]) for n in tops[1:]]


@pytest.mark.parametrize("style", list(TileStyle))
def test_every_set_draws_its_pips_where_the_truth_says(style: TileStyle) -> None:
    look = SETS[style]
    pairs = _pairs(look.highest)
    out = _render(style, pairs, surface=Surface.GREEN_FELT)
    assert [(t.tile.a, t.tile.b) for t in out.truth.tiles] == pairs
    for t in out.truth.tiles:
        assert len(t.pips_a_px) == t.tile.a and len(t.pips_b_px) == t.tile.b
        assert inside_half(t, "a", t.pips_a_px) and inside_half(t, "b", t.pips_b_px)
        assert_pips_where_truth_says(out.image, t)


@pytest.mark.parametrize("style", list(TileStyle))
def test_the_truth_gives_each_set_s_colours_and_the_frame_shows_them(style: TileStyle) -> None:
    look = SETS[style]
    out = _render(style, _pairs(look.highest))
    for t in out.truth.tiles:
        assert t.face == look.face
        assert t.pip_colour_a == look.pips[t.tile.a] and t.pip_colour_b == look.pips[t.tile.b]
        for pips, colour in ((t.pips_a_px, t.pip_colour_a), (t.pips_b_px, t.pip_colour_b)):
            for at in pips:
                seen = colour_at(out.image, at)
                if look.engraved:  # burnt in: a dark rim around a lighter floor
                    assert seen.sum() < 0.7 * sum(look.face)
                else:
                    assert near(seen, colour, 55), (t.tile, colour)
        between = (np.array(t.a_px) * 0.25 + np.array(t.b_px) * 0.75).tolist()
        if t.tile.b in (0, 2, 3):  # a spot of bare face a quarter way from the b end
            assert near(colour_at(out.image, (between[0], between[1]), 1), look.face, 45)


def test_double_twelve_ivory_is_big_and_coloured_by_the_usual_code() -> None:
    look = SETS[TileStyle.IVORY_TWELVE]
    assert look.size_mm[0] > 48 and look.highest == 12 and look.layout is PipLayout.COLUMNS
    assert look.pips == NUMBER_COLOURS
    names = {1: "light blue", 2: "green", 3: "red", 5: "dark blue", 6: "yellow", 10: "orange"}
    b, g, r = (np.array([NUMBER_COLOURS[n][i] for n in range(13)]) for i in range(3))
    assert b[1] > r[1] and g[1] > r[1], names[1]
    assert g[2] > b[2] and g[2] > r[2], names[2]
    assert r[3] > 2 * g[3] and r[3] > 2 * b[3], names[3]
    assert b[5] > 2 * g[5] and b[5] > 4 * r[5], names[5]
    assert r[6] > 200 and g[6] > 150 and b[6] < 60, names[6]
    assert r[10] > 200 and 80 < g[10] < 170 and b[10] < 60, names[10]
    assert max(NUMBER_COLOURS[11]) < 40 < min(NUMBER_COLOURS[12])  # 11 black, 12 grey
    assert len(set(NUMBER_COLOURS[1:])) == 12  # a colour of its own for each number
    out = _render(TileStyle.IVORY_TWELVE, [(12, 10), (11, 7)], surface=Surface.DARK_CLOTH)
    for t in out.truth.tiles:
        width = np.linalg.norm(np.array(t.corners_px[0]) - np.array(t.corners_px[3]))
        assert width == pytest.approx(28 * FLAT.px_per_mm((200, 150)), rel=0.02)
        assert_pips_where_truth_says(out.image, t)


@pytest.mark.parametrize("face", list(Face))
@pytest.mark.parametrize("pips", list(PipColour))
def test_plastic_sets_have_bars_and_pips_of_one_colour(face: Face, pips: PipColour) -> None:
    if face.value == pips.value:
        with pytest.raises(RenderError, match="would not show"):
            plastic_set(face, pips)
        return
    look = plastic_set(face, pips)
    assert look.face == FACE_COLOURS[face] and look.divider == PIP_COLOURS[pips]
    out = _render(look, [(5, 3), (6, 0)])
    for t in out.truth.tiles:
        middle = ((t.a_px[0] + t.b_px[0]) / 2, (t.a_px[1] + t.b_px[1]) / 2)
        assert near(colour_at(out.image, middle), PIP_COLOURS[pips], 45), "the bar"
        assert_pips_where_truth_says(out.image, t)


def test_a_pink_set_with_yellow_pips_and_bar() -> None:
    out = _render(TileStyle.PINK_YELLOW, [(4, 2)], surface=Surface.CHECKED_CLOTH)
    t = out.truth.tiles[0]
    b, g, r = colour_at(out.image, t.pips_a_px[0])
    assert r > 200 and g > 170 and b < 90  # yellow
    fb, fg, fr = colour_at(out.image, (t.a_px[0], t.a_px[1]))  # the 4's empty centre
    assert fr > 200 and fb > fg + 20  # pink


@pytest.mark.parametrize("spinner", [Spinner.BRASS, Spinner.SILVER])
def test_a_spinner_pin_is_drawn_at_the_centre_and_is_not_a_pip(spinner: Spinner) -> None:
    look = replace(SETS[TileStyle.IVORY], spinner=spinner)
    out = _render(look, [(0, 1), (1, 1), (0, 0)])
    plain = _render(TileStyle.IVORY, [(0, 1), (1, 1), (0, 0)])
    for t, bare in zip(out.truth.tiles, plain.truth.tiles, strict=True):
        assert t.spinner_px is not None and bare.spinner_px is None
        assert t.spinner_px == pytest.approx(t.centre_px)
        assert (t.pips_a_px, t.pips_b_px) == (bare.pips_a_px, bare.pips_b_px)
        assert len(t.pips_a_px) + len(t.pips_b_px) == t.tile.a + t.tile.b
        b, g, r = colour_at(out.image, t.spinner_px, 1)
        if spinner is Spinner.BRASS:
            assert r > g > b + 40
        else:
            assert abs(r - b) < 25 and 120 < g < 240
        for pip in t.pips_a_px + t.pips_b_px:  # no pip near the pin
            assert np.hypot(pip[0] - t.spinner_px[0], pip[1] - t.spinner_px[1]) > 15
        assert_pips_where_truth_says(out.image, t)


def test_brass_pin_of_the_style_pins_any_set() -> None:
    out = _render(TileStyle.PINK_YELLOW, [(2, 3)], brass_pin=True)
    assert out.truth.tiles[0].spinner_px is not None


@pytest.mark.parametrize("style", [TileStyle.IVORY, TileStyle.BLACK, TileStyle.PINK_YELLOW])
def test_blanks_show_a_bare_face(style: TileStyle) -> None:
    out = _render(style, [(0, 0), (0, 5), (6, 0)])
    for t in out.truth.tiles:
        for half, n in (("a", t.tile.a), ("b", t.tile.b)):
            marks = marks_in_half(out.image, t, half, min_distance=30)
            assert len(marks) == n, f"{t.tile} half {half}"
    assert out.truth.tiles[0].pips_a_px == () == out.truth.tiles[0].pips_b_px


@pytest.mark.parametrize("family", list(PipLayout))
@pytest.mark.parametrize("pips", range(7, 13))
def test_seven_to_twelve_lie_in_three_lines_along_the_tile(family: PipLayout, pips: int) -> None:
    layout = np.array(pip_layout(pips, family))
    assert len(layout) == pips
    assert set(np.round(layout[:, 1], 6)) <= {-GRID, 0.0, GRID}
    outer = [int(np.sum(np.isclose(layout[:, 1], v))) for v in (-GRID, 0.0, GRID)]
    assert outer[0] == outer[2]  # the two outer lines match
    for radius in {look.pip_radius(pips, pips) for look in SETS.values() if look.layout is family}:
        assert np.all(np.abs(layout) + radius <= 1.0)
        gaps = [np.hypot(*(p - q)) for i, p in enumerate(layout) for q in layout[i + 1 :]]
        assert min(gaps) > 2 * radius


def test_the_families_differ_where_sets_differ() -> None:
    assert pip_layout(6, PipLayout.GRID) == pip_layout(6, PipLayout.COLUMNS)
    grid8, cols8 = (np.array(pip_layout(8, f)) for f in PipLayout)
    assert np.sum(np.isclose(grid8[:, 1], 0.0)) == 2  # a ring of eight
    assert np.sum(np.isclose(cols8[:, 1], 0.0)) == 0  # two columns of four
    cols7 = np.array(pip_layout(7, PipLayout.COLUMNS))
    assert sorted(np.round(cols7[:, 0], 6)) == [-0.6, -0.6, 0.0, 0.0, 0.0, 0.6, 0.6]


def test_a_set_needs_a_colour_for_every_number() -> None:
    with pytest.raises(RenderError, match="0 to 12"):
        replace(SETS[TileStyle.IVORY], pips=((0, 0, 0),) * 7)
