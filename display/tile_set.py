"""The domino set a game uses (for the page's tile picker and the enrolment's default),
from the engine's rulesets by the state's `rules` and number of seats."""

from __future__ import annotations

from functools import cache
from typing import Any

from engine import rulesets
from engine.rules import RulesError


@cache
def tile_set(rules: str, seats: int) -> dict[str, Any] | None:
    """`{"name": "double-six", "max_pip": 6, "size": 28}`, or None for rules the engine
    does not ship (a house file) or a number of seats they do not allow."""
    try:
        found = rulesets.load(rules).domino_set(seats)
    except (RulesError, ValueError, KeyError):
        return None
    return {
        "name": found.name.lower().replace("_", "-"),
        "max_pip": found.max_pip,
        "size": found.size,
    }
