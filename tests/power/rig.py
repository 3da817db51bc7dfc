"""The power-cut rig: the real `domino-table run` with its state folder on a disk that
can cut it, killed (SIGKILL) where the disk says, what it had not fsynced dropped (on
the lossy disk), started again on a new boot id, and what its subscribers saw checked
against what it holds.

- `Disk`: where the state folder lives: the lossy file system (`LossyFs`, which keeps
  only what was fsynced) or a folder on the machine's real disk (`RealDisk`); either
  kills the table at the n-th fsync from now.
- `PowerTable`: the table process, forked by a zygote that has imported the program
  (`tests.fixtures.table_zygote`: a start costs a fork, not Python's start-up). Each run
  has a boot id of its own (a new one after each power cut, as a machine coming back
  up), and waits until the rig says go, so a cut can be armed at its first fsync.
- `Watch`: a subscriber on every topic of the table (each payload checked against the
  spec's schema), and the waits: online, gone, a reply, the history caught up.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from firmware_bridge.emulator import BoardEmulator
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_recorder import Recorder, Seen
from tests.fixtures.table_zygote import Zygote

TABLE = "t1"
P = f"domino/{TABLE}"
TOPICS = [f"{P}/status", f"{P}/state", f"{P}/event/#", f"{P}/cmd/reply", f"{P}/result/#",
          f"{P}/camera/status"]  # fmt: skip


class Disk(Protocol):
    """What the rig asks of a disk (`LossyFs`, `RealDisk`)."""

    mountpoint: Path

    def arm_fsync(self, n: int, pid: int, *, before: bool = True) -> None: ...
    def arm_change(self, n: int, pid: int) -> None: ...
    def disarm(self) -> int | None: ...
    def counts(self) -> dict[str, Any]: ...
    def crash(self, *, keep: bool = False) -> None: ...
    def snapshot(self, name: str) -> None: ...
    def restore(self, name: str) -> None: ...
    def stop(self) -> None: ...


class DiedError(AssertionError):
    """The table ended (killed by the disk where a cut was armed)."""


class PowerTable:
    """`domino-table run` with its state on `disk`, forked by `zygote`; `env`: variables
    of its own (the real disk's counting); `weaken`: a name of `tests.power.weaken`."""

    def __init__(
        self,
        disk: Disk,
        zygote: Zygote,
        broker: Mosquitto,
        workdir: Path,
        *extra: str,
        synchronous: str = "full",
        settings: str = "",
        env: dict[str, str | None] | None = None,
        weaken: str | None = None,
    ) -> None:
        self.disk = disk
        self.zygote = zygote
        self.workdir = workdir
        self.state = disk.mountpoint / "state"
        self.log = workdir / "table.log"
        self.settings = workdir / "table.toml"
        self.settings.write_text(f'{settings}\n[state]\nsynchronous = "{synchronous}"\n')
        self.args = [
            "run", "--settings", str(self.settings),
            "--mqtt-host", broker.host, "--mqtt-port", str(broker.port),
            "--table", TABLE, "--state-dir", str(self.state), *extra,
        ]  # fmt: skip
        self.env = env
        self.weaken = weaken
        self.pid: int | None = None
        self.starts = 0
        self.boots = 0
        self.boot_file = workdir / "boot_id"
        self.new_boot()

    def new_boot(self) -> None:
        """The machine comes up again: another boot id."""
        self.boots += 1
        self.boot_file = self.workdir / f"boot_id.{self.boots}"
        self.boot_file.write_text(f"{uuid.uuid4()}\n")

    def start(self, arm: Callable[[int], None] | None = None) -> None:
        """Start it; `arm(pid)` arms a cut before it runs a single line."""
        assert not self.alive(), "the table runs already"
        self.starts += 1
        with self.log.open("a") as out:
            out.write(f"--- start {self.starts} (boot {self.boots}) ---\n")
        self.pid = self.zygote.spawn(
            self.args, self.log, env=self.env, boot=self.boot_file, weaken=self.weaken
        )
        if arm is not None:
            arm(self.pid)
        self.zygote.go(self.pid)

    def exit_code(self) -> int | None:
        return None if self.pid is None else self.zygote.exit_code(self.pid)

    def alive(self) -> bool:
        return self.pid is not None and self.exit_code() is None

    def wait_dead(self, timeout: float = 30) -> int:
        deadline = time.monotonic() + timeout
        while (code := self.exit_code()) is None:
            assert time.monotonic() < deadline, f"the table still runs after {timeout} s"
            time.sleep(0.01)
        return code

    def kill(self) -> None:
        """SIGKILL, as the power going takes it."""
        if self.alive():
            assert self.pid is not None
            os.kill(self.pid, signal.SIGKILL)
            self.wait_dead()

    def stop(self) -> int | None:
        """A clean stop (SIGTERM); its exit code."""
        if self.pid is None:
            return None
        if self.alive():
            os.kill(self.pid, signal.SIGTERM)
            try:
                return self.wait_dead(30)
            except AssertionError:
                self.kill()
        return self.exit_code()

    def power_cut(self) -> None:
        """The power goes and comes back: the table dead, what it had not fsynced lost,
        the machine on a new boot id."""
        self.kill()
        self.disk.crash()
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
        self.asked = 0

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
                raise DiedError(f"the table ended: {table.disk.counts().get('killed')}")
            assert not self.rec.errors, self.rec.errors
            if time.monotonic() > deadline:
                tail = "; ".join(f"{s.topic} {s.payload[:100]!r}" for s in self.seen[-12:])
                raise AssertionError(f"timed out after {timeout} s; last seen: {tail}")
            with self.rec._cond:
                self.rec._cond.wait(0.05)

    def online(self, table: PowerTable, timeout: float = 60.0) -> dict[str, Any]:
        """Wait until the table says online, after the offline of its last run (its Will,
        or its clean stop); its state then."""
        self.wait(lambda seen: statuses(seen)[-1:] == [b"online"], timeout, table)
        state = latest_state(self.seen)
        assert state is not None
        return state

    def gone(self, timeout: float = 30.0) -> None:
        """Wait until the broker says the table is offline (its Will, once it died)."""
        self.wait(lambda seen: statuses(seen)[-1:] != [b"online"], timeout)

    def caught_up(self, table: PowerTable, timeout: float = 60.0) -> None:
        """Wait until the table's record of games has written everything it was given so
        far: a `history` command is answered by the history's thread after all that was
        queued before it (and writes nothing itself)."""
        self.asked += 1
        cmd_id = f"caught-up-{self.asked}"
        self.send({"id": cmd_id, "action": "history"})
        reply = self.wait(self.reply(cmd_id), timeout, table)
        assert reply["ok"], reply

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


@dataclass
class Power:
    """One power-cut set-up (`make_power` in conftest.py makes it)."""

    disk: Disk
    zygote: Zygote
    watch: Watch
    table: PowerTable
    board: BoardEmulator | None = None
    cuts: list[str] = field(default_factory=list)  # where each cut fell
    prior: dict[int, bytes] = field(default_factory=dict)  # events the disk holds from
    # before the watch's mark (seen in the run whose disk a restore put back)


MakePower = Callable[..., Power]
"""`make_power(disk, *table_args, board=..., **table_settings)` (conftest)."""

DISKS = ("lossy", "real")
"""`lossy`: the FUSE file system that keeps only what was fsynced; `real`: a folder on
the machine's disk, the table killed there at each fsync."""


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
    """The events a stopped table's journal holds, read from outside: from a copy of its
    files (as they are after a cut too, its write-ahead log not yet checkpointed), so
    that the disk is only read. Nothing when there is no journal (or no table of
    events) yet."""
    journal = state_dir / "journal.sqlite3"
    if not journal.exists():
        return {}
    with tempfile.TemporaryDirectory() as scratch:
        for suffix in ("", "-wal"):
            part = state_dir / f"journal.sqlite3{suffix}"
            if part.exists():
                shutil.copyfile(part, Path(scratch) / part.name)
        db = sqlite3.connect(Path(scratch) / journal.name)
        try:
            made = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'events'").fetchone()
            rows = (
                db.execute("SELECT seq, payload FROM events ORDER BY seq").fetchall()
                if made
                else []
            )
        finally:
            db.close()
    return {int(seq): json.loads(payload) for seq, payload in rows}
