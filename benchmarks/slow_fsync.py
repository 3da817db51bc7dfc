"""A slow disk for the benchmarks: every fsync of the service takes longer.

A Raspberry Pi keeps the journal on an SD card, where an fsync (a flush of the card's
cache) takes milliseconds, far longer than on this machine's disk. This machine's
kernel has no device-mapper, so no `dm-delay` on a loop device; and the block layer's
throttle (cgroup `blkio.throttle.*`) caps a device's rate, not the latency of each
write: at the benchmark's pace a card capped at 100 writes/s never made a commit wait.
So the delay goes where the latency is felt, into the process: a small shared library
preloaded into the service (`LD_PRELOAD`) makes each `fsync` and `fdatasync` wait
`ms` milliseconds after the real one returns, as a card that takes that long to
acknowledge a flush. SQLite syncs the journal's write-ahead log with `fdatasync` at
every commit with `synchronous=FULL`, and at checkpoints only with `NORMAL`.

    env = slow_fsync_env(10.0, workdir)  # {"LD_PRELOAD": ..., "SLOW_FSYNC_US": "10000"}

Needs a C compiler (`cc`); the library is built once per folder.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

SOURCE = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

static void slow_down(void) {
    static long us = -1;
    if (us < 0) {
        const char *given = getenv("SLOW_FSYNC_US");
        us = given ? atol(given) : 0;
    }
    struct timespec left = {us / 1000000L, (us % 1000000L) * 1000L};
    while (nanosleep(&left, &left) != 0) {
    }
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    int done = real(fd);
    slow_down();
    return done;
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    int done = real(fd);
    slow_down();
    return done;
}
"""


class SlowFsyncError(Exception):
    """The library cannot be built here (no C compiler)."""


def slow_fsync_env(ms: float, folder: Path) -> dict[str, str]:
    """The environment that makes a process's every fsync take `ms` ms longer."""
    if ms < 0:
        raise SlowFsyncError("the fsync delay is a number of milliseconds, 0 or more")
    library = folder / "slow_fsync.so"
    if not library.exists():
        compiler = shutil.which("cc") or shutil.which("gcc")
        if compiler is None:
            raise SlowFsyncError("no C compiler (cc) to build the slow-fsync library")
        source = folder / "slow_fsync.c"
        source.write_text(SOURCE)
        try:
            subprocess.run(
                [compiler, "-shared", "-fPIC", "-O2", "-o", str(library), str(source), "-ldl"],
                capture_output=True, text=True, check=True,
            )  # fmt: skip
        except subprocess.CalledProcessError as exc:
            raise SlowFsyncError(f"cannot build {library}: {exc.stderr.strip()}") from exc
    return {"LD_PRELOAD": str(library), "SLOW_FSYNC_US": str(round(ms * 1000))}


PROBE = r"""
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
db.execute(f"PRAGMA synchronous={sys.argv[2]}")
db.execute("CREATE TABLE IF NOT EXISTS t (x TEXT)")
times = []
for _ in range(int(sys.argv[3])):
    t0 = time.perf_counter()
    db.execute("BEGIN IMMEDIATE")
    db.execute("INSERT INTO t VALUES (?)", ("x" * 600,))
    db.execute("COMMIT")
    times.append((time.perf_counter() - t0) * 1000)
    time.sleep(0.02)
times.sort()
print(times[len(times) // 2], times[-1])
"""


def commit_ms(
    env: dict[str, str], folder: Path, synchronous: str = "FULL", commits: int = 50
) -> tuple[float, float]:
    """The median and worst time of an SQLite commit (WAL, `synchronous`) of a small
    row in `folder`, in a process with `env`, one commit every 20 ms: the disk's pace."""
    folder.mkdir(parents=True, exist_ok=True)
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(folder / f"probe-{synchronous}.sqlite3"),
         synchronous, str(commits)],
        capture_output=True, text=True, check=True, env={**os.environ, **env},
    ).stdout.split()  # fmt: skip
    return float(out[0]), float(out[1])
