"""The seq mark: which seqs a table has handed out, kept beside its journal.

A `seq` is never reused (spec/mqtt.md): a subscriber that saw seq 57 with one content
must never see another 57. The journal counts seqs, but a journal can be lost or damaged
(and then moved aside by hand), and while the disk is full the table hands out a seq the
journal cannot store (its fault alert). So a small file beside the journal,
`journal.seq`, keeps:

- `last`: the last seq handed out. Written after every change without an fsync (a
  power cut may lose it, but the journal, which is fsynced, then holds it), and with an
  fsync for a seq the journal does not hold.
- `reserved`: every seq handed out is at most this. Fsynced, and moved on `RESERVE`
  seqs at a time, so even a journal lost in a power cut, with `last` lost from the
  disk's cache, never has its seqs reused.
- `boot` and `open`: the machine's boot id when the journal was opened, and whether it
  is still open. A journal left open in an earlier boot went through a power cut or a
  crash of the machine: what was not fsynced may be lost, so its seqs go on after
  `reserved`. (A process killed in the same boot loses nothing the kernel was given.)

The file is written in place at a fixed size: on a full disk it needs no new space.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from dataclasses import asdict, dataclass, replace
from pathlib import Path

log = logging.getLogger(__name__)

FILE_NAME = "journal.seq"
RESERVE = 1000
SIZE = 160  # bytes: the JSON, padded with spaces, then a newline
BOOT_ID = Path("/proc/sys/kernel/random/boot_id")


class SeqMarkError(Exception):
    """The seq mark cannot be read or written."""


def boot_id() -> str:
    """This boot of the machine ("" where the kernel does not say)."""
    try:
        return BOOT_ID.read_text().strip()
    except OSError:
        return ""


@dataclass(frozen=True)
class Marks:
    last: int = 0
    reserved: int = 0
    boot: str = ""
    open: bool = False

    def floor(self, journal_last: int, *, new_journal: bool, boot: str) -> int:
        """The last seq that may have been seen: the next event takes the one after it."""
        lost_cache = self.open and self.boot != boot  # the machine went down meanwhile
        if new_journal or lost_cache:
            return max(journal_last, self.last, self.reserved)
        return max(journal_last, self.last)


class SeqMark:
    """The `journal.seq` file of one state directory. Not thread-safe: the journal's
    lock guards it."""

    def __init__(self, state_dir: Path) -> None:
        self.path = state_dir / FILE_NAME
        self.marks = self._read()
        self._fd: int | None = None

    def _read(self) -> Marks:
        try:
            text = self.path.read_text(encoding="ascii")
        except FileNotFoundError:
            return Marks()
        except (OSError, UnicodeDecodeError) as exc:
            raise SeqMarkError(f"cannot read {self.path} ({exc})") from exc
        try:
            data = json.loads(text)
            return Marks(int(data["last"]), int(data["reserved"]), str(data["boot"]), data["open"])
        except (ValueError, KeyError, TypeError) as exc:
            raise SeqMarkError(f"{self.path} is damaged ({exc!r})") from exc

    @property
    def exists(self) -> bool:
        return self.path.exists()

    def open(self, floor: int, boot: str) -> None:
        """The journal is open and goes on after `floor`: reserve the seqs ahead."""
        self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        self.marks = Marks(floor, max(self.marks.reserved, floor + RESERVE), boot, True)
        self._write(sync=True)

    def reserve(self, upto: int) -> None:
        """Seqs up to `upto` are about to be handed out: reserve them (and more) first."""
        if upto <= self.marks.reserved:
            return
        self.marks = replace(self.marks, reserved=upto + RESERVE)
        self._write(sync=True)

    def handed(self, last: int, *, stored: bool = True) -> None:
        """Seqs up to `last` are handed out: `stored` in the fsynced journal (then a lost
        write costs nothing), or not (then it is fsynced here). Known here at once, even
        when the file cannot be written (`SeqMarkError`)."""
        marks = self.marks
        if last <= marks.last and last <= marks.reserved:
            return
        reserve = last > marks.reserved
        reserved = last + RESERVE if reserve else marks.reserved
        self.marks = replace(marks, last=max(marks.last, last), reserved=reserved)
        self._write(sync=reserve or not stored)

    def close(self) -> None:
        """A clean stop: nothing of this boot is left unsynced."""
        if self._fd is None:
            return
        try:
            self.marks = replace(self.marks, open=False)
            self._write(sync=True)
        except SeqMarkError as exc:
            log.warning("journal: %s", exc)
        finally:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None

    def _write(self, *, sync: bool) -> None:
        if self._fd is None:
            raise SeqMarkError(f"{self.path} is not open")
        text = json.dumps(asdict(self.marks), separators=(",", ":"))
        data = text.ljust(SIZE - 1).encode("ascii") + b"\n"
        try:
            if os.pwrite(self._fd, data, 0) != len(data):
                raise OSError("short write")
            if sync:
                os.fsync(self._fd)
        except OSError as exc:
            raise SeqMarkError(f"cannot write {self.path} ({exc})") from exc
