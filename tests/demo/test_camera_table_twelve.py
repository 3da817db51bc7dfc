"""`domino-table demo --source camera --set ivory-twelve --rules walnut --players 5`: a
double-twelve game with a colour per number (a lavender 7, a grey 12 beside a black
11), rendered at 2028 x 1520, read by the camera path, refereed and scored to its
target: every play the players made, the hand counted from the seat zones, game over."""

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
@pytest.mark.timeout(900)  # about 4 minutes on the loaded 2-core machine
def test_a_double_twelve_game_with_coloured_pips_is_read_to_its_score() -> None:
    # seed 1 to 80: a spinner 11-11, 33 plays with every number but 0 on the table
    # (7s beside 6s, 12-12 not among them), one hand gone out and counted from the
    # zones, where the losers' tiles lie face up
    args = ["--rules", "walnut", "--players", "5", "--target", "80", "--seed", "1"]
    proc = subprocess.run(
        [str(BIN), "demo", "--source", "camera", "--set", "ivory-twelve", *args,
         "--pace", "0.5", "--games", "1", "--no-pin", "--http-port", "0"],
        capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    game = sim_whole_game(
        "walnut", 5, 1, target=80, zones=seat_zones(5, (900, 600)), tile_mm=(56.0, 28.0)
    )
    assert len(game.plays) == 33 and [h["result"] for h in game.hands] == ["domino"]
    assert_read_as_played(out, game)
