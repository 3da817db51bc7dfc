"""Durability taken away, one step at a time, in a table the power-cut tests start: each
must make their checks fail (`test_weakened.py`), or the checks would not be worth much.

`weaken(name)` is called in the table's process before it runs (the zygote's child,
`tests.fixtures.table_zygote`): it replaces `durable.write_file` wherever the program
holds it with a copy that skips one step:

- `mark_in_place`: the seq mark (`service.store.seq_mark`) written into its own file
  (truncated, written, fsynced, the folder fsynced) instead of a temporary file renamed
  over it, as before the `durable` helper;
- `no_file_fsync`: every file written whole, renamed over the old one and its folder
  fsynced, but the new file's bytes never fsynced before the rename;
- `no_dir_fsync`: every file's bytes fsynced and renamed over the old one, but the folder
  never fsynced after the rename.

`[state] synchronous = "normal"` (the journal's commits not fsynced) is a setting of the
table itself, not here.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from collections.abc import Callable
from pathlib import Path

import durable
import durable.files
from durable.files import _bytes, _write_all, sync_dir, tmp_path

WriteFile = Callable[..., None]


def _whole(*, fsync_file: bool, fsync_dir: bool) -> WriteFile:
    def write_file(
        path: str | os.PathLike[str], data: bytes | str, *, mode: int = 0o644,
        keep_spare: bool = False,
    ) -> None:  # fmt: skip
        target = Path(path)
        tmp = tmp_path(target)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, mode)
        try:
            _write_all(fd, _bytes(data))
            if fsync_file:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
        if fsync_dir:
            sync_dir(target.parent)

    return write_file


def _in_place(
    path: str | os.PathLike[str], data: bytes | str, *, mode: int = 0o644,
    keep_spare: bool = False,
) -> None:  # fmt: skip
    target = Path(path)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, mode)
    try:
        _write_all(fd, _bytes(data))
        os.fsync(fd)
    finally:
        os.close(fd)
    with contextlib.suppress(FileNotFoundError):  # the spare of an earlier run
        tmp_path(target).unlink()
    sync_dir(target.parent)


WEAKENED: dict[str, tuple[WriteFile, tuple[str, ...] | None]] = {
    # name -> (the write_file to use, the modules it replaces it in; None: everywhere)
    "mark_in_place": (_in_place, ("service.store.seq_mark",)),
    "no_file_fsync": (_whole(fsync_file=False, fsync_dir=True), None),
    "no_dir_fsync": (_whole(fsync_file=True, fsync_dir=False), None),
}


def weaken(name: str) -> None:
    """Replace `durable.write_file` as `name` says, in the modules loaded now and (when
    everywhere) in the package, for the modules loaded later."""
    replacement, modules = WEAKENED[name]
    original = durable.files.write_file
    if modules is None:
        durable.write_file = replacement
        durable.files.write_file = replacement
        modules = tuple(sys.modules)
    for module_name in modules:
        module = sys.modules.get(module_name) or importlib.import_module(module_name)
        if getattr(module, "write_file", None) is original:
            setattr(module, "write_file", replacement)  # noqa: B010 - any module
