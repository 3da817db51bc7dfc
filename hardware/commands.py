"""The commands the panel sends: the `Commands` payloads of spec/mqtt.md, as plain dicts.

Every command has a unique ``id``: ``panel-<session>-<n>``, where the session is a
random token drawn when the panel starts. The service handles each ``id`` once and
answers a repeated one with the old reply, so ids must not repeat across restarts
either; a bare counter would.
"""

from __future__ import annotations

import itertools
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

__all__ = ["Action", "ButtonRole", "CommandIds", "Submit"]

Submit = Callable[[dict[str, Any]], None]
"""Hands one command payload to the service (called from gpiozero's threads)."""


class Action(StrEnum):
    """The command actions a panel button can send."""

    PASS = "pass"
    LEAD = "lead"
    DRAW = "draw"
    UNDO = "undo"
    NEXT_HAND = "next_hand"


@dataclass(frozen=True)
class ButtonRole:
    """What one button does: its settings key (``pass[2]``), action and seat (None = turn seat)."""

    use: str
    action: Action
    seat: int | None = None

    @property
    def held(self) -> bool:
        """True when the button acts only after being held (UNDO)."""
        return self.action is Action.UNDO

    def command(self, command_id: str, *, naming_leader: bool = False) -> dict[str, Any]:
        """The command payload for one press, e.g. ``{"id": .., "action": "pass", "seat": 2}``.

        A role without a seat leaves ``seat`` out: the service then takes the seat whose
        turn it is. ``draw`` always says ``"count": 1`` (one press, one tile). While the
        table asks who led (`naming_leader`), a seat's PASS button names that seat:
        ``{"action": "lead", "seat": s}``.
        """
        action = self.action
        if naming_leader and action is Action.PASS and self.seat is not None:
            action = Action.LEAD
        payload: dict[str, Any] = {"id": command_id, "action": action.value}
        if self.seat is not None:
            payload["seat"] = self.seat
        if self.action is Action.DRAW:
            payload["count"] = 1
        return payload


class CommandIds:
    """Thread-safe source of unique command ids: ``<prefix>-1``, ``<prefix>-2``, ..."""

    def __init__(self, prefix: str | None = None) -> None:
        self.prefix = prefix if prefix is not None else f"panel-{secrets.token_hex(4)}"
        self._counter = itertools.count(1)
        self._lock = threading.Lock()

    def next(self) -> str:
        """The next id."""
        with self._lock:
            return f"{self.prefix}-{next(self._counter)}"
