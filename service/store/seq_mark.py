"""The seq mark: which seqs a table has handed out, kept beside its journal.

A `seq` is never reused (spec/mqtt.md): a subscriber that saw seq 57 with one content
must never see another 57. The journal counts seqs, but a journal can be lost or damaged
(and then moved aside by hand), and while the disk is full the table hands out a seq the
journal cannot store (its fault alert). So a small file beside the journal,
`journal.seq`, keeps:

- `reserved`: every seq handed out is at most this. Moved on `RESERVE` seqs at a time,
  before the first of them is handed out, so even a journal lost in a power cut never
  has its seqs reused.
- `last`: the last seq handed out when the file was written. The journal, fsynced with
  every change, holds the later ones; a seq handed out that the journal does not hold
  (`handed(..., stored=False)`) is written here at once.
- `boot` and `open`: the machine's boot id when the journal was opened, and whether it
  is still open. A journal left open in an earlier boot went through a power cut or a
  crash of the machine: what was not fsynced may be lost, so its seqs go on after
  `reserved`. (A process killed in the same boot loses nothing the kernel was given.)

Every write goes through `durable.write_file` (a temporary file, fsynced, renamed over
the old one, the folder fsynced): after a power cut at any instant the file is the old
mark or the new one, never an empty or half-written one. The temporary file is kept
allocated between writes (`keep_spare`), so a write needs no new space on a full disk.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from durable import write_file

log = logging.getLogger(__name__)

FILE_NAME = "journal.seq"
RESERVE = 1000
SIZE = 160  # bytes: the JSON, padded with spaces, then a newline (one size: no new space)
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
    lock guards it.

    A file that cannot be read as a mark (empty, cut short, not JSON) is not raised at
    once: `damage` says what is wrong with it and `marks` are a fresh start's, and the
    journal decides (a journal that holds no event starts afresh; one that holds events
    does not go on from a mark it cannot read)."""

    def __init__(self, state_dir: Path) -> None:
        self.path = state_dir / FILE_NAME
        self.damage: str | None = None
        self.marks = self._read()
        self._open = False

    def _read(self) -> Marks:
        try:
            text = self.path.read_bytes().decode("ascii")
        except FileNotFoundError:
            return Marks()
        except UnicodeDecodeError as exc:
            self.damage = f"not text: {exc.reason}"
            return Marks()
        except OSError as exc:
            raise SeqMarkError(f"cannot read {self.path} ({exc})") from exc
        if not text.strip():
            self.damage = f"empty ({len(text)} bytes)"
            return Marks()
        try:
            data = json.loads(text)
            return Marks(int(data["last"]), int(data["reserved"]), str(data["boot"]), data["open"])
        except (ValueError, KeyError, TypeError) as exc:
            self.damage = repr(exc)
            return Marks()

    @property
    def exists(self) -> bool:
        return self.path.exists()

    def open(self, floor: int, boot: str) -> None:
        """The journal is open and goes on after `floor`: reserve the seqs ahead."""
        self.marks = Marks(floor, max(self.marks.reserved, floor + RESERVE), boot, True)
        self._open = True
        self._write()
        self.damage = None

    def reserve(self, upto: int) -> None:
        """Seqs up to `upto` are about to be handed out: reserve them (and more) first."""
        if upto <= self.marks.reserved:
            return
        self.marks = replace(self.marks, reserved=upto + RESERVE)
        self._write()

    def handed(self, last: int, *, stored: bool = True) -> None:
        """Seqs up to `last` are handed out: `stored` in the fsynced journal (then known
        here, and written with the next write), or not (then written here at once).
        Known here at once, even when the file cannot be written (`SeqMarkError`)."""
        marks = self.marks
        if last <= marks.last and last <= marks.reserved:
            return
        reserve = last > marks.reserved
        reserved = last + RESERVE if reserve else marks.reserved
        self.marks = replace(marks, last=max(marks.last, last), reserved=reserved)
        if reserve or not stored:
            self._write()

    def close(self) -> None:
        """A clean stop: nothing of this boot is left unsynced."""
        if not self._open:
            return
        self._open = False
        try:
            self.marks = replace(self.marks, open=False)
            self._write(closing=True)
        except SeqMarkError as exc:
            log.warning("journal: %s", exc)

    def _write(self, *, closing: bool = False) -> None:
        if not self._open and not closing:
            raise SeqMarkError(f"{self.path} is not open")
        text = json.dumps(asdict(self.marks), separators=(",", ":"))
        data = text.ljust(SIZE - 1).encode("ascii") + b"\n"
        try:
            write_file(self.path, data, mode=0o600, keep_spare=True)
        except OSError as exc:
            raise SeqMarkError(f"cannot write {self.path} ({exc})") from exc
