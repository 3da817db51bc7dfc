"""Players' commands from the page, checked before they go to `domino/<table>/cmd`.

The page posts `{"action": ..., fields...}` and may give its own `id` (so that a
retried press is not applied twice: the controller answers a known `id` again without
re-applying it). Unknown actions, unknown fields and fields of the wrong type are
refused here with a sentence the page shows.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from typing import Any

from display.errors import CommandError

TILE = re.compile(r"(1[0-8]|[0-9])-(1[0-8]|[0-9])")  # fullmatch
COMMAND_ID = re.compile(r"[A-Za-z0-9_.:-]{1,128}")  # fullmatch
LANGUAGES = ("en", "es")
SETS = ("double-six", "double-nine", "double-twelve")


def _seat(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise CommandError("a seat is a number from 0")
    return value


def _positive(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise CommandError("a count is a whole number from 1")
    return value


def _pips(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise CommandError("pips are a whole number from 0")
    return value


def _tile(value: Any) -> str:
    """A tile written high first, whichever order it came in."""
    match = TILE.fullmatch(value.strip()) if isinstance(value, str) else None
    if match is None:
        raise CommandError(f"{value!r} is not a tile: write it like 6-4")
    a, b = sorted((int(match[1]), int(match[2])), reverse=True)
    return f"{a}-{b}"


def _tiles(value: Any) -> list[str]:
    if not isinstance(value, list):
        raise CommandError("tiles are a list like ['6-4', '2-1']")
    return [_tile(v) for v in value]


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > 32:
        raise CommandError("a name is 1 to 32 characters")
    return value.strip()


def _rules(value: Any) -> str:
    if not isinstance(value, str) or not re.match(r"^[a-z0-9_-]{1,40}$", value):
        raise CommandError("rules is a ruleset name like walnut")
    return value


def _seats(value: Any) -> int | list[str]:
    if isinstance(value, list):
        return [_text(v) for v in value]
    return _positive(value)


def _teams(value: Any) -> list[int]:
    """One team number per seat, e.g. [0, 1, 0, 1] for seats 1+3 against 2+4."""
    if not isinstance(value, list):
        raise CommandError("teams is one team number per seat, like [0, 1, 0, 1]")
    return [_team(v) for v in value]


def _team(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise CommandError("a team is a number from 0")
    return value


def _set(value: Any) -> str:
    if value not in SETS:
        raise CommandError(f"set is one of {', '.join(SETS)}")
    return str(value)


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise CommandError("mat is true or false")
    return value


def _language(value: Any) -> str:
    if value not in LANGUAGES:
        raise CommandError("language is en or es")
    return str(value)


Check = Callable[[Any], Any]

# action -> (required fields, optional fields)
ACTIONS: dict[str, tuple[dict[str, Check], dict[str, Check]]] = {
    "new_game": (
        {"rules": _rules, "seats": _seats},
        {"teams": _teams, "target": _positive, "language": _language},
    ),
    "next_hand": ({}, {}),
    "pass": ({}, {"seat": _seat}),
    "draw": ({}, {"seat": _seat, "count": _positive}),
    "lead": ({"seat": _seat}, {}),
    "out": ({"seat": _seat}, {}),
    "undo": ({}, {}),
    "correct": ({"tile": _tile, "as": _tile}, {}),
    "count": ({"seat": _seat}, {"tiles": _tiles, "pips": _pips}),
    "confirm": ({}, {"seat": _seat}),  # a seat: confirms a finished game's result
    "end_hand": ({}, {}),
    "rename": ({"seat": _seat, "name": _text}, {}),
    "redeal": ({}, {}),
    "snapshot": ({}, {}),
    "calibrate": ({}, {}),
    "enrol": ({}, {"set": _set, "mat": _flag}),
}


def new_id() -> str:
    return f"display-{uuid.uuid4().hex}"


def build_command(body: Any) -> dict[str, Any]:
    """The command payload for `body`, or CommandError saying what is wrong."""
    if not isinstance(body, dict):
        raise CommandError("a command is a JSON object with an action")
    action = body.get("action")
    if action not in ACTIONS:
        raise CommandError(f"unknown action {action!r}")
    required, optional = ACTIONS[action]
    given = {k: v for k, v in body.items() if k not in ("action", "id")}
    unknown = sorted(given.keys() - required.keys() - optional.keys())
    if unknown:
        raise CommandError(f"{action} takes no {', '.join(unknown)}")
    missing = sorted(required.keys() - given.keys())
    if missing:
        raise CommandError(f"{action} needs {', '.join(missing)}")
    if action == "count" and ("tiles" in given) == ("pips" in given):
        raise CommandError("count needs either tiles or pips")
    checks = {**required, **optional}
    command_id = body.get("id", new_id())
    if not isinstance(command_id, str) or not COMMAND_ID.fullmatch(command_id):
        raise CommandError("a command id is 1 to 128 letters, digits or -_.:")
    return {"id": command_id, "action": action, **{k: checks[k](v) for k, v in given.items()}}
