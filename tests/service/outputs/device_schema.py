"""The device payloads of spec/mqtt.md "Outputs for devices that are not ours", as JSON
Schema (2020-12) written from the spec's text: `spec/mqtt-v1.schema.json` describes the
table's own payloads only. Every AWTRIX and WLED payload the tests see is checked here."""

from __future__ import annotations

import json
from typing import Any

import jsonschema

RGB = {"type": "array", "minItems": 3, "maxItems": 3,
       "items": {"type": "integer", "minimum": 0, "maximum": 255}}  # fmt: skip

SCHEMAS: dict[str, dict[str, Any]] = {
    "awtrix_app": {
        "type": "object",
        "required": ["text"],
        "properties": {
            "text": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "required": ["t", "c"],
                    "additionalProperties": False,
                    "properties": {
                        "t": {"type": "string", "minLength": 1},
                        "c": {"type": "string", "pattern": "^[0-9A-F]{6}$"},
                    },
                },
            }
        },
        # hold and lifetime are left to the clock's defaults
        "not": {"anyOf": [{"required": ["hold"]}, {"required": ["lifetime"]}]},
    },
    "awtrix_notify": {
        "type": "object",
        "required": ["text", "color", "duration"],
        "additionalProperties": False,
        "properties": {
            "text": {"type": "string", "minLength": 1, "maxLength": 60},
            "color": {"type": "string"},
            "duration": {"type": "integer"},
        },
        "oneOf": [
            {"properties": {"color": {"const": "FF0000"}, "duration": {"const": 5}}},
            {
                "properties": {
                    "color": {"const": "00FF00"},
                    "duration": {"const": 3},
                    "text": {"pattern": r"^(.+ )?\+[1-9][0-9]*$"},
                }
            },
        ],
    },
    "wled": {
        "type": "object",
        "required": ["on", "seg"],
        "properties": {
            "on": {"const": True},
            "seg": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "required": ["id", "start", "stop", "on", "col"],
                    "properties": {
                        "id": {"type": "integer", "minimum": 0},
                        "start": {"type": "integer", "minimum": 0},
                        "stop": {"type": "integer", "minimum": 1},
                        "on": {"type": "boolean"},
                        "col": {"type": "array", "minItems": 1, "maxItems": 3, "items": RGB},
                    },
                },
            },
        },
    },
}


def kind_of(topic: str, awtrix: str = "", wled: str = "") -> str | None:
    """The schema a device topic's payload must match (None: the app's deletion)."""
    if wled and topic == f"{wled}/api":
        return "wled"
    if awtrix and topic == f"{awtrix}/notify":
        return "awtrix_notify"
    if awtrix and topic.startswith(f"{awtrix}/custom/"):
        return "awtrix_app"
    raise AssertionError(f"{topic} is no device topic of the spec")


def check(kind: str, payload: bytes | dict[str, Any]) -> dict[str, Any]:
    """`payload` (bytes as sent, or parsed) checked against `kind`; the parsed payload."""
    body = json.loads(payload) if isinstance(payload, bytes) else payload
    errors = list(jsonschema.Draft202012Validator(SCHEMAS[kind]).iter_errors(body))
    if errors:
        detail = "; ".join(f"{'/'.join(map(str, e.path)) or '<root>'}: {e.message}" for e in errors)
        raise AssertionError(f"{kind} payload breaks spec/mqtt.md: {detail}: {body}")
    return dict(body)
