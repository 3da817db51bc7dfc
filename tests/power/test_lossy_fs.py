"""The lossy file system keeps what was fsynced and nothing else, as a disk after a power
cut: a file's bytes once it is fsynced, a folder's entries once the folder is; a cut
armed at an fsync kills the process named, before it lands or after."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fixtures.lossy_fs import LossyFs
from tests.fixtures.tiers import needs


@pytest.fixture
@needs("process")
def fs(tmp_path: Path) -> Iterator[LossyFs]:
    mounted = LossyFs(tmp_path / "disk", tmp_path).start()
    try:
        yield mounted
    finally:
        mounted.stop()


def sync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def test_only_what_was_fsynced_survives_a_cut(fs: LossyFs) -> None:
    disk = fs.mountpoint
    (disk / "kept").write_bytes(b"old")
    sync(disk / "kept")
    sync(disk)  # its name too
    with (disk / "kept").open("r+b") as kept:  # written over, not cut short first
        kept.write(b"new, never synced")
    (disk / "named").write_bytes(b"synced, its folder not")
    sync(disk / "named")
    (disk / "d").mkdir()
    fs.crash()
    assert sorted(os.listdir(disk)) == ["kept"]
    assert (disk / "kept").read_bytes() == b"old"


def test_a_rename_lands_with_its_folders_fsync(fs: LossyFs) -> None:
    disk = fs.mountpoint
    (disk / "a.tmp").write_bytes(b"whole")
    sync(disk / "a.tmp")
    os.replace(disk / "a.tmp", disk / "a")
    fs.crash()
    assert os.listdir(disk) == []  # neither name was fsynced into the folder
    (disk / "a.tmp").write_bytes(b"whole")
    sync(disk / "a.tmp")
    os.replace(disk / "a.tmp", disk / "a")
    sync(disk)
    fs.crash()
    assert os.listdir(disk) == ["a"] and (disk / "a").read_bytes() == b"whole"


def test_a_file_renamed_before_its_bytes_were_fsynced_comes_back_empty(fs: LossyFs) -> None:
    """What a cut does to a file written without an fsync before its rename."""
    disk = fs.mountpoint
    (disk / "cal.tmp").write_bytes(b"calibration")
    os.replace(disk / "cal.tmp", disk / "cal")
    sync(disk)
    fs.crash()
    assert (disk / "cal").read_bytes() == b""


WRITER = """
import os, sys
path = sys.argv[1]
for n in range(5):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.write(fd, str(n).encode())
    os.fsync(fd)
    os.close(fd)
    print(n, flush=True)
"""


def test_a_file_cut_short_is_cut_short_on_the_disk_at_once(fs: LossyFs) -> None:
    """A truncation lands before the bytes written after it: a file rewritten in place
    (`O_TRUNC`, then written) comes back empty from a cut before its fsync."""
    disk = fs.mountpoint
    (disk / "mark").write_bytes(b"old mark")
    sync(disk / "mark")
    sync(disk)
    (disk / "mark").write_bytes(b"new mark")  # opened with O_TRUNC, written, not fsynced
    fs.crash()
    assert (disk / "mark").read_bytes() == b""
    (disk / "mark").write_bytes(b"a longer mark")
    sync(disk / "mark")
    os.truncate(disk / "mark", 8)
    fs.crash()
    assert (disk / "mark").read_bytes() == b"a longer"


# killed before its third fsync: the file truncated (on the disk too) and not yet written
# again; after it: the third write kept
@pytest.mark.parametrize(("before", "kept"), [(True, b""), (False, b"2")])
def test_a_cut_armed_at_an_fsync_kills_there(fs: LossyFs, before: bool, kept: bytes) -> None:
    disk = fs.mountpoint
    (disk / "f").write_bytes(b"")
    sync(disk)
    child = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.readline()\n" + WRITER, str(disk / "f")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
    )  # fmt: skip
    fs.arm_fsync(3, child.pid, before=before)
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(b"go\n")
    child.stdin.close()
    printed = child.stdout.read()
    assert child.wait(10) == -9
    assert printed == b"0\n1\n"  # killed inside its third fsync: it never printed 2
    killed = fs.counts()["killed"]
    assert killed["where"] == f"{'before' if before else 'after'} fsync 3 (/f)"
    fs.crash()
    assert (disk / "f").read_bytes() == kept
