"""benchmarks/latency.py keeps working: a short run against the real service and Mosquitto."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.process

ROOT = Path(__file__).resolve().parents[2]


def test_the_latency_benchmark_runs_and_prints_its_figures() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "latency.py"), "--plays", "15", "--starts", "1"],
        capture_output=True, text=True, timeout=240, check=False, cwd=ROOT,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "15 plays in" in out, out
    for figure in ("p99", "VmHWM", "start-up to online, empty state", "on the run's journal"):
        assert figure in out, out
    assert "the service logged errors" not in out, out
    # the table keeps the record of its games, as it does by default
    assert re.search(r"the record of games: kept, \d+ games: events and inputs \d+ kB", out), out


def test_the_latency_benchmark_runs_on_a_slow_disk() -> None:
    """`--fsync-delay 20 --synchronous normal`: the service's fsyncs slowed down, the
    journal's setting passed on; the probe shows the delay (a FULL commit waits for it).
    `--no-history`: the table keeps no record of games."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "latency.py"), "--plays", "10", "--starts",
         "1", "--fsync-delay", "20", "--synchronous", "normal", "--no-history"],
        capture_output=True, text=True, timeout=240, check=False, cwd=ROOT,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "10 plays in" in out, out
    found = re.search(
        r"synchronous=NORMAL, on the temporary folder, every fsync 20 ms slower: an SQLite "
        r"commit takes ([\d.]+) ms \(max \d+ ms\) with FULL, ([\d.]+) ms with NORMAL",
        out,
    )
    assert found, out
    assert float(found[1]) >= 20 > float(found[2])  # only FULL syncs at every commit
    assert "the service logged errors" not in out, out
    assert "the record of games: not kept" in out, out
