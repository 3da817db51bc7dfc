"""The real disk's cut: `fsync_cut.so` loaded into a process counts its fsyncs and
fdatasyncs under the folder, from every thread, in one count, and kills it at the one
armed; and the zygote forks the program as a start of it would run."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.fixtures.real_disk import RealDisk
from tests.fixtures.table_zygote import Zygote

WRITER = """
import os, sys, threading
folder, outside = sys.argv[1], sys.argv[2]
sys.stdin.readline()

def sync(path, data, call):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.write(fd, data)
    call(fd)
    os.close(fd)

for n in range(2):
    sync(outside, b"not counted", os.fsync)  # outside the folder
    sync(os.path.join(folder, "a"), str(n).encode(), os.fsync)
    print("a", n, flush=True)
# another thread, and fdatasync: the same count
worker = threading.Thread(target=lambda: [sync(os.path.join(folder, "b"), b"b", os.fdatasync)
                                          for _ in range(2)])
worker.start()
worker.join()
print("b", flush=True)
fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
os.fsync(fd)
print("folder", flush=True)
"""


@pytest.fixture
def disk(tmp_path: Path, fsync_shim: Path) -> RealDisk:
    return RealDisk(tmp_path / "disk", tmp_path, fsync_shim).start()


def run(disk: RealDisk, tmp_path: Path, arm: tuple[int, bool] | None) -> tuple[int, bytes]:
    env = {**os.environ, **disk.preload(), **{k: v for k, v in disk.table_env().items() if v}}
    child = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(disk.mountpoint), str(tmp_path / "outside")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
    )  # fmt: skip
    if arm is not None:
        disk.arm_fsync(arm[0], child.pid, before=arm[1])
    out, _ = child.communicate(b"go\n", timeout=30)
    return child.returncode, out


def test_every_fsync_under_the_folder_is_counted_from_every_thread(
    disk: RealDisk, tmp_path: Path
) -> None:
    code, out = run(disk, tmp_path, None)
    assert code == 0 and out == b"a 0\na 1\nb\nfolder\n"
    counts = disk.counts()
    assert counts["trace"] == ["/a", "/a", "/b", "/b", "/"]
    assert counts["killed"] is None


@pytest.mark.parametrize(
    ("arm", "printed", "where"),
    [
        ((2, True), b"a 0\n", "before fsync 2 (/a)"),
        ((2, False), b"a 0\n", "after fsync 2 (/a)"),
        ((4, True), b"a 0\na 1\n", "before fsync 4 (/b)"),  # the other thread's second
        ((5, False), b"a 0\na 1\nb\n", "after fsync 5 (/)"),
    ],
)
def test_a_cut_armed_at_the_nth_fsync_kills_the_process_there(
    disk: RealDisk, tmp_path: Path, arm: tuple[int, bool], printed: bytes, where: str
) -> None:
    code, out = run(disk, tmp_path, arm)
    assert code == -9
    assert out == printed
    assert disk.counts()["killed"]["where"] == where
    assert (disk.mountpoint / "a").read_bytes() == b"1"  # the kernel had the write: kept


@pytest.mark.process
def test_the_zygote_runs_the_program_with_its_arguments_and_says_how_it_ended(
    tmp_path: Path,
) -> None:
    zygote = Zygote(tmp_path).start()
    try:
        log = tmp_path / "out.log"
        pid = zygote.spawn(["rules", "list"], log)
        assert zygote.exit_code(pid) is None  # waits for go
        zygote.go(pid)
        while (code := zygote.exit_code(pid)) is None:
            time.sleep(0.01)
        assert code == 0
        assert "walnut" in log.read_text()
        pid = zygote.spawn(["no-such-command"], log)
        zygote.go(pid)
        while (code := zygote.exit_code(pid)) is None:
            time.sleep(0.01)
        assert code == 2  # click's usage error, as the script would end
    finally:
        zygote.stop()
