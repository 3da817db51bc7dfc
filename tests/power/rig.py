"""The power-cut rig: the real `domino-table run` on the lossy file system, killed
(SIGKILL) where the file system says, its unsynced writes dropped, started again on a
new boot id, and what its subscribers saw checked against what it holds.

- `PowerTable`: the table process, its state folder on the lossy file system. It runs in
  a mount namespace of its own whose `/proc/sys/kernel/random/boot_id` is a file the rig
  writes, so each power cut is a new boot to it, as on a real machine; it waits for a
  line on its stdin before it runs, so a cut can be armed at its first fsync.
- `Watch`: a subscriber on every topic of the table (each payload checked against the
  spec's schema), and the checks a power cut must pass: no seq came back with another
  payload, no event seen was lost, the seqs went forward.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.fixtures.lossy_fs import LossyFs
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_recorder import Recorder, Seen
from tests.fixtures.process import BIN

TABLE = "t1"
P = f"domino/{TABLE}"
TOPICS = [f"{P}/status", f"{P}/state", f"{P}/event/#", f"{P}/cmd/reply", f"{P}/result/#",
          f"{P}/camera/status"]  # fmt: skip
BOOT_ID = "/proc/sys/kernel/random/boot_id"
# The table behind a bind mount of its own boot id, started once the rig says so.
GATE = f'mount --bind "$1" {BOOT_ID} && read -r go && shift && exec "$@"'


class DiedError(AssertionError):
    """The table ended (killed by the file system where a cut was armed)."""


class PowerTable:
    """`domino-table run` with its state on the lossy file system `fs`."""

    def __init__(
        self,
        fs: LossyFs,
        broker: Mosquitto,
        workdir: Path,
        *extra: str,
        synchronous: str = "full",
        settings: str = "",
        command: tuple[str, ...] = (str(BIN),),
    ) -> None:
        self.fs = fs
        self.workdir = workdir
        self.state = fs.mountpoint / "state"
        self.log = workdir / "table.log"
        self.settings = workdir / "table.toml"
        self.settings.write_text(f'{settings}\n[state]\nsynchronous = "{synchronous}"\n')
        self.args = [
            *command, "run", "--settings", str(self.settings),
            "--mqtt-host", broker.host, "--mqtt-port", str(broker.port),
            "--table", TABLE, "--state-dir", str(self.state), *extra,
        ]  # fmt: skip
        self.proc: subprocess.Popen[bytes] | None = None
        self.boots = 0
        self.boot_file = workdir / "boot_id"
        self.new_boot()

    def new_boot(self) -> None:
        """The machine comes up again: another boot id."""
        self.boots += 1
        self.boot_file = self.workdir / f"boot_id.{self.boots}"
        self.boot_file.write_text(f"{uuid.uuid4()}\n")

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def start(self, arm: Callable[[int], None] | None = None) -> None:
        """Start it; `arm(pid)` arms a cut before it runs a single line."""
        with self.log.open("ab") as out:
            out.write(f"--- start (boot {self.boots}) ---\n".encode())
            out.flush()
            self.proc = subprocess.Popen(
                ["unshare", "-m", "--", "sh", "-c", GATE, "sh", str(self.boot_file), *self.args],
                stdin=subprocess.PIPE, stdout=out, stderr=out, start_new_session=True,
            )  # fmt: skip
        if arm is not None:
            arm(self.proc.pid)
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"go\n")
        self.proc.stdin.close()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def wait_dead(self, timeout: float = 30) -> int | None:
        assert self.proc is not None
        return self.proc.wait(timeout)

    def kill(self) -> None:
        """SIGKILL, as the power going takes it."""
        if self.alive():
            assert self.proc is not None
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(30)

    def stop(self) -> int | None:
        """A clean stop (SIGTERM); its exit code."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        return self.proc.returncode

    def power_cut(self) -> None:
        """The power goes and comes back: the table dead, what it had not fsynced lost,
        the machine on a new boot id."""
        self.kill()
        self.fs.crash()
        self.new_boot()

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def errors(self) -> list[str]:
        return [line for line in self.output().splitlines()
                if " ERROR " in line or "Traceback" in line]  # fmt: skip


