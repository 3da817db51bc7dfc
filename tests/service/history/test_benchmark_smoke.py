"""`benchmarks/history.py` still runs: a one-hand game, with the record kept and without,
its plays' latency and the disk it keeps."""

from __future__ import annotations

import re

import pytest

from benchmarks.history import main


@pytest.mark.slow
@pytest.mark.broker
@pytest.mark.timeout(600)  # two camera games of a hand each, read at 10 frames a second
def test_the_cost_of_the_record_is_printed_beside_the_game_without_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--target", "1", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    for kept in ("kept", "off "):
        row = re.search(rf"record {kept}: reading -> event/play p50 ([\d.]+) ms, p90 ([\d.]+) ms, "
                        r"max ([\d.]+) ms over (\d+) plays", out)  # fmt: skip
        assert row is not None and int(row.group(4)) > 3, out
    disks = re.findall(r"disk kept: (\d+) hands, (\d+) events, (\d+) with a picture", out)
    assert len(disks) == 2 and all(int(d[2]) > 0 for d in disks), out
    assert re.search(r"\d+ frames of \d+ kB on average", out), out
    cost = re.search(r"the history thread's CPU ([\d.]+) ms .*, the worker's ([\d.]+) ms", out)
    assert cost is not None and float(cost.group(1)) > 0 and float(cost.group(2)) > 0, out
