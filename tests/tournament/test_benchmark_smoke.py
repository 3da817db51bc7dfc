"""The tournament benchmarks run end to end, tiny, and print their figures."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_standings_benchmark_prints_throughput_lag_and_memory() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.tournament_standings", "--tables", "4", "--paces",
         "20", "--seconds", "3"],
        cwd=ROOT, capture_output=True, text=True, timeout=90, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    out = run.stdout
    assert re.search(r"through the desk: \d+ messages, [\d,]+/s", out), out
    assert re.search(r"lag, ts to taken in \(\d+ since the desk started\): p50 [\d.]+ ms", out), out
    assert re.search(r"desk: RSS [\d.]+ MB", out), out
    assert "did not catch up" not in out


def test_the_event_benchmark_runs_two_rounds_through_a_cut_and_a_restart() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.tournament", "--tables", "3", "--rounds", "2",
         "--outage", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=110, check=False,
    )  # fmt: skip
    out = run.stdout
    assert run.returncode == 0, out + run.stderr[-2000:]
    assert "round 1: central broker stopped for 1 s (every link cut)" in out
    assert "round 2: desk SIGKILLed and started again" in out
    assert re.search(r"round 1: seating [\d.]+ ms", out) and re.search(r"round 2: seating", out)
    assert re.search(r"result to standings \(all, 6 results\): p50 \d+ ms, p99 \d+ ms", out), out
    assert re.search(r"desk: RSS [\d.]+ MB", out), out
    assert "standings equal the journal's recomputation: yes" in out
    assert "every table reported every round: yes" in out
