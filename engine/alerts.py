"""The alert codes of spec/mqtt.md and how urgent each is: the one list of them.

An alert tells the players that something on the table needs them: an illegal play
(`NO_MATCH`), a question (`LEAD_UNKNOWN`), a fault (`BOARD_OFFLINE`). Its `code` is one
of `AlertCode`, its `severity` one of `Severity`. The engine's judgements map onto codes
(`engine.events.Reason.alert_code`); the reconciler and the table service raise the
codes only they can see (`TILE_LIFTED`, `UNREADABLE`, `BOARD_OFFLINE`, ...). What each
code says to a player, in each language, is in `engine.messages`.

Subscribers get codes over MQTT as strings: compare them to `AlertCode.X.value`.
"""

from __future__ import annotations

from enum import Enum


class Severity(Enum):
    """How urgent an alert is (spec/mqtt.md `severity`)."""

    ILLEGAL = "illegal"  # a play or count against the rules: fix the table
    WARNING = "warning"  # the table needs to be told something, or cannot be sure
    FAULT = "fault"  # a part of the table (board, camera) is not working

    def __str__(self) -> str:
        return self.value


class AlertCode(Enum):
    """Every alert code of spec/mqtt.md; `severity` is the code's default severity."""

    NO_MATCH = "NO_MATCH"  # touches an end showing another number
    NOT_TOUCHING = "NOT_TOUCHING"  # joins no open end
    CLOSED_END = "CLOSED_END"  # a spinner arm or a double's side not open yet
    UNKNOWN_TILE = "UNKNOWN_TILE"  # not in this set
    DUPLICATE_TILE = "DUPLICATE_TILE"  # already on the table
    TILE_LIFTED = "TILE_LIFTED"  # a played tile left the layout
    BAD_LEAD = "BAD_LEAD"  # this tile (or seat) may not lead
    LEAD_UNKNOWN = "LEAD_UNKNOWN"  # waiting to be told who led
    EARLY_OUT = "EARLY_OUT"  # a seat cannot be out yet
    FALSE_KNOCK = "FALSE_KNOCK"  # a shown tile fitted when its holder passed
    COUNT_MISMATCH = "COUNT_MISMATCH"  # counted tiles disagree with the game
    UNREADABLE = "UNREADABLE"  # the camera cannot be sure
    BOARD_OFFLINE = "BOARD_OFFLINE"
    CAMERA_OFFLINE = "CAMERA_OFFLINE"
    OUT_OF_TURN = "OUT_OF_TURN"  # not this seat's turn, or not in this phase of the hand
    BAD_DRAW = "BAD_DRAW"  # a draw the rules forbid
    DISK_FULL = "DISK_FULL"  # the table cannot store what happens: it takes nothing

    @property
    def severity(self) -> Severity:
        """How urgent an alert with this code is, unless its raiser says otherwise."""
        return _SEVERITY.get(self, Severity.ILLEGAL)

    def __str__(self) -> str:
        return self.value


_SEVERITY = {
    AlertCode.LEAD_UNKNOWN: Severity.WARNING,
    AlertCode.UNREADABLE: Severity.WARNING,
    AlertCode.BOARD_OFFLINE: Severity.FAULT,
    AlertCode.CAMERA_OFFLINE: Severity.FAULT,
    AlertCode.DISK_FULL: Severity.FAULT,
}

__all__ = ["AlertCode", "Severity"]
