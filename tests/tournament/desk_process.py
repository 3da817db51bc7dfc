"""`domino-table tournament` as a real process, and reading what it publishes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.fixtures.mosquitto import free_port
from tests.service.mqtt_recorder import Recorder, Seen

BIN = Path(sys.executable).parent / "domino-table"
STANDINGS = "domino/tournament/standings"


class DeskProcess:
    """The desk in a child process, its page on a free loopback port."""

    def __init__(self, host: str, port: int, state_dir: Path, *extra: str) -> None:
        self.http_port = free_port()
        self.args = [
            str(BIN), "tournament", "--mqtt-host", host, "--mqtt-port", str(port),
            "--http-host", "127.0.0.1", "--http-port", str(self.http_port),
            "--state-dir", str(state_dir), "--publish-interval", "0.05", *extra,
        ]  # fmt: skip
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = state_dir.parent / f"desk-{self.http_port}.log"

    def start(self) -> None:
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                self.args, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True
            )

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.http_port}{path}"

    def get_json(self, path: str, timeout: float = 10.0) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(self.url(path), timeout=2) as response:
                    return json.loads(response.read())
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> int:
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        return self.proc.returncode

    def stderr(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


def standings_seen(seen: list[Seen]) -> list[dict[str, Any]]:
    return [s.json() for s in seen if s.topic == STANDINGS and s.payload]


def wait_standings(rec: Recorder, test: Any, timeout: float = 20.0) -> dict[str, Any]:
    """The first standings (newest first) that pass `test`, waiting for them."""

    def ok(seen: list[Seen]) -> bool:
        return any(test(p) for p in standings_seen(seen))

    seen = rec.wait_for(ok, timeout=timeout)
    return next(p for p in reversed(standings_seen(seen)) if test(p))
