"""The tournament benchmarks run end to end, tiny, and print their figures."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.process

ROOT = Path(__file__).resolve().parents[2]


def run_benchmark(args: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    """`python -m benchmarks.<args>`; on a time-out, the failure carries what it printed."""
    try:
        return subprocess.run(
            [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True,
            timeout=timeout, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired as exc:
        said = [(x.decode(errors="replace") if isinstance(x, bytes) else x or "")[-3000:]
                for x in (exc.stdout, exc.stderr)]  # fmt: skip
        raise AssertionError(
            f"timed out after {timeout} s; it printed:\n" + "\n".join(said)
        ) from exc


def test_the_standings_benchmark_prints_throughput_lag_and_memory() -> None:
    run = run_benchmark(["benchmarks.tournament_standings", "--tables", "4", "--paces", "20",
                         "--seconds", "3"], timeout=90)  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    out = run.stdout
    assert re.search(r"through the desk: \d+ messages, [\d,]+/s", out), out
    assert re.search(r"lag, ts to taken in \(\d+ since the desk started\): p50 [\d.]+ ms", out), out
    assert re.search(r"desk: RSS [\d.]+ MB", out), out
    assert "did not catch up" not in out


def test_the_event_benchmark_runs_two_rounds_through_a_cut_and_a_restart() -> None:
    run = run_benchmark(["benchmarks.tournament", "--tables", "3", "--rounds", "2", "--outage",
                         "1"], timeout=110)  # fmt: skip
    out = run.stdout
    assert run.returncode == 0, out + run.stderr[-2000:]
    assert "round 1: central broker stopped for 1 s (every link cut)" in out
    assert "round 2: desk SIGKILLed and started again" in out
    assert re.search(r"round 1: seating [\d.]+ ms", out) and re.search(r"round 2: seating", out)
    assert re.search(r"result to standings \(all, 6 results\): p50 \d+ ms, p99 \d+ ms", out), out
    assert re.search(r"desk: RSS [\d.]+ MB", out), out
    assert "standings equal the journal's recomputation: yes" in out
    assert "every table reported every round: yes" in out
