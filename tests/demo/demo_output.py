"""What `domino-table demo --source camera` printed, checked against the game the
simulated players made (`tablesim.scenes.sim_whole_game`): every play in order with the
ends' total, every hand's result and scores, the game over, and no alert but the lead
(the camera cannot see who led)."""

from __future__ import annotations

import re

from tablesim.scenes import SimWholeGame


def assert_read_as_played(out: str, game: SimWholeGame) -> None:
    plays = re.findall(r"^hand (\d+): (?:seat \d|\?) plays (\d+-\d+), ends (\d+)", out, re.M)
    assert plays == [(str(p["hand"]), p["tile"], str(p["ends_total"])) for p in game.plays]
    hands = re.findall(r"^hand (\d+) (\w+): (\d) \+(\d+); scores \[(.*)\]$", out, re.M)
    assert hands == [
        (str(h["hand"]), h["result"], str(h["winner"]), str(h["points"]),
         ", ".join(map(str, h["scores"])))
        for h in game.hands
    ]  # fmt: skip
    assert game.over is not None
    assert re.findall(r"^game over: scores \[(.*)\]$", out, re.M) == [
        ", ".join(map(str, game.over["scores"]))
    ]
    assert set(re.findall(r"^alert (\w+)", out, re.M)) == {"LEAD_UNKNOWN"}
