"""`benchmarks/engine.py` still runs against both packages (a fraction of a second each),
and so does its floor, `benchmarks/engine_floor.py`."""

from __future__ import annotations

import random
import re

import pytest

from benchmarks import engine_floor as floor
from benchmarks.engine import main


@pytest.mark.slow
def test_benchmark_prints_both_ratios() -> None:
    lines: list[str] = []
    code = main(["--seconds", "0.1", "--rounds", "1", "--verify", "3", "--cpu", "-1"], lines.append)
    assert code == 0
    text = "\n".join(lines)
    for rival in ("dominoes", "all-fives-domino"):
        ratio = re.search(rf"^ours/{rival} on .*: (\d+\.\d+)x hands/s .*(PASS|MISS)$", text, re.M)
        assert ratio is not None, text
        assert float(ratio.group(1)) > 0
    for ruleset in ("puerto-rico", "walnut"):  # both of our paths, each with its ratios
        for path in ("ours", "ours play-out"):
            row = re.search(rf"^{path} \({ruleset}\) .* (\d+\.\d+)x +(\d+\.\d+)x$", text, re.M)
            assert row is not None, text


def test_the_floor_plays_whole_hands_and_prints_the_ratio(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rng = random.Random(3)
    for _ in range(50):  # every hand ends, having laid the lead and at most the 28 tiles
        assert 1 <= floor.bare_hand(rng) <= 28
    assert floor.main(["--hands", "40"]) == 0
    out = capsys.readouterr().out
    ratio = re.search(r"^bare / dominoes: (\d+\.\d+)x", out, re.M)
    assert ratio is not None and float(ratio.group(1)) > 0, out


def test_one_engine_plays_untimed_hands_for_counting() -> None:
    lines: list[str] = []
    args = ["--count", "ours play-out (walnut)", "--verify", "2", "--hands", "3"]
    assert main(args, lines.append) == 0
    assert lines == ["ours play-out (walnut): 2 verified and 3 more hands played"]
    assert main(["--count", "nobody", "--verify", "1"], lines.append) == 2
