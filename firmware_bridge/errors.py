"""The package's exceptions: one root, each also inheriting the builtin it resembles."""

from __future__ import annotations


class BoardError(Exception):
    """Root of every error raised by `firmware_bridge`."""


class FrameError(BoardError, ValueError):
    """Bytes or values that are not a valid protocol frame."""


class BoardSettingsError(BoardError, ValueError):
    """A link setting out of bounds."""


class BoardNotFoundError(BoardError, FileNotFoundError):
    """No serial device where the settings say the board is."""


class BoardRefusedError(BoardError, ConnectionRefusedError):
    """The board answered but cannot be used (protocol version, pip range)."""


class BoardTimeoutError(BoardError, TimeoutError):
    """The board did not answer in time."""


class BoardCommandError(BoardError, ValueError):
    """A host command (LED, BEEP) with arguments the protocol cannot carry."""


class ScriptError(BoardError, ValueError):
    """An emulator script step that cannot be played."""
