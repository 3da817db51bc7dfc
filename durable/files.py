"""Durable writes: temporary file, fsync, rename, fsync of the folder (see the package)."""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path

TMP_SUFFIX = ".tmp"

# A folder's fsync is refused by some file systems (some FUSE and network ones): there
# the rename is as durable as that file system makes it, and nothing more can be done.
_NO_DIR_SYNC = {errno.EINVAL, errno.ENOTSUP, errno.EBADF}


def _bytes(data: bytes | str) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data


def tmp_path(path: Path) -> Path:
    """The temporary file beside `path` that `write_file` fills before the rename."""
    return path.with_name(path.name + TMP_SUFFIX)


def sync_dir(path: str | os.PathLike[str]) -> None:
    """Fsync the folder `path`: its entries (new, renamed or removed files) are on disk."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in _NO_DIR_SYNC:
            raise
    finally:
        os.close(fd)


def make_dirs(path: str | os.PathLike[str], mode: int = 0o777) -> None:
    """`mkdir -p path`, durably: each folder made is fsynced into its parent."""
    folder = Path(path)
    missing: list[Path] = []
    while not folder.is_dir():
        missing.append(folder)
        if folder.parent == folder:
            break
        folder = folder.parent
    for made in reversed(missing):
        try:
            made.mkdir(mode)
        except FileExistsError:
            if not made.is_dir():
                raise
            continue  # made meanwhile by someone else, who syncs it
        sync_dir(made.parent)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def write_file(
    path: str | os.PathLike[str],
    data: bytes | str,
    *,
    mode: int = 0o644,
    keep_spare: bool = False,
) -> None:
    """Replace `path` with `data` (a str is written as UTF-8), surviving a cut at any
    instant: the old content or the new, never a mix; the new once this returns.

    `keep_spare`: leave the next temporary file allocated (as many bytes as `data`), so
    that a later write of no more bytes needs no new space on a full disk (the seq mark,
    written while the disk is full). The folder must exist (`make_dirs`). Raises
    `OSError` as the system gave it (the temporary file is removed; `path` is
    untouched)."""
    target = Path(path)
    tmp = tmp_path(target)
    body = _bytes(data)
    flags = os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC | (0 if keep_spare else os.O_TRUNC)
    fd = os.open(tmp, flags, mode)
    try:
        try:
            _write_all(fd, body)  # over the spare's bytes: no new space for them
            if keep_spare:
                os.ftruncate(fd, len(body))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    sync_dir(target.parent)
    if keep_spare:
        _make_spare(tmp, len(body), mode)


def _make_spare(tmp: Path, size: int, mode: int) -> None:
    """Allocate `tmp` (`size` bytes) for the next write; nothing when there is no room."""
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, mode)
    except OSError:
        return
    try:
        _write_all(fd, b"\0" * size)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
    finally:
        os.close(fd)


def create_file(path: str | os.PathLike[str], data: bytes | str, *, mode: int = 0o600) -> None:
    """Make the new file `path` holding `data`, durably: `FileExistsError` if it exists
    (it is never replaced). After a cut it holds all of `data` or is not there."""
    target = Path(path)
    tmp = tmp_path(target)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, mode)
    try:
        try:
            _write_all(fd, _bytes(data))
            os.fsync(fd)
        finally:
            os.close(fd)
        _link_new(tmp, target)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    sync_dir(target.parent)


def _link_new(tmp: Path, target: Path) -> None:
    """`tmp` becomes `target`, which must not exist: a hard link fails on an existing
    file, unlike a rename. Where hard links are not supported, a rename after a check."""
    try:
        os.link(tmp, target)
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
            raise
        if target.exists():
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(target)) from exc
        os.rename(tmp, target)


def append_file(path: str | os.PathLike[str], data: bytes | str, *, mode: int = 0o644) -> None:
    """Append `data` to `path` (made if missing) and fsync it. A cut during the call may
    leave a short last line: readers skip a broken last line."""
    target = Path(path)
    new = not target.exists()
    fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, mode)
    try:
        _write_all(fd, _bytes(data))
        os.fsync(fd)
    finally:
        os.close(fd)
    if new:
        sync_dir(target.parent)
