"""`benchmarks/camera.py` still runs: one short rendered game (ivory on green felt, the
easy one) through the pipeline and the reconciler, every figure printed, and the game's
plays all accepted (no false play, none missed); the CPU per frame with the camera's
view off and on, and its snapshots."""

from __future__ import annotations

import re

import pytest

from benchmarks.camera import main


@pytest.mark.slow
def test_one_short_game_is_read_and_judged(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "1", "--plays", "3"]) == 0
    out = capsys.readouterr().out
    row = re.search(r"^ +0 +ivory +green_felt .* (\d+) +(\d+)/(\d+) +(\d+) +(\d+) ", out, re.M)
    assert row is not None, out
    plays, right, tiles, false, missed = map(int, row.groups())
    assert plays == 3 and right == tiles > 0 and false == 0 and missed == 0, out
    for figure in ("per-tile accuracy", "judged ones", "false plays", "missed plays",
                   "ms per read frame", "view off", "view on", "snapshots"):  # fmt: skip
        assert re.search(rf"^ *{figure} ", out, re.M), figure
    off = re.search(r"^view off +([\d.]+) ", out, re.M)
    on = re.search(r"^view on +([\d.]+) ", out, re.M)
    assert off and on and float(on[1]) >= float(off[1]), out
