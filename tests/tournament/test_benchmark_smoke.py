"""benchmarks/tournament.py runs end to end (a few tables, a few seconds) and prints its figures."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_tournament_benchmark_prints_throughput_lag_and_memory() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.tournament", "--tables", "4", "--paces", "20",
         "--seconds", "3"],
        cwd=ROOT, capture_output=True, text=True, timeout=90, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    out = run.stdout
    assert re.search(r"through the desk: \d+ messages, [\d,]+/s", out), out
    assert re.search(r"lag, ts to taken in \(\d+ since the desk started\): p50 [\d.]+ ms", out), out
    assert re.search(r"desk: RSS [\d.]+ MB", out), out
    assert "did not catch up" not in out
