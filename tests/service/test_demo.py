"""`domino-table demo`, the README's first command: a live game on MQTT and the display."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.fixtures.mosquitto import free_port

BIN = Path(sys.executable).parent / "domino-table"


def test_demo_plays_live_and_serves_the_display() -> None:
    port = free_port()
    proc = subprocess.Popen(
        [str(BIN), "demo", "--pace", "0.05", "--seed", "7", "--http-port", str(port)],
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
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as page:
            assert page.status == 200 and b"<html" in page.read().lower()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/view", timeout=10) as view:
            assert b'"demo"' in view.read()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)
    assert proc.returncode == 0, "".join(lines)
