"""`domino-table demo`, the README's first command: a live game on MQTT and the display."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.process

BIN = Path(sys.executable).parent / "domino-table"
DISPLAY = re.compile(r"Display: open http://127\.0\.0\.1:(\d+)/ ")


def test_demo_plays_live_and_serves_the_display() -> None:
    """On `--http-port 0` the display takes a port the system chooses, and the demo
    prints the one it listens on (a port picked by the test beforehand could be taken
    meanwhile by any process's outgoing connection)."""
    proc = subprocess.Popen(
        [str(BIN), "demo", "--pace", "0.05", "--seed", "7", "--http-port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 90
        while sum(" plays " in line for line in lines) < 4 and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
        assert sum(" plays " in line for line in lines) >= 4, "".join(lines)
        [port] = [int(m[1]) for line in lines if (m := DISPLAY.match(line))]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as page:
            assert page.status == 200 and b"<html" in page.read().lower()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/view", timeout=10) as view:
            assert b'"demo"' in view.read()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)
    assert proc.returncode == 0, "".join(lines)


def test_board_demo_plays_one_game_to_the_target_given_and_stops() -> None:
    """`--target 10 --games 1`: hands follow one another (the players wait for the
    table to start each), the game ends at 10 and the demo exits by itself."""
    out = subprocess.run(
        [str(BIN), "demo", "--rules", "straight-block", "--players", "2", "--target", "10",
         "--games", "1", "--pace", "0.02", "--seed", "3", "--http-port", "0"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    text = out.stdout + out.stderr
    assert out.returncode == 0, text
    hands = re.findall(r"^hand (\d+) (?:domino|blocked): (\d) \+(\d+); scores \[(\d+), (\d+)\]$",
                       out.stdout, re.MULTILINE)  # fmt: skip
    assert len(hands) >= 2, text
    assert [int(h[0]) for h in hands] == list(range(1, len(hands) + 1))
    totals = [0, 0]
    for _, seat, points, *_ in hands:
        totals[int(seat)] += int(points)
    assert [int(hands[-1][3]), int(hands[-1][4])] == totals
    before_last = list(totals)
    before_last[int(hands[-1][1])] -= int(hands[-1][2])
    assert max(totals) >= 10 > max(before_last)  # over at the target, not before
    over = re.findall(r"^game over: scores \[(\d+), (\d+)\]$", out.stdout, re.MULTILINE)
    assert over == [(str(totals[0]), str(totals[1]))], text
