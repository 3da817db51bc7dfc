"""`domino-table demo --source camera`: a whole game rendered, read by the camera path,
refereed and printed, hand after hand to game over, then the demo stops (`--games 1`).
The game is the one `tests.fixtures.camera_demo` plays once for the tests that read it."""

from __future__ import annotations

import pytest

from demo.camera_table import seat_zones
from tablesim.scenes import sim_whole_game
from tests.demo.demo_output import assert_read_as_played
from tests.fixtures.camera_demo import CAMERA_DEMO_ARGS, CAMERA_DEMO_GROUP, CameraDemo

pytestmark = [pytest.mark.process, CAMERA_DEMO_GROUP]


@pytest.mark.slow
@pytest.mark.timeout(600)  # paced at the camera's frame rate, ~20 s of CPU
def test_the_camera_demo_plays_a_whole_game_and_stops(camera_demo: CameraDemo) -> None:
    args = ["--rules", "straight-block", "--players", "2", "--target", "10", "--seed", "2"]
    assert " ".join(args) in " ".join(CAMERA_DEMO_ARGS)  # the game below is the demo's
    out = camera_demo.stdout
    assert camera_demo.returncode == 0, out + camera_demo.stderr
    # the players' own game: a hand gone out, then a blocked one, to 10
    game = sim_whole_game("straight-block", 2, 2, target=10, zones=seat_zones(2, (900, 600)))
    assert [h["result"] for h in game.hands] == ["domino", "blocked"]
    assert_read_as_played(out, game)
