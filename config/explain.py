"""Turns pydantic's validation errors into `(section.key, reason)` pairs a user can act on."""

from __future__ import annotations

import difflib
import re
import typing
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel
from pydantic_core import ErrorDetails

from config.checks import toml_type

# A check that concerns several keys already names the key: "table.names: 3 names ...".
_KEYED = re.compile(r"^([a-z_]+(?:\.[a-z0-9_]+)*): (.*)$", re.DOTALL)
_HIDDEN_FIELDS = frozenset({"password", "key_passphrase"})

_EXPECTED = {
    "int_type": "an integer",
    "int_parsing": "an integer",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "string_type": "a string",
    "float_type": "a number",
    "float_parsing": "a number",
    "list_type": "an array",
    "tuple_type": "an array",
    "dict_type": "a table",
    "model_type": "a table (a [section])",
    "model_attributes_type": "a table (a [section])",
}


def key_of(loc: tuple[int | str, ...]) -> str:
    """`("table", "names", 2)` -> `table.names[2]`; seat numbers under `zones` stay keys."""
    out = ""
    for index, part in enumerate(loc):
        if isinstance(part, int) and not (index and loc[index - 1] == "zones"):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _model_at(root: type[BaseModel], loc: tuple[int | str, ...]) -> type[BaseModel] | None:
    model = root
    for part in loc:
        field = model.model_fields.get(str(part))
        annotation: Any = field.annotation if field else None
        # an optional section (`[outputs.awtrix]`, `AwtrixSettings | None`): its model
        members = typing.get_args(annotation) or (annotation,)
        models = [m for m in members if isinstance(m, type) and issubclass(m, BaseModel)]
        if len(models) != 1:
            return None
        model = models[0]
    return model


def _unknown_key(root: type[BaseModel], loc: tuple[int | str, ...]) -> str:
    model = _model_at(root, loc[:-1])
    if model is None:
        return "unknown key"
    allowed = [
        field.alias or name
        for name, field in model.model_fields.items()
        if name not in _HIDDEN_FIELDS
    ]
    what = "section" if len(loc) == 1 else "key"
    where = f" in [{key_of(loc[:-1])}]" if len(loc) > 1 else ""
    close = difflib.get_close_matches(str(loc[-1]), allowed, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    return f"unknown {what}: {hint}allowed{where}: {', '.join(allowed)}"


def _ctx(error: ErrorDetails, name: str) -> Any:
    return error.get("ctx", {}).get(name, "")


_REASONS: dict[str, Callable[[ErrorDetails], str]] = {
    "missing": lambda e: "is required",
    "enum": lambda e: f"{e['input']!r} is not allowed: use {_ctx(e, 'expected')}",
    "literal_error": lambda e: f"{e['input']!r} is not allowed: use {_ctx(e, 'expected')}",
    "string_too_short": lambda e: "must not be empty",
    "too_short": lambda e: "must not be empty",
    "string_too_long": lambda e: f"is too long (at most {_ctx(e, 'max_length')} characters)",
    "too_long": lambda e: (
        f"is too long (at most {_ctx(e, 'max_length')} characters)"
        if isinstance(e.get("input"), str)
        else f"has too many items (at most {_ctx(e, 'max_length')})"
    ),
}


def _reason(error: ErrorDetails) -> str:
    kind = error["type"]
    if kind in _EXPECTED:
        value = error.get("input")
        return f"expected {_EXPECTED[kind]}, got {value!r} ({toml_type(value)})"
    formatter = _REASONS.get(kind)
    return formatter(error) if formatter else error["msg"]


def describe(error: ErrorDetails, root: type[BaseModel]) -> list[tuple[str, str]]:
    """One or more `(key, reason)` pairs for one pydantic error of the model `root`."""
    loc = tuple(error["loc"])
    key = key_of(loc)
    if error["type"] == "value_error":
        text = str(_ctx(error, "error") or error["msg"])
        pairs = []
        for line in text.splitlines():
            keyed = _KEYED.match(line)
            pairs.append((keyed.group(1), keyed.group(2)) if keyed else (key, line))
        return pairs
    if error["type"] == "extra_forbidden":
        return [(key, _unknown_key(root, loc))]
    return [(key, _reason(error))]
