"""The `config` package's errors: one root, and the start-up error that lists problems."""

from __future__ import annotations


class ConfigError(Exception):
    """Root of every error raised by the `config` package."""


class SettingsError(ConfigError, ValueError):
    """The settings are invalid; `problems` holds one line per problem found.

    Every line names where the problem is (the settings file or the command-line flag),
    the key (`section.key`) and what is allowed, so the user can fix them all at once.
    """

    def __init__(self, problems: list[str] | tuple[str, ...]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(self.problems))
