"""The display's one exception hierarchy."""

from __future__ import annotations


class DisplayError(Exception):
    """Root of every error the display raises on purpose."""


class SettingsError(DisplayError, ValueError):
    """A setting is missing or out of range; the message says which and what to do."""


class CommandError(DisplayError, ValueError):
    """A command from the page is malformed; the message is shown to the player."""
