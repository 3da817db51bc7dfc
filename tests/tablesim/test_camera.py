"""`SimSource`: a simulated game's frames, the same every time, with the players'
commands given as the frames go by."""

from __future__ import annotations

from typing import Any

import numpy as np

from tablesim.camera import SimSource
from tablesim.render import RenderStyle, TileStyle
from tablesim.scenes import sim_game
from vision.frames import frames


def test_the_simulated_game_is_the_same_every_time() -> None:
    game = sim_game("straight-block", 2, seed=4, plays=3)
    assert game == sim_game("straight-block", 2, seed=4, plays=3)
    assert len(game.scenes) == 3 and [len(s) for s in game.scenes] == [1, 2, 3]
    assert game.told[0][0]["action"] == "lead"
    told: list[dict[str, Any]] = []
    style = RenderStyle.clean(TileStyle.IVORY)
    one = SimSource(game, fps=10, pace_s=0.2, style=style, seed=1, hand_frames=2, tell=told.append)
    two = SimSource(game, fps=10, pace_s=0.2, style=style, seed=1, hand_frames=2)
    a, b = frames(one, 6), frames(two, 6)
    assert all(np.array_equal(x.image, y.image) for x, y in zip(a, b, strict=True))
    assert [f.at for f in a][:3] == [0.0, 0.1, 0.2]
    assert told and told[0]["action"] == "lead" and told[0]["id"]
