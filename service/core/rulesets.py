"""Where the table finds its rules: a ruleset shipped with the engine, or a house's file."""

from __future__ import annotations

from pathlib import Path

from engine import rulesets
from engine.rules import Rules, RulesError


def find_rules(name: str) -> Rules:
    """A shipped ruleset by name, or a house's own TOML file by path."""
    path = Path(name)
    if name.endswith(".toml") or path.is_file():
        try:
            return Rules.parse(path.read_text(encoding="utf-8"), source=str(path))
        except OSError as exc:
            raise RulesError(f"{path}: cannot read the ruleset: {exc.strerror}") from None
    return rulesets.load(name)