class Watch:
    """Everything the table publishes, and the checks a power cut must pass."""

    def __init__(self, broker: Mosquitto) -> None:
        self.broker = broker
        self.rec = Recorder(broker.host, broker.port, TOPICS, client_id="power-watch",
                            persistent=True)  # fmt: skip
        assert self.rec.subscribed.wait(10)
        self.mark = 0  # where the current look begins in `seen`

    @property
    def seen(self) -> list[Seen]:
        with self.rec._cond:
            return list(self.rec.seen)

    def close(self) -> None:
        self.rec.close()

    def wait(self, test: Callable[[list[Seen]], Any], timeout: float = 30.0,
             table: PowerTable | None = None) -> Any:  # fmt: skip
        """Wait until `test(seen since the mark)` holds; `DiedError` if `table` ends first."""
        deadline = time.monotonic() + timeout
        while True:
            found = test(self.seen[self.mark :])
            if found:
                return found
            if table is not None and not table.alive():
                raise DiedError(f"the table ended: {table.fs.counts().get('killed')}")
            assert not self.rec.errors, self.rec.errors
            if time.monotonic() > deadline:
                tail = "; ".join(f"{s.topic} {s.payload[:100]!r}" for s in self.seen[-12:])
                raise AssertionError(f"timed out after {timeout} s; last seen: {tail}")
            time.sleep(0.02)

    def online(self, table: PowerTable, timeout: float = 60.0) -> dict[str, Any]:
        """Wait until the table says online, after the offline of its last run (its Will,
        or its clean stop); its state then."""
        self.wait(lambda seen: statuses(seen)[-1:] == [b"online"], timeout, table)
        state = latest_state(self.seen)
        assert state is not None
        return state

    def gone(self, timeout: float = 30.0) -> None:
        """Wait until the broker says the table is offline (its Will, once it died)."""
        deadline = time.monotonic() + timeout
        while statuses(self.seen)[-1:] == [b"online"]:
            assert time.monotonic() < deadline, "the broker still says the table is online"
            time.sleep(0.02)

    def events(self, since: int = 0) -> list[dict[str, Any]]:
        return [s.json() for s in self.seen[since:] if "/event/" in s.topic]

    def reply(self, cmd_id: str) -> Callable[[list[Seen]], dict[str, Any] | None]:
        def found(seen: list[Seen]) -> dict[str, Any] | None:
            for s in seen:
                if s.topic == f"{P}/cmd/reply" and s.json().get("id") == cmd_id:
                    body: dict[str, Any] = s.json()
                    return body
            return None

        return found

    def send(self, body: dict[str, Any]) -> None:
        self.rec.client.publish(f"{P}/cmd", json.dumps(body).encode(), qos=1)


def statuses(seen: list[Seen]) -> list[bytes]:
    return [s.payload for s in seen if s.topic == f"{P}/status"]


def latest_state(seen: list[Seen]) -> dict[str, Any] | None:
    for s in reversed(seen):
        if s.topic == f"{P}/state" and s.payload:
            state: dict[str, Any] = s.json()
            return state
    return None


def events_by_seq(seen: list[Seen]) -> dict[int, bytes]:
    """Every event seen, by seq: a seq seen twice must be the same bytes (a republished
    event is byte for byte the first one; a reused seq would differ)."""
    out: dict[int, bytes] = {}
    for s in seen:
        if "/event/" not in s.topic:
            continue
        seq = s.json()["seq"]
        first = out.setdefault(seq, s.payload)
        assert first == s.payload, (
            f"seq {seq} came back with another payload:\n{first!r}\n{s.payload!r}"
        )
    return out


def stored_events(state_dir: Path) -> dict[int, dict[str, Any]]:
    """The events a stopped table's journal holds, read from outside."""
    import sqlite3

    db = sqlite3.connect(f"file:{state_dir / 'journal.sqlite3'}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT seq, payload FROM events ORDER BY seq").fetchall()
    finally:
        db.close()
    return {int(seq): json.loads(payload) for seq, payload in rows}
