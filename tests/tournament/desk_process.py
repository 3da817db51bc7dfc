"""`domino-table tournament` as a real process, and reading what it publishes."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.fixtures.mosquitto import free_port
from tests.fixtures.process import BIN, ChildProcess
from tests.service.mqtt_recorder import Recorder, Seen

STANDINGS = "domino/tournament/standings"


class DeskProcess(ChildProcess):
    """The desk in a child process, its page on a free loopback port."""

    def __init__(self, host: str, port: int, state_dir: Path, *extra: str) -> None:
        self.http_port = free_port()
        args = [
            str(BIN), "tournament", "--mqtt-host", host, "--mqtt-port", str(port),
            "--http-host", "127.0.0.1", "--http-port", str(self.http_port),
            "--state-dir", str(state_dir), "--publish-interval", "0.05", *extra,
        ]  # fmt: skip
        super().__init__(args, state_dir.parent / f"desk-{self.http_port}.log")

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


def standings_seen(seen: list[Seen]) -> list[dict[str, Any]]:
    return [s.json() for s in seen if s.topic == STANDINGS and s.payload]


def wait_standings(rec: Recorder, test: Any, timeout: float = 20.0) -> dict[str, Any]:
    """The first standings (newest first) that pass `test`, waiting for them."""

    def ok(seen: list[Seen]) -> bool:
        return any(test(p) for p in standings_seen(seen))

    seen = rec.wait_for(ok, timeout=timeout)
    return next(p for p in reversed(standings_seen(seen)) if test(p))
