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


# state field -> the JSON type the page relies on
_STATE_TYPES: dict[str, type] = {
    "seats": list,
    "teams": list,
    "layout": dict,
    "surface": dict,
}


def is_state(payload: Json) -> bool:
    """True when `payload` has what the page draws from (seats, layout, surface...)."""
    if not payload.keys() >= STATE_KEYS:
        return False
    if not all(isinstance(payload[k], t) for k, t in _STATE_TYPES.items()):
        return False
    seats_ok = all(
        isinstance(s, dict) and int_or_none(s.get("seat")) is not None for s in payload["seats"]
    )
    layout = payload["layout"]
    return seats_ok and isinstance(layout.get("tiles", []), list)


def kind_of(payload: Json) -> str | None:
    """The event kind of an event payload (e.g. `state.last`), or None if unsure."""
    kind = payload.get("kind")
    if isinstance(kind, str):
        return kind
    for name, fields in _SIGNATURES:
        if fields <= payload.keys():
            return name
    return None


# event kind -> the fields the spec requires of it (besides `seq` and `game_id`)
EVENT_FIELDS: dict[str, frozenset[str]] = {
    "play": frozenset(("hand", "seat", "tile", "points", "ends_total", "score", "announce")),
    "pass": frozenset(("hand", "seat")),
    "draw": frozenset(("hand", "seat", "count")),
    "lead": frozenset(("hand", "seat")),
    "undo": frozenset(("hand", "undone", "points")),
    "alert": frozenset(("code", "severity", "message", "resolved", "id")),
    "hand": frozenset(("hand", "result", "winner", "team", "points", "pips", "scores")),
    "game": frozenset(("event", "winner", "team", "scores", "names")),
}
# field -> the type it must have where present
_FIELD_TYPES: dict[str, type | tuple[type, ...]] = {
    "game_id": str,
    "tile": str,
    "message": str,
    "code": str,
    "severity": str,
    "id": str,
    "resolved": bool,
    "announce": list,
    "pips": list,
    "scores": list,
    "names": list,
}


# fields the schema lets be null in some kinds: an alert's `tile` (no tile concerned)
_NULLABLE: dict[str, frozenset[str]] = {"alert": frozenset(("tile",))}


def is_event(kind: str, payload: Json) -> bool:
    """True when `payload` has the fields of a `kind` event the page relies on."""
    needed = EVENT_FIELDS.get(kind, frozenset()) | {"game_id"}
    if not payload.keys() >= needed or int_or_none(payload.get("seq")) is None:
        return False
    nullable = _NULLABLE.get(kind, frozenset())
    return all(
        isinstance(payload[k], t) or (k in nullable and payload[k] is None)
        for k, t in _FIELD_TYPES.items()
        if k in payload
    )


def int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
