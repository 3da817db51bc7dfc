"""A double-twelve game with coloured pips through the camera demo's plumbing: the demo's
set, tile size, tone and seat zones for five players reach the simulated camera, and
its frames' truth is the game's (what the detector reads is the detector's business)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from demo.camera_table import demo_look, seat_zones, zones_setting
from demo.options import DEMO_SETS
from demo.sim_camera import SimOptions, frames
from service.camera.source import CameraSource
from service.flags import settings_from_flags
from tablesim.camera import SimSource
from tablesim.render import SETS, RenderStyle, TileStyle
from tablesim.render.sets import NUMBER_COLOURS
from tablesim.scenes import SimWholeGame, sim_whole_game
from tests.tablesim.pixels import colour_at, inside_half, near

SURFACE = (900, 600)


def test_the_demo_offers_every_shipped_set() -> None:
    assert set(DEMO_SETS) == {s.value for s in TileStyle}


@pytest.mark.parametrize(
    ("rules", "players", "expected", "tile", "tone"),
    [
        ("walnut", 4, "ivory", (48, 24), "light"),
        ("walnut", 5, "ivory-twelve", (56, 28), "light"),
        ("walnut", 10, "ivory-twelve", (56, 28), "light"),
    ],
)
def test_auto_picks_the_set_of_the_game_s_size(
    rules: str, players: int, expected: str, tile: tuple[int, int], tone: str
) -> None:
    look = demo_look(rules, players, "auto")
    assert look.name == expected
    assert look.flags == {"tile_mm": tile, "tone": tone}
    assert look.resolution == ((2028, 1520) if players > 4 else (1280, 960))
    assert look.style() == RenderStyle(tiles=TileStyle(expected))


def test_a_chosen_set_brings_its_tone() -> None:
    assert demo_look("straight-block", 2, "black").flags["tone"] == "dark"
    assert demo_look("straight-block", 2, "wood").flags["tone"] == "grey"
    assert demo_look("straight-block", 2, "red-white").flags["tone"] == "auto"
    assert demo_look("straight-block", 2, "pink-yellow").flags["tone"] == "light"


@pytest.mark.parametrize("seats", range(2, 11))
def test_every_seat_has_its_own_zone_along_the_sides(seats: int) -> None:
    zones = seat_zones(seats, SURFACE)
    assert sorted(zones) == list(range(seats))
    boxes = list(zones.values())
    for x0, y0, x1, y1 in boxes:
        assert 0 <= x0 < x1 <= 900 and 0 <= y0 < y1 <= 600
        assert min(x1 - x0, y1 - y0) == 90  # a strip along a side
        assert x0 == 0 or y0 == 0 or x1 == 900 or y1 == 600
        for cx, cy in ((0, 0), (900, 0), (900, 600), (0, 600)):  # the markers' corners
            assert not (x0 < cx + 60 and cx - 60 < x1 and y0 < cy + 60 and cy - 60 < y1)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    # going round: the zones' centres turn clockwise on screen about the table's
    # centre (y points down), once round in all
    angles = [np.arctan2((y0 + y1) / 2 - 300, (x0 + x1) / 2 - 450) for x0, y0, x1, y1 in boxes]
    turns = np.diff([*angles, angles[0]]) % (2 * np.pi)
    assert np.all((turns > 0) & (turns <= np.pi + 1e-9))
    assert turns.sum() == pytest.approx(2 * np.pi)
    settings = settings_from_flags(None, {"seats": seats}, more=zones_setting(zones))
    assert settings.zones == {s: tuple(z) for s, z in zones.items()}


@pytest.fixture(scope="module")
def game() -> SimWholeGame:
    tile = demo_look("walnut", 5, "auto").flags["tile_mm"]
    return sim_whole_game("walnut", 5, 3, zones=seat_zones(5, SURFACE), tile_mm=tile)


@pytest.mark.slow
def test_the_demo_settings_carry_the_set_to_the_simulated_camera(
    tmp_path: Path, game: SimWholeGame
) -> None:
    look = demo_look("walnut", 5, "auto")
    flags = {"camera": "sim", "fps": 10, "rules": "walnut", "seats": 5}
    flags |= {"surface": SURFACE, "state_dir": tmp_path}
    more = look.settings() | zones_setting(seat_zones(5, SURFACE))
    settings = settings_from_flags(None, flags, more=more)
    assert (settings.table.tile_mm.length, settings.table.tile_mm.width) == (56, 28)
    assert settings.camera.tone.value == "light"
    options = SimOptions(3, 0.5, whole_game=True, style=look.style(), resolution=look.resolution)
    made = CameraSource(settings, lambda _: None, source=frames(options))._make()
    assert isinstance(made, SimSource)
    frame = made.read()
    assert frame is not None and frame.image.shape == (1520, 2028, 3)
    assert made.style.tile_set == SETS[TileStyle.IVORY_TWELVE]
    assert made.game.tile_mm == (56.0, 28.0) and made.game.size_mm == (900.0, 600.0)
    assert made.game.scenes == game.scenes and made.game.told == game.told


def test_the_double_twelve_game_is_laid_out_for_its_big_tiles(game: SimWholeGame) -> None:
    tiles = {(t.a, t.b) for scene in game.scenes for t in scene}
    assert max(max(pair) for pair in tiles) == 12
    assert sum(max(pair) >= 10 for pair in tiles) >= 5
    zones = dict(game.zones)
    for scene in game.scenes:
        for t in scene:
            assert t.a <= 12 and t.b <= 12
            assert np.hypot(t.xb - t.xa, t.yb - t.ya) == pytest.approx(28.0)  # half a tile
    for a, scene in enumerate(game.scenes):  # no two tiles of a scene overlap
        boxes = [_box(t) for t in scene]
        for i, p in enumerate(boxes):
            for q in boxes[i + 1 :]:
                assert (
                    p[2] <= q[0] + 1e-6
                    or q[2] <= p[0] + 1e-6
                    or p[3] <= q[1] + 1e-6
                    or q[3] <= p[1] + 1e-6
                ), a
    assert zones == {s: tuple(map(float, z)) for s, z in seat_zones(5, SURFACE).items()}


def _box(t: object) -> tuple[float, float, float, float]:
    xa, ya, xb, yb = (getattr(t, k) for k in ("xa", "ya", "xb", "yb"))
    r = 14.0
    return (min(xa, xb) - r, min(ya, yb) - r, max(xa, xb) + r, max(ya, yb) + r)


def test_the_frames_show_the_game_s_tiles_in_their_colours(game: SimWholeGame) -> None:
    style = RenderStyle.clean(TileStyle.IVORY_TWELVE)
    source = SimSource(game, fps=10, pace_s=0.1, style=style, seed=3, hand_frames=0)
    checked = 0
    while (frame := source.read()) is not None:
        seen = source.last
        assert seen is not None
        truth = seen.truth
        assert [t.tile for t in truth.tiles] == list(game.scenes[seen.scene_index])
        for t in truth.tiles:
            width = np.linalg.norm(np.array(t.corners_px[0]) - np.array(t.corners_px[3]))
            assert width == pytest.approx(28 * truth.camera.px_per_mm(t.tile.centre), rel=0.05)
            assert inside_half(t, "a", t.pips_a_px) and inside_half(t, "b", t.pips_b_px)
            for n, pips in ((t.tile.a, t.pips_a_px), (t.tile.b, t.pips_b_px)):
                assert len(pips) == n
                if n >= 10 and seen.index % 7 == 0:  # look at the high numbers' colours
                    for at in pips:
                        assert near(colour_at(frame.image, at), NUMBER_COLOURS[n], 60)
                    checked += 1
        if seen.scene_index >= 12:
            break
    assert checked >= 4
