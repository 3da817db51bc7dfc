"""A game rendered as frames, with hands passing between placements."""

from __future__ import annotations

import numpy as np
import pytest

from engine.surface import SeenTile
from tablesim.render import FaceDownTile, RenderStyle, Scene
from tablesim.render.sequence import render_sequence

DOUBLE = SeenTile(6, 6, 450, 288, 450, 312)
RIGHT = SeenTile(6, 3, 474, 300, 498, 300)
LEFT = SeenTile(6, 1, 426, 300, 402, 300)
GAME = [[DOUBLE], [DOUBLE, RIGHT], [DOUBLE, RIGHT, LEFT]]


@pytest.mark.slow
def test_hands_pass_between_placements_and_the_table_settles() -> None:
    frames = list(render_sequence(GAME, seed=3, still_frames=3, hand_frames=6))
    assert len(frames) == 3 + 2 * (6 + 3)
    assert [f.index for f in frames] == list(range(len(frames)))
    hands = [f.hand_visible for f in frames]
    assert hands == [False] * 3 + ([True] * 6 + [False] * 3) * 2
    # the hand reaches furthest in the middle of its pass
    fractions = [f.truth.hand_fraction for f in frames[3:9]]
    assert fractions[2] > fractions[0] and fractions[3] > fractions[5]
    # the table changes while the hand is over it, at its furthest reach
    assert [f.scene_index for f in frames[3:12]] == [0, 0, 0, 1, 1, 1, 1, 1, 1]
    # settled: the second and later hand-free frames of a scene
    assert [f.settled for f in frames[9:12]] == [False, True, True]
    assert frames[-1].truth.tiles[-1].tile == LEFT


def test_the_hand_reaches_the_new_tile() -> None:
    frames = list(render_sequence(GAME[:2], seed=8, still_frames=1, hand_frames=4))
    placing = frames[1 + 2]  # the first frame showing the new tile, under the hand
    new = next(t for t in placing.truth.tiles if t.tile == RIGHT)
    assert new.occluded


def test_without_hands_every_frame_is_still_and_only_noise_differs() -> None:
    frames = list(render_sequence(GAME, RenderStyle(), seed=1, hands=False, still_frames=2))
    assert len(frames) == 6
    assert not any(f.hand_visible for f in frames)
    a, b = (f.image.astype(np.int16) for f in frames[:2])
    assert 0 < np.abs(a - b).mean() < 4


def test_sequences_are_deterministic_and_accept_scenes() -> None:
    scenes = [Scene((DOUBLE,)), Scene((DOUBLE, RIGHT))]
    first = [f.image for f in render_sequence(scenes, seed=2, still_frames=1, hand_frames=2)]
    again = [f.image for f in render_sequence(scenes, seed=2, still_frames=1, hand_frames=2)]
    assert len(first) == 4
    assert all(np.array_equal(x, y) for x, y in zip(first, again, strict=True))


def test_the_hand_reaches_a_tile_drawn_from_the_boneyard() -> None:
    pile = (FaceDownTile(150, 500, 0), FaceDownTile(760, 500, 90))
    scenes = [Scene((DOUBLE,), pile), Scene((DOUBLE,), pile[:1])]
    frames = list(render_sequence(scenes, seed=4, still_frames=1, hand_frames=4))
    reaching = frames[1 + 1]  # furthest reach, the tile still there
    assert reaching.truth.facedown[1].occluded
    assert not reaching.truth.facedown[0].occluded


def test_a_passing_cloud_dims_settled_frames_without_unsettling_them() -> None:
    def cloud(i: int) -> float:
        return 0.7 if i in (3, 4) else 1.0

    frames = list(render_sequence(GAME[:1], seed=1, hands=False, still_frames=6, exposures=cloud))
    assert [f.exposure for f in frames] == [1.0, 1.0, 1.0, 0.7, 0.7, 1.0]
    assert [f.settled for f in frames] == [False] + [True] * 5
    bright, dim = (float(f.image.mean()) for f in frames[2:4])
    assert dim < 0.8 * bright
