"""The motion gate and stable readings: no reading while a hand moves over the table, a
whole-scene light change is not a move, and a reading must hold before it counts."""

from __future__ import annotations

import pytest

from engine.surface import SeenTile, Snapshot, Unsure
from tablesim.render import RenderStyle, TileStyle, render_sequence
from tablesim.scenes import sim_game
from vision.camera_path.settled import (
    MotionGate,
    StableReadings,
    UnreadableWatch,
    same_reading,
)

GAME = sim_game("straight-block", 2, seed=3, plays=3)
SCENES = [list(s) for s in GAME.scenes]


@pytest.mark.slow
@pytest.mark.parametrize(
    "style", [RenderStyle.clean(TileStyle.IVORY), RenderStyle.harsh(TileStyle.BLACK)]
)
def test_no_frame_with_a_hand_is_settled(style: RenderStyle) -> None:
    gate = MotionGate()
    settled_frames = []
    for item in render_sequence(SCENES[:2], style, 7, still_frames=3):
        motion = gate.update(item.image)
        if gate.settled(motion):
            assert not item.hand_visible, (item.index, motion)
            settled_frames.append(item.index)
        if item.hand_visible and item.truth.hand_fraction > 0.01:
            assert motion.still_for < 2
    # each scene settles: its last still frames pass the gate
    assert len(settled_frames) >= 2


def test_a_light_change_is_not_a_move() -> None:
    def light(i: int) -> float:
        return (1.0, 0.7, 0.7, 1.3, 1.3, 1.0, 0.85, 1.15)[i % 8]

    gate = MotionGate()
    style = RenderStyle(tiles=TileStyle.IVORY)
    for item in render_sequence(SCENES[:1], style, 9, still_frames=8, exposures=light):
        motion = gate.update(item.image)
        if item.index > 0:
            assert not motion.moving, (item.index, item.exposure, motion)


def t(a: int, b: int, x: float, y: float) -> SeenTile:
    return SeenTile(a, b, x, y, x + 24, y)


def test_a_reading_counts_once_it_has_held() -> None:
    stable = StableReadings(hold=3, tolerance_mm=5)
    one = Snapshot((t(6, 6, 450, 300),), 0)
    assert stable.offer(one) is None
    assert stable.offer(Snapshot((t(6, 6, 452, 301),), 0)) is None  # within tolerance
    assert stable.offer(one) == one  # the third in a row
    assert stable.offer(one) is None  # the same again: nothing new
    two = Snapshot((t(6, 6, 450, 300), t(6, 3, 474, 300)), 0)
    assert stable.offer(two) is None and stable.offer(two) is None
    stable.interrupt()  # a hand: start again
    assert stable.offer(two) is None and stable.offer(two) is None
    assert stable.offer(two) == two


def test_a_flickering_reading_never_counts() -> None:
    stable = StableReadings(hold=2)
    a = Snapshot((t(6, 3, 474, 300),), 0)
    b = Snapshot((t(5, 3, 474, 300),), 0)
    assert all(stable.offer(x) is None for x in (a, b, a, b, a, b))


def test_same_reading_compares_places_either_way_round() -> None:
    x = Snapshot((SeenTile(6, 3, 474, 300, 498, 300),), 2)
    flipped = Snapshot((SeenTile(3, 6, 498, 301, 474, 299),), 2)
    assert same_reading(x, flipped, 2.0)
    assert not same_reading(x, Snapshot((SeenTile(6, 3, 484, 300, 508, 300),), 2), 5.0)
    assert not same_reading(x, Snapshot(x.tiles, 3))
    assert not same_reading(x, Snapshot(x.tiles, 2, (Unsure(10, 10, "hand"),)))


def test_unsure_places_that_stand_become_unreadable_and_clear() -> None:
    watch = UnreadableWatch(after_s=3.0)
    unsure = Snapshot((), 0, (Unsure(120, 80, "partly hidden"),))
    assert watch.settled(unsure, 10.0) is None
    assert watch.settled(unsure, 12.5) is None
    spot = watch.settled(unsure, 13.0)
    assert spot is not None and (spot.x_mm, spot.y_mm, spot.since) == (120, 80, 10.0)
    assert watch.settled(unsure, 20.0) == spot  # stands, unchanged
    assert watch.settled(Snapshot((), 0), 21.0) is None and watch.spot is None


@pytest.mark.slow
@pytest.mark.parametrize(
    "style",
    [RenderStyle(tiles=TileStyle.IVORY), RenderStyle.harsh(TileStyle.BLACK)],
    ids=["daylight", "harsh"],
)
def test_a_sudden_light_change_is_relit_not_moving_and_readings_resume(
    style: RenderStyle,
) -> None:
    def light(i: int) -> float:
        return 0.7 if 4 <= i < 8 else (1.3 if i >= 8 else 1.0)

    gate = MotionGate()
    settled = []
    for item in render_sequence(SCENES[:1], style, 9, still_frames=12, exposures=light):
        motion = gate.update(item.image)
        if item.index > 0:
            assert not motion.moving, (item.index, motion)
        if gate.settled(motion):
            settled.append(item.index)
    assert {2, 3, 6, 7, 10, 11} <= set(settled)  # each light settles two frames after it changed
