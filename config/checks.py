"""Reusable field checks for the settings models, each with a message that says what is allowed.

Pydantic wraps the `ValueError`s raised here; `config.loader` shows their text as is,
after the file and the `section.key` they concern.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

from pydantic import AfterValidator, Field, ValidationInfo, WrapValidator
from pydantic_core.core_schema import ValidatorFunctionWrapHandler

TABLE_ID = re.compile(r"[a-z0-9][a-z0-9_-]*")
RESERVED_TABLE_IDS = frozenset({"tournament"})
USB_ID = re.compile(r"[0-9a-fA-F]{4}:[0-9a-fA-F]{4}")


def toml_type(value: object) -> str:
    """The TOML name of a parsed value's type, for messages."""
    names = {bool: "a boolean", int: "an integer", float: "a float", str: "a string"}
    for kind, name in names.items():
        if type(value) is kind:
            return name
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


def between(lo: int | float, hi: int | float, what: str = "") -> AfterValidator:
    """A bound check: `value` must lie in lo..hi (inclusive)."""

    def check(value: Any) -> Any:
        if not lo <= value <= hi:
            noun = f" is not {what}" if what else " is out of range"
            raise ValueError(f"{value!r}{noun} ({lo}-{hi})")
        return value

    return AfterValidator(check)


def _port(value: int) -> int:
    if not 1 <= value <= 65535:
        raise ValueError(f"{value} is not a port (1-65535)")
    return value


Port = Annotated[int, AfterValidator(_port)]


def _table_id(value: str) -> str:
    if not TABLE_ID.fullmatch(value):
        raise ValueError(
            f"{value!r} is not a table id: use lower-case letters, digits, '_' and '-', "
            "starting with a letter or digit"
        )
    if value in RESERVED_TABLE_IDS:
        raise ValueError(f"{value!r} is reserved for the tournament desk: choose another table id")
    return value


TableId = Annotated[str, AfterValidator(_table_id)]


def _non_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty")
    return value


NonBlank = Annotated[str, AfterValidator(_non_blank)]


def _usb_id(value: str) -> str:
    if not USB_ID.fullmatch(value):
        raise ValueError(
            f"{value!r} is not a USB id: write vendor:product in hex, e.g. '2e8a:000a'"
        )
    return value.lower()


UsbId = Annotated[str, AfterValidator(_usb_id)]


def _topic_prefix(value: str) -> str:
    levels = value.split("/")
    if not value or value.startswith("$") or any(not level for level in levels):
        raise ValueError(
            f"{value!r} is not a topic prefix: use levels separated by single '/', "
            "no leading or trailing '/', not starting with '$'"
        )
    if any(char in value for char in "+#\0"):
        raise ValueError(f"{value!r} is not a topic prefix: '+' and '#' are wildcards")
    if levels[:2] == ["domino", "tournament"]:
        raise ValueError(f"{value!r} is reserved for the tournament desk")
    return value


TopicPrefix = Annotated[str, AfterValidator(_topic_prefix)]


def _env_name(value: str) -> str:
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value):
        raise ValueError(f"{value!r} is not an environment variable name")
    return value


EnvName = Annotated[str, AfterValidator(_env_name)]


def _as_path(value: Any, info: ValidationInfo) -> Path:
    """A string (or Path) made absolute against the settings file's folder."""
    if isinstance(value, Path):
        path = value
    elif isinstance(value, str) and value.strip():
        path = Path(value).expanduser()
    else:
        raise ValueError(f"expected a path as a string, got {toml_type(value)}")
    base = (info.context or {}).get("base_dir")
    if not path.is_absolute() and isinstance(base, Path):
        path = base / path
    return path


def _path_validator(must: Callable[[Path], bool] | None, what: str) -> WrapValidator:
    def wrap(value: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo) -> Path:
        path = _as_path(value, info)
        if must is not None and not must(path):
            raise ValueError(f"{path} {what}")
        return path

    return WrapValidator(wrap)


AnyPath = Annotated[Path, Field(strict=False), _path_validator(None, "")]
ExistingFile = Annotated[
    Path,
    Field(strict=False),
    _path_validator(Path.is_file, "is not a readable file: create it or fix the path"),
]
ExistingDir = Annotated[
    Path,
    Field(strict=False),
    _path_validator(Path.is_dir, "is not a folder: create it or fix the path"),
]


def _absolute(value: Path) -> Path:
    if not value.is_absolute():
        raise ValueError(f"{value} is not an absolute path (e.g. /dev/serial/by-id/...)")
    return value


DevicePath = Annotated[Path, Field(strict=False), AfterValidator(_absolute)]
