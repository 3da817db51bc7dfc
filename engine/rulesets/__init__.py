"""The rulesets shipped with the engine, one TOML file each (`walnut.toml`, ...)."""

from __future__ import annotations

from functools import cache
from importlib import resources

from engine.rules import Rules, RulesError


def names() -> list[str]:
    """The shipped ruleset names, sorted."""
    return sorted(
        entry.name.removesuffix(".toml")
        for entry in resources.files(__package__).iterdir()
        if entry.name.endswith(".toml")
    )


def text(name: str) -> str:
    """The TOML text of a shipped ruleset."""
    if name not in names():
        raise RulesError(f"no ruleset named {name!r}; shipped: {', '.join(names())}")
    return (resources.files(__package__) / f"{name}.toml").read_text(encoding="utf-8")


@cache
def load(name: str) -> Rules:
    """A shipped ruleset by name."""
    return Rules.parse(text(name), source=f"{name}.toml")
