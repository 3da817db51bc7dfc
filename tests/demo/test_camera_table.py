"""`domino-table demo --source camera`: a whole game rendered, read by the camera path,
refereed and printed, hand after hand to game over, then the demo stops (`--games 1`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from demo.camera_table import seat_zones
from tablesim.scenes import sim_whole_game
from tests.demo.demo_output import assert_read_as_played

pytestmark = pytest.mark.process

BIN = Path(sys.executable).parent / "domino-table"


@pytest.mark.slow
@pytest.mark.timeout(600)  # paced at the camera's frame rate, ~20 s of CPU
def test_the_camera_demo_plays_a_whole_game_and_stops() -> None:
    args = ["--rules", "straight-block", "--players", "2", "--target", "10", "--seed", "2"]
    proc = subprocess.run(
        [str(BIN), "demo", "--source", "camera", *args, "--pace", "0.5", "--games", "1",
         "--http-port", "0"],
        capture_output=True, text=True, timeout=480, check=False,
    )  # fmt: skip
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    # the players' own game: a hand gone out, then a blocked one, to 10
    game = sim_whole_game("straight-block", 2, 2, target=10, zones=seat_zones(2, (900, 600)))
    assert [h["result"] for h in game.hands] == ["domino", "blocked"]
    assert_read_as_played(out, game)
