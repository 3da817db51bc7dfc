"""A slow disk for the benchmarks: ext4 on a loop device whose writes are throttled.

A Raspberry Pi keeps the journal on an SD card, whose writes (and so its fsyncs) are
far slower than this machine's disk. Without device-mapper in the kernel (no `dm-delay`),
the block layer's own throttle does it: a file-backed loop device, formatted ext4 and
mounted, with a cap on its write operations per second (cgroup v1
`blkio.throttle.write_iops_device` of the root group, so the file system's own journal
thread is throttled too). An fsync then waits for the writes it needs (the WAL frames,
ext4's journal commit) at that pace, as on a card with that many write IOPS.

    with SlowDisk(iops=100) as disk:
        state_dir = disk.path / "state"

Needs root (losetup, mkfs.ext4, mount, the cgroup file); a `SlowDiskError` says what
is missing. Everything is undone on exit: the throttle, the mount, the loop device, the
backing file.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

THROTTLE = Path("/sys/fs/cgroup/blkio/blkio.throttle.write_iops_device")
SIZE = "256M"


class SlowDiskError(Exception):
    """The slow disk cannot be made here (not root, no loop devices, no blkio cgroup)."""


def _run(*args: str) -> str:
    try:
        done = subprocess.run(args, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        detail = getattr(exc, "stderr", "") or str(exc)
        raise SlowDiskError(f"{' '.join(args)} failed: {detail.strip()} (run as root)") from exc
    return done.stdout.strip()


class SlowDisk:
    """ext4 on a loop device capped at `iops` writes per second, mounted at `path`."""

    def __init__(self, iops: int) -> None:
        if iops < 1:
            raise SlowDiskError("--slow-disk takes the writes per second, at least 1")
        self.iops = iops
        self._work = Path(tempfile.mkdtemp(prefix="slow-disk-"))
        self.path = self._work / "mnt"
        self._device: str | None = None
        self._mounted = False
        self._throttled: str | None = None

    def __enter__(self) -> SlowDisk:
        try:
            self._make()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _make(self) -> None:
        if not THROTTLE.exists():
            raise SlowDiskError(f"{THROTTLE} is missing: no cgroup v1 blkio throttle here")
        image = self._work / "disk.img"
        _run("truncate", "-s", SIZE, str(image))
        self._device = _run("losetup", "--find", "--show", str(image))
        _run("mkfs.ext4", "-q", self._device)
        self.path.mkdir()
        _run("mount", self._device, str(self.path))
        self._mounted = True
        name = Path(self._device).name
        self._throttled = (Path("/sys/block") / name / "dev").read_text().strip()
        THROTTLE.write_text(f"{self._throttled} {self.iops}\n")

    def commit_ms(self, synchronous: str = "FULL", commits: int = 50) -> tuple[float, float]:
        """The median and the worst time of an SQLite commit (WAL, `synchronous`) of a
        small row on this disk, one commit every 20 ms: how slow the disk is."""
        db = sqlite3.connect(self.path / "probe.sqlite3", isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(f"PRAGMA synchronous={synchronous}")
            db.execute("CREATE TABLE IF NOT EXISTS t (x TEXT)")
            times = []
            for _ in range(commits):
                t0 = time.perf_counter()
                db.execute("BEGIN IMMEDIATE")
                db.execute("INSERT INTO t VALUES (?)", ("x" * 600,))
                db.execute("COMMIT")
                times.append((time.perf_counter() - t0) * 1000)
                time.sleep(0.02)
        finally:
            db.close()
        times.sort()
        return times[len(times) // 2], times[-1]

    def close(self) -> None:
        """Undo everything (idempotent)."""
        if self._throttled is not None:
            THROTTLE.write_text(f"{self._throttled} 0\n")
            self._throttled = None
        if self._mounted:
            subprocess.run(["umount", str(self.path)], check=False)
            self._mounted = False
        if self._device is not None:
            subprocess.run(["losetup", "--detach", self._device], check=False)
            self._device = None
        shutil.rmtree(self._work, ignore_errors=True)
