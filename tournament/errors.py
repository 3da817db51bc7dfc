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


class ListenError(TournamentError, OSError):
    """The pages cannot listen on the address and port asked for (in use, or not ours)."""


class EventFileError(TournamentError, ValueError):
    """The event file cannot run an event; one line per problem, each naming its key."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


class JournalError(TournamentError, OSError):
    """The desk's journal cannot be read or written, or belongs to another event."""


class CommandError(TournamentError, ValueError):
    """A desk command that is malformed or out of place; the message says why."""
