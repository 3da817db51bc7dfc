"""The desk's own payloads against mqtt-v1.schema.json: `round` and `desk_command`, which
tests/fixtures/spec.py does not list, and `standings` and `reply` through it."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import jsonschema

from tests.fixtures.spec import SCHEMA_PATH, validate

DESK_KINDS = ("round", "desk_command")


@cache
def _validator(kind: str) -> jsonschema.Draft202012Validator:
    schema = json.loads(SCHEMA_PATH.read_text())
    return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{kind}", "$defs": schema["$defs"]})


def check(kind: str, payload: Any) -> None:
    """AssertionError naming every way `payload` breaks the `kind` schema."""
    if kind not in DESK_KINDS:
        validate(kind, payload)
        return
    errors = list(_validator(kind).iter_errors(payload))
    if errors:
        detail = "; ".join(f"{'/'.join(map(str, e.path)) or '<root>'}: {e.message}" for e in errors)
        raise AssertionError(f"{kind} payload breaks mqtt-v1.schema.json: {detail}")
