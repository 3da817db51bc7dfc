"""What the history's thread hands the table service (through `submit`): plain values.

- `HistoryAnswer`: the answer to a `history` or `frame` command, for its reply; for
  `frame`, the picture to publish first on `<prefix>/history/frame`;
- `HistoryTrouble`: the record cannot be written (`detail` says why: a full disk), or
  can again (`detail` None): a standing `DISK_FULL` alert, raised or resolved; the game
  goes on either way.

And what the table's bus carries to the MQTT link: `HistoryFrame`, the picture itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["HistoryAnswer", "HistoryFrame", "HistoryTrouble"]


@dataclass(frozen=True, slots=True, eq=False)
class HistoryAnswer:
    """`error` None: done; `detail` goes into the reply; `picture` (a JPEG or PNG, its
    bytes) is published on `history/frame` before the reply."""

    command_id: str
    error: str | None
    detail: dict[str, Any] | None = None
    picture: bytes | None = None

    def __repr__(self) -> str:
        size = f", picture of {len(self.picture)} bytes" if self.picture is not None else ""
        return f"HistoryAnswer({self.command_id!r}, error={self.error!r}{size})"


@dataclass(frozen=True, slots=True)
class HistoryTrouble:
    """The record cannot be written (`detail`: why), or can again (None)."""

    detail: str | None


@dataclass(frozen=True, slots=True, eq=False)
class HistoryFrame:
    """A kept frame to publish once on `<prefix>/history/frame` (raw JPEG or PNG bytes)."""

    image: bytes

    def __repr__(self) -> str:
        return f"HistoryFrame({len(self.image)} bytes)"
