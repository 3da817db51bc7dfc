"""`domino-table tournament` as a real process, and reading what it publishes."""

from __future__ import annotations

import json
import os
import re
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.fixtures.mqtt_recorder import Recorder, Seen
from tests.fixtures.process import BIN, ChildProcess

STANDINGS = "domino/tournament/standings"
LISTENING = re.compile(r"http: standings on http://127\.0\.0\.1:(\d+)/")


class DeskProcess(ChildProcess):
    """The desk in a child process, its page on a loopback port the system chooses.

    The desk is given `--http-port 0` and says in its log which port it got: a port
    chosen here and bound by the desk later could be taken in between (by a broker or a
    server of another test), and the desk would not start. `http_port` waits for the
    log line of the latest start (a restart may get another port)."""

    def __init__(self, host: str, port: int, state_dir: Path, *extra: str) -> None:
        args = [
            str(BIN), "tournament", "--mqtt-host", host, "--mqtt-port", str(port),
            "--http-host", "127.0.0.1", "--http-port", "0",
            "--state-dir", str(state_dir), "--publish-interval", "0.05", *extra,
        ]  # fmt: skip
        super().__init__(args, state_dir.parent / f"{state_dir.name}.log")
        self._log_from = 0
        self._port: int | None = None

    def start(self) -> None:
        self._log_from = self.log.stat().st_size if self.log.exists() else 0
        self._port = None
        super().start()

    @property
    def http_port(self) -> int:
        """The port the pages listen on since the latest start (waiting for the desk)."""
        if self._port is None:
            self.wait_until(self._listening, timeout=60)
        assert self._port is not None
        return self._port

    def _listening(self) -> bool:
        with self.log.open("rb") as f:
            f.seek(self._log_from)
            found = LISTENING.search(f.read().decode(errors="replace"))
        if found is not None:
            self._port = int(found.group(1))
        return found is not None

    def cpu_s(self) -> float:
        """CPU seconds (user + system) this process has used since it started."""
        assert self.proc is not None
        parts = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")

    def memory_mb(self) -> tuple[float, float]:
        """Its resident memory now and at its peak, in MB."""
        assert self.proc is not None
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        fields = dict(line.split(":", 1) for line in status.splitlines())
        return (int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024)

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
