"""durable: each write's system calls in the order that survives a power cut, what is left
after a failure, and the spare that lets a write go through on a full disk.

The power cut itself is tests/power/ (a file system that drops what was not fsynced);
these pin the order of the calls that makes it safe, on the real file system.
"""

from __future__ import annotations

import errno
import os
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

import durable
from durable import append_file, create_file, make_dirs, sync_dir, write_file
from durable.files import tmp_path
from tests.fixtures.tiers import needs


class Calls:
    """The file system calls durable makes, by name and path, in order."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.seen: list[tuple[str, str]] = []
        real_fsync, real_replace, real_link = os.fsync, os.replace, os.link
        real_mkdir = Path.mkdir

        def fsync(fd: int) -> None:
            self.seen.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
            real_fsync(fd)

        def replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
            self.seen.append(("rename", f"{Path(src).name}->{Path(dst).name}"))
            real_replace(src, dst)

        def link(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
            self.seen.append(("link", f"{Path(src).name}->{Path(dst).name}"))
            real_link(src, dst)

        def mkdir(path: Path, mode: int = 0o777, *args: bool) -> None:
            self.seen.append(("mkdir", str(path)))
            real_mkdir(path, mode, *args)

        monkeypatch.setattr(os, "fsync", fsync)
        monkeypatch.setattr(os, "replace", replace)
        monkeypatch.setattr(os, "link", link)
        monkeypatch.setattr(Path, "mkdir", mkdir)


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Calls:
    return Calls(monkeypatch)


def test_write_file_syncs_the_new_file_then_renames_it_then_syncs_the_folder(
    tmp_path: Path, calls: Calls
) -> None:
    target = tmp_path / "calibration.json"
    target.write_text("old")
    write_file(target, "new: é")
    assert target.read_bytes() == "new: é".encode()
    assert calls.seen == [
        ("fsync", str(tmp_path / "calibration.json.tmp")),
        ("rename", "calibration.json.tmp->calibration.json"),
        ("fsync", str(tmp_path)),
    ]
    assert sorted(os.listdir(tmp_path)) == ["calibration.json"]  # no temporary file left


def test_write_file_gives_the_mode_and_writes_bytes_as_they_are(tmp_path: Path) -> None:
    target = tmp_path / "frame.jpg"
    write_file(target, b"\xff\xd8\x00", mode=0o600)
    assert target.read_bytes() == b"\xff\xd8\x00"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def test_a_failed_write_leaves_the_old_file_and_no_temporary_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "set.json"
    target.write_text("the enrolled set")

    def full(fd: int, data: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(OSError, match="No space"):
        write_file(target, "a new set")
    assert target.read_text() == "the enrolled set"
    assert os.listdir(tmp_path) == ["set.json"]


def test_a_temporary_file_left_by_a_cut_is_written_over(tmp_path: Path) -> None:
    target = tmp_path / "mark"
    tmp_path.joinpath("mark.tmp").write_bytes(b"half of an earlier write, much longer" * 10)
    write_file(target, "whole")
    assert target.read_text() == "whole"
    assert not tmp_path.joinpath("mark.tmp").exists()


def test_create_file_makes_a_new_file_durably_and_never_replaces_one(
    tmp_path: Path, calls: Calls
) -> None:
    pin = tmp_path / "display-t1.pin"
    create_file(pin, "123456\n")
    assert pin.read_text() == "123456\n"
    assert stat.S_IMODE(pin.stat().st_mode) == 0o600
    assert calls.seen == [
        ("fsync", str(tmp_path / "display-t1.pin.tmp")),
        ("link", "display-t1.pin.tmp->display-t1.pin"),
        ("fsync", str(tmp_path)),
    ]
    with pytest.raises(FileExistsError):
        create_file(pin, "654321\n")
    assert pin.read_text() == "123456\n"
    assert os.listdir(tmp_path) == ["display-t1.pin"]


def test_make_dirs_syncs_each_folder_it_makes_into_its_parent(tmp_path: Path, calls: Calls) -> None:
    make_dirs(tmp_path / "a" / "b" / "c")
    assert (tmp_path / "a" / "b" / "c").is_dir()
    assert calls.seen == [
        ("mkdir", str(tmp_path / "a")),
        ("fsync", str(tmp_path)),
        ("mkdir", str(tmp_path / "a" / "b")),
        ("fsync", str(tmp_path / "a")),
        ("mkdir", str(tmp_path / "a" / "b" / "c")),
        ("fsync", str(tmp_path / "a" / "b")),
    ]
    calls.seen.clear()
    make_dirs(tmp_path / "a" / "b")
    assert calls.seen == []  # there already: nothing to do


def test_make_dirs_refuses_a_file_in_the_way(tmp_path: Path) -> None:
    (tmp_path / "state").write_text("not a folder")
    with pytest.raises(OSError):
        make_dirs(tmp_path / "state" / "t1")


def test_append_file_syncs_each_append_and_the_folder_once(tmp_path: Path, calls: Calls) -> None:
    log = tmp_path / "results.jsonl"
    append_file(log, "one\n")
    append_file(log, "two\n")
    assert log.read_text() == "one\ntwo\n"
    assert calls.seen == [("fsync", str(log)), ("fsync", str(tmp_path)), ("fsync", str(log))]


def test_sync_dir_refuses_a_file(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    with pytest.raises(NotADirectoryError):
        sync_dir(tmp_path / "f")


def test_the_package_exports_what_its_docstring_shows() -> None:
    assert durable.__doc__ is not None
    for name in durable.__all__:
        assert name in durable.__doc__


@pytest.fixture
@needs("process")
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 kB tmpfs (tests run as root here and in CI)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        pytest.fail(f"cannot mount a tmpfs at {disk} (the test runs as root): {done.stderr}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def fill(folder: Path) -> None:
    """Take the file system's last byte."""
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        for size in (4096, 1):
            while True:
                try:
                    os.write(fd, b"\0" * size)
                except OSError as exc:
                    if exc.errno != errno.ENOSPC:
                        raise
                    break
    finally:
        os.close(fd)


def test_a_spare_lets_a_write_of_the_same_size_through_on_a_full_disk(small_disk: Path) -> None:
    kept, plain = small_disk / "journal.seq", small_disk / "other"
    write_file(kept, b"a" * 160, keep_spare=True)
    write_file(plain, b"b" * 160)
    assert tmp_path(kept).stat().st_size == 160  # the spare, for the next write
    assert not tmp_path(plain).exists()
    fill(small_disk)
    with pytest.raises(OSError) as refused:
        write_file(plain, b"c" * 160)
    assert refused.value.errno == errno.ENOSPC
    assert plain.read_bytes() == b"b" * 160
    for n in range(3):  # again and again: each write leaves the old file's room to the spare
        write_file(kept, bytes([ord("d") + n]) * 160, keep_spare=True)
        assert kept.read_bytes() == bytes([ord("d") + n]) * 160
