"""The record of the nets the package ships: `vision/learned/models.toml`.

Like OpenCV's `samples/dnn/models.yml`, the manifest names each net's file, its sha256
and the input it takes, and beside them how it was made: the commit and command that
trained it, its seeds, the data it saw and its validation figures. This module reads
the part the package needs to run a net (`Net`), and `checked_bytes` gives a net's
file only when its hash is the manifest's: a file changed by hand, damaged or trained
anew without a new record is refused, never run. Nothing is downloaded.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from vision.errors import VisionError

PACKAGE: Final = "vision.learned"
MANIFEST: Final = "models.toml"
FOLDER: Final = "vision/learned"


class LearnedError(VisionError):
    """A learned part's model is missing, unreadable or not the one recorded, or its
    input is wrong."""


@dataclass(frozen=True, slots=True)
class Net:
    """One shipped net as the package runs it (`models.toml`, `[nets.NAME]`)."""

    name: str
    file: str
    sha256: str
    size: int  # bytes
    width: int  # the input patch, pixels along the tile
    height: int  # pixels across it


def _read(name: str) -> bytes:
    try:
        return resources.files(PACKAGE).joinpath(name).read_bytes()
    except OSError as exc:
        raise LearnedError(
            f"{FOLDER}/{name} is missing from the installed package ({exc}): reinstall domino-table"
        ) from exc


_KINDS: Final = {str: "a string", int: "an integer", dict: "a table"}


def _field(table: dict[str, Any], key: str, kind: type, where: str) -> Any:
    value = table.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise LearnedError(
            f"{FOLDER}/{MANIFEST}: {where}.{key} must be {_KINDS[kind]}, not {value!r}"
        )
    return value


def parse(text: str) -> tuple[Net, ...]:
    """The nets of a manifest's text, in its order; a malformed one is refused."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LearnedError(f"{FOLDER}/{MANIFEST} is not TOML: {exc}") from exc
    nets = doc.get("nets")
    if not isinstance(nets, dict) or not nets:
        raise LearnedError(f"{FOLDER}/{MANIFEST} records no net ([nets.NAME] tables)")
    out = []
    for name, table in nets.items():
        where = f"nets.{name}"
        if not isinstance(table, dict):
            raise LearnedError(f"{FOLDER}/{MANIFEST}: {where} must be a table")
        sha = _field(table, "sha256", str, where)
        if len(sha) != 64 or any(c not in "0123456789abcdef" for c in sha):
            raise LearnedError(
                f"{FOLDER}/{MANIFEST}: {where}.sha256 must be 64 lower-case hex digits"
            )
        shape = _field(table, "input", dict, where)
        out.append(
            Net(
                name=name,
                file=_field(table, "file", str, where),
                sha256=sha,
                size=_field(table, "bytes", int, where),
                width=_field(shape, "width", int, f"{where}.input"),
                height=_field(shape, "height", int, f"{where}.input"),
            )
        )
    return tuple(out)


@cache
def nets() -> tuple[Net, ...]:
    """The nets the package ships, as `models.toml` records them."""
    return parse(_read(MANIFEST).decode("utf-8"))


def checked_bytes(net: Net) -> bytes:
    """The file of `net`, only if it is the one the manifest records (its sha256)."""
    data = _read(net.file)
    got = hashlib.sha256(data).hexdigest()
    if got != net.sha256:
        raise LearnedError(
            f"{FOLDER}/{net.file} is not the net {FOLDER}/{MANIFEST} records "
            f"(sha256 {got}, {len(data)} bytes; recorded {net.sha256}, {net.size} bytes): "
            "reinstall domino-table to get the shipped file back; a net trained anew "
            "ships only with its own record (`python -m training.recipe`, docs on the "
            "learned veto)"
        )
    return data
