"""A secret (an MQTT password, a command PIN) kept in a file named by a command-line flag."""

from __future__ import annotations

from pathlib import Path

import click


def password_from_file(path: Path | None, flag: str = "--mqtt-password-file") -> str | None:
    """The secret kept in a file (its text, stripped), for the display's and desk's flags;
    a click error naming `flag` when it cannot be read."""
    if path is None:
        return None
    try:
        return path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else "it is not UTF-8 text"
        raise click.BadParameter(f"cannot read {path}: {why}", param_hint=f"'{flag}'") from exc
