"""Reading the controller's JSON payloads defensively (they come from the network).

`kind_of` names the event behind `state.last`, which carries no kind of its own: the
spec's events are told apart by their required fields. `pass` and `lead` share theirs
(`hand`, `seat`) and are only told apart when a payload says its `kind`.
"""

from __future__ import annotations

import json
import logging
from typing import Any

log = logging.getLogger(__name__)

Json = dict[str, Any]

STATE_KEYS = frozenset(
    ("seq", "game_id", "hand", "phase", "turn", "surface", "seats", "teams", "layout")
)

# kind -> fields that only that kind's payload requires, checked in order
_SIGNATURES: tuple[tuple[str, frozenset[str]], ...] = (
    ("alert", frozenset(("code", "severity", "message"))),
    ("hand", frozenset(("result", "pips"))),
    ("game", frozenset(("event", "names"))),
    ("undo", frozenset(("undone",))),
    ("play", frozenset(("tile", "ends_total"))),
    ("draw", frozenset(("count", "seat"))),
)


def parse_json(topic: str, raw: bytes) -> Json | None:
    """The JSON object in `raw`, or None (logged) when it is not one."""
    try:
        value = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        log.warning("mqtt: %s carries no JSON (%d bytes): ignored", topic, len(raw))
        return None
    if not isinstance(value, dict):
        log.warning("mqtt: %s carries JSON that is not an object: ignored", topic)
        return None
    return value


def is_state(payload: Json) -> bool:
    return payload.keys() >= STATE_KEYS and isinstance(payload.get("seats"), list)


def kind_of(payload: Json) -> str | None:
    """The event kind of an event payload (e.g. `state.last`), or None if unsure."""
    kind = payload.get("kind")
    if isinstance(kind, str):
        return kind
    for name, fields in _SIGNATURES:
        if fields <= payload.keys():
            return name
    return None


def int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
