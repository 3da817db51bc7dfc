"""`benchmarks/engine.py` still runs against both packages (a fraction of a second each)."""

from __future__ import annotations

import re

from benchmarks.engine import main


def test_benchmark_prints_both_ratios() -> None:
    lines: list[str] = []
    code = main(["--seconds", "0.1", "--rounds", "1", "--verify", "3", "--cpu", "-1"], lines.append)
    assert code == 0
    text = "\n".join(lines)
    for rival in ("dominoes", "all-fives-domino"):
        ratio = re.search(rf"^ours/{rival} on .*: (\d+\.\d+)x hands/s .*(PASS|MISS)$", text, re.M)
        assert ratio is not None, text
        assert float(ratio.group(1)) > 0
