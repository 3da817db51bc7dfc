"""Scenes that make a detector's life hard: tiles at any angle, touching in lines, T and
L layouts, doubles crosswise, near and far tiles, a lone tile in close-up."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from engine.surface import SeenTile
from tablesim.render import Camera, RenderStyle, Scene, TileStyle, render_frame
from tablesim.render.arrangements import corners, ell, line, overlaps, scattered, tee, tile_at
from tablesim.render.styles import Surface
from tests.tablesim.pixels import assert_pips_where_truth_says

TILE = (48.0, 24.0)


def _angle(t: SeenTile) -> float:
    return math.degrees(math.atan2(t.yb - t.ya, t.xb - t.xa)) % 360


def _turn(angle: float, towards: float, period: float = 360.0) -> float:
    """How far `angle` is from `towards`, on a circle of `period` degrees (0 to half)."""
    d = (angle - towards) % period
    return min(d, period - d)


def _span(t: SeenTile, direction: float) -> tuple[float, float]:
    d = np.array([math.cos(math.radians(direction)), math.sin(math.radians(direction))])
    p = corners(t, TILE) @ d
    return float(p.min()), float(p.max())


@pytest.mark.parametrize("angle", [0.0, 37.0, 90.0, 143.5, 211.0, 300.0])
def test_a_tile_lies_at_its_angle_with_its_halves_half_a_tile_apart(angle: float) -> None:
    t = tile_at((3, 5), (100.0, 80.0), angle)
    assert _angle(t) == pytest.approx(angle % 360)
    assert math.dist((t.xa, t.ya), (t.xb, t.yb)) == pytest.approx(24.0)
    assert t.centre == pytest.approx((100.0, 80.0))


@pytest.mark.parametrize("angle", [0.0, 23.0, 90.0, 250.0])
def test_a_line_touches_end_to_end_with_doubles_across(angle: float) -> None:
    pairs = [(1, 2), (2, 2), (2, 5), (5, 0), (0, 0)]
    laid = line(pairs, (200.0, 200.0), angle).tiles
    assert [(t.a, t.b) for t in laid] == pairs
    for first, second in itertools.pairwise(laid):
        assert _span(first, angle)[1] == pytest.approx(_span(second, angle)[0])  # touching
        assert not overlaps(corners(first), corners(second), -0.01)
    for t in laid:
        assert _turn(_angle(t), angle + (90.0 if t.a == t.b else 0.0), 180) < 1e-6
    d = np.array([math.cos(math.radians(angle)), math.sin(math.radians(angle))])
    n = np.array([-d[1], d[0]])
    for t in laid:  # every middle on the line's axis
        assert float((np.array(t.centre) - np.array((200.0, 200.0))) @ n) == pytest.approx(0.0)


@pytest.mark.parametrize("double_in_the_middle", [False, True])
def test_a_tee_meets_the_bar_s_middle_tile_at_a_right_angle(double_in_the_middle: bool) -> None:
    bar = [(1, 3), (3, 3) if double_in_the_middle else (3, 4), (4, 6)]
    stem = [(3, 6), (6, 2)]
    laid = tee(bar, stem, (100.0, 100.0), 30.0).tiles
    top, down = laid[:3], laid[3:]
    middle = top[1]
    for t in down:
        assert _turn(_angle(t), 120.0) < 1e-6
    # the stem's first tile starts at the middle tile's far side, on its centre line
    start, _ = _span(down[0], 120.0)
    assert start == pytest.approx(_span(middle, 120.0)[1])
    assert _span(down[0], 30.0) == pytest.approx(
        tuple(np.mean(_span(middle, 30.0)) + np.array([-12.0, 12.0]))
    )
    assert not any(overlaps(corners(a), corners(b), -0.01) for a in top for b in down)


def test_an_ell_turns_its_corner_flush_with_the_first_line() -> None:
    first, second = [(0, 1), (1, 2), (2, 2)], [(2, 4), (4, 4)]
    laid = ell(first, second, (50.0, 50.0), 0.0).tiles
    one, two = laid[:3], laid[3:]
    assert all(_angle(t) == pytest.approx(0.0) for t in one)  # doubles in line here
    assert all(_angle(t) == pytest.approx(90.0) for t in two)
    corner = two[0]
    # across the first line's end: its x span starts where the line ends ...
    assert _span(corner, 0.0)[0] == pytest.approx(_span(one[-1], 0.0)[1])
    # ... and its outer side is flush with the first line's
    assert _span(corner, 90.0)[0] == pytest.approx(_span(one[-1], 90.0)[0])
    assert _span(two[1], 90.0)[0] == pytest.approx(_span(corner, 90.0)[1])


def test_scattered_tiles_keep_apart_at_any_angle() -> None:
    rng = np.random.default_rng(4)
    pairs = [(a, b) for a in range(7) for b in range(a, 7)][:20]
    area = (0.0, 0.0, 400.0, 300.0)
    laid = scattered(pairs, area, rng, gap_mm=5.0)
    assert len(laid) >= 15
    for i, t in enumerate(laid):
        box = corners(t)
        assert np.all(box >= -1e-9) and np.all(box <= np.array([400.0, 300.0]) + 1e-9)
        for other in laid[i + 1 :]:
            assert not overlaps(box, corners(other), 5.0 - 1e-6)
    angles = [_angle(t) % 180 for t in laid]
    assert np.ptp(angles) > 120 and sum(a % 90 > 5 for a in angles) > len(angles) // 2


@pytest.mark.slow
def test_tiles_at_any_angle_are_drawn_where_the_truth_says() -> None:
    laid = line([(6, 1), (1, 1), (1, 4), (4, 0)], (40.0, 120.0), 37.0).tiles
    laid += tee([(2, 5), (5, 5), (5, 3)], [(5, 6)], (200.0, 40.0), 160.0).tiles
    scene = Scene(laid, size_mm=(340.0, 240.0), markers=False, margin_mm=20)
    cam = Camera.over((170.0, 120.0), 3.5, (1280, 960))
    out = render_frame(scene, cam, RenderStyle.clean(TileStyle.IVORY), seed=1)
    for t in out.truth.tiles:
        seen = math.degrees(math.atan2(t.b_px[1] - t.a_px[1], t.b_px[0] - t.a_px[0])) % 360
        assert _turn(seen, _angle(t.tile)) < 0.01
        assert_pips_where_truth_says(out.image, t)


def _across(cam: Camera, y: float) -> float:
    """Pixels per mm across the frame at row `y` of its middle column."""
    p = cam.px_to_mm([[cam.width / 2, y], [cam.width / 2 + 1, y]])
    return 1 / float(np.linalg.norm(p[1] - p[0]))


def test_the_camera_over_a_point_turns_the_table_and_sees_near_bigger_than_far() -> None:
    flat = Camera.over((100.0, 50.0), 4.0, (800, 600), rotation_deg=30.0)
    x_axis = flat.mm_to_px([101.0, 50.0]) - flat.mm_to_px([100.0, 50.0])
    assert math.degrees(math.atan2(x_axis[1], x_axis[0])) == pytest.approx(30.0)
    assert flat.px_per_mm((100.0, 50.0)) == pytest.approx(4.0)
    assert _across(flat, 0) == pytest.approx(_across(flat, 600))
    cam = Camera.over((100.0, 50.0), 4.0, (800, 600), rotation_deg=30.0, keystone=0.4)
    assert cam.mm_to_px([100.0, 50.0]) == pytest.approx((400.0, 300.0))
    assert _across(cam, 300) == pytest.approx(4.0)
    assert _across(cam, 0) / _across(cam, 600) == pytest.approx(0.6)
    pts = np.array([[10.0, 20.0], [150.0, 90.0]])
    assert cam.px_to_mm(cam.mm_to_px(pts)) == pytest.approx(pts)


@pytest.mark.slow
def test_near_and_far_tiles_differ_in_size_in_one_frame() -> None:
    cam = Camera.over((200.0, 150.0), 3.0, (1280, 960), keystone=0.45)
    near_mm = tuple(cam.px_to_mm([640.0, 880.0]))
    far_mm = tuple(cam.px_to_mm([640.0, 80.0]))
    tiles = (tile_at((2, 6), near_mm, 0.0), tile_at((2, 6), far_mm, 0.0))
    scene = Scene(tiles, size_mm=(400.0, 300.0), markers=False, margin_mm=300)
    # the table reaches far beyond the frame: drawn a little finer than the nearest tile
    # is seen (4.15 px per mm), not at the finest its out-of-view corners would be
    out = render_frame(scene, cam, RenderStyle.clean(TileStyle.BLACK), seed=2, canvas_px_per_mm=4.8)
    near, far = (np.ptp(np.array(t.corners_px)[:, 0]) for t in out.truth.tiles)
    assert far < 0.65 * near
    for t in out.truth.tiles:
        assert_pips_where_truth_says(out.image, t)


def test_a_lone_tile_in_close_up_fills_the_frame() -> None:
    tile = tile_at((0, 5), (30.0, 20.0), 12.0)
    scene = Scene((tile,), size_mm=(60.0, 40.0), markers=False, margin_mm=10)
    cam = Camera.over((30.0, 20.0), 9.0, (640, 480))
    style = RenderStyle(tiles=TileStyle.PINK_YELLOW, surface=Surface.LEATHER)
    out = render_frame(scene, cam, style, seed=3, canvas_px_per_mm=10.0)
    t = out.truth.tiles[0]
    assert math.dist(t.a_px, t.b_px) == pytest.approx(24 * 9.0, rel=0.01)
    clean = render_frame(scene, cam, RenderStyle.clean(TileStyle.PINK_YELLOW), seed=3)
    assert_pips_where_truth_says(clean.image, clean.truth.tiles[0], tolerance_px=1.5)
