"""The tournament desk's one exception hierarchy."""

from __future__ import annotations


class TournamentError(Exception):
    """Root of every error the tournament desk raises on purpose."""


class ResultError(TournamentError, ValueError):
    """A `result/<game_id>` payload that cannot be counted; the message says why."""


class SettingsError(TournamentError, ValueError):
    """A setting is missing or out of range; the message says which and what to do."""


class StateDirError(TournamentError, OSError):
    """The desk cannot read or write its state directory."""
