"""Journals written before `engine.inputs` (schema 1), converted when they are opened.

Schema 1 kept each input as the table core's own dict, `{"input": "<kind>", ...}`, with
names of its own: a play at an open end as `node`, `edge` (an `Edge` number) and `pip`,
or joined `to` a tile with `end` (the number) and `kind`; where the tile lay as
`coords`, `[xa, ya, xb, yb]`; every seat's tiles at once as a `count_tiles` input.
Schema 2 keeps each input in its `engine.inputs` JSON form. `service.store.journal`
rewrites every input of a schema-1 journal with `converted`, in the transaction that
sets its version, so a journal is converted whole or not at all; an input that cannot be
converted stops it (`UpgradeError`) and the journal stays as it was.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from engine.inputs import InputError, read
from engine.layout import Edge

Body = Mapping[str, Any]
_EDGE_NAMES: dict[object, str] = {int(e): e.name.lower() for e in Edge}
_NEW_GAME = "rules seats names teams target language game_id tournament round players ends_at"


class UpgradeError(ValueError):
    """A schema-1 input that is no input: the journal cannot be converted."""


def _play(old: Body) -> dict[str, Any]:
    new: dict[str, Any] = {"tile": old.get("tile")}
    if old.get("node") is not None:
        edge = old.get("edge")
        new |= {"node": old["node"], "edge": _EDGE_NAMES.get(edge, edge), "pip": old.get("pip")}
    elif old.get("to") is not None:
        new |= {"to": old["to"], "pip": old.get("end"), "kind": old.get("kind")}
    coords = old.get("coords")
    if coords:
        new |= dict(zip(("xa", "ya", "xb", "yb"), coords, strict=True))
    return new


def _same(*names: str) -> Callable[[Body], dict[str, Any]]:
    """An input whose fields kept their names."""
    return lambda old: {name: old.get(name) for name in names}


_CONVERT: dict[str, tuple[str, Callable[[Body], dict[str, Any]]]] = {
    "play": ("play", _play),
    "pass": ("pass", _same("seat")),
    "draw": ("draw", _same("seat", "count")),
    "lead": ("lead", _same("seat")),
    "out": ("out", _same("seat")),
    "undo": ("undo", _same()),
    "correct": ("correct", _same("tile", "as")),
    "count": ("count", _same("seat", "tiles", "pips")),
    "confirm": ("confirm", _same("seat", "tiles")),
    "count_tiles": ("counts", _same("tiles")),
    "end_hand": ("end_hand", _same()),
    "next_hand": ("next_hand", _same()),
    "redeal": ("redeal", _same()),
    "rename": ("rename", _same("seat", "name")),
    "time": ("time", _same("at")),
    "new_game": (
        "new_game",
        _same(*_NEW_GAME.split()),
    ),
}
"""Each schema-1 input kind: its action now, and its fields as the input reads them."""


def converted(old: Body) -> dict[str, Any]:
    """A schema-1 input in its `engine.inputs` JSON form (`UpgradeError`: it is none)."""
    kind = old.get("input")
    if not isinstance(kind, str) or kind not in _CONVERT:
        raise UpgradeError(f"an input of no known kind ({json.dumps(kind)})")
    action, fields = _CONVERT[kind]
    new = {"action": action, **{k: v for k, v in fields(old).items() if v is not None}}
    try:
        return read(new).to_json()
    except InputError as exc:
        raise UpgradeError(f"a {kind} input that reads as no input: {exc}") from None


__all__ = ["UpgradeError", "converted"]
