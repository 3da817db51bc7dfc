"""benchmarks/latency.py keeps working: a short run against the real service and Mosquitto."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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


def test_the_latency_benchmark_runs_on_a_slow_disk() -> None:
    """`--slow-disk`: the journal on ext4 on a throttled loop device (root, as the tests
    run here and in CI), `--synchronous normal`; everything undone afterwards."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "latency.py"), "--plays", "10", "--starts",
         "1", "--slow-disk", "200", "--synchronous", "normal"],
        capture_output=True, text=True, timeout=240, check=False, cwd=ROOT,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "10 plays in" in out, out
    assert "synchronous=NORMAL, on a slow disk (ext4 on a loop device, 200 writes/s)" in out, out
    assert "the service logged errors" not in out, out
    loops = subprocess.run(
        ["losetup", "--list", "--noheadings"], capture_output=True, text=True, check=True
    )
    assert "slow-disk-" not in loops.stdout, loops.stdout  # the loop device is gone
