"""A value that writes itself as JSON: each owner of the table core's state holds it in one.

The reconciler (`reconciler.Memory`), the core (`table_memory.CoreMemory`) and the
seating (`seating.Seated`) each hold their state in one frozen dataclass that subclasses
`Kept`. `as_dict()` writes it as JSON and `from_dict()` reads it back, each field by its
annotated type, so nothing else knows its fields: the journal keeps the JSON it is given
(as Home Assistant's `ExtraStoredData.as_dict` and `StoredState.from_dict`).

A field added with a default is one edit: it is written from then on, and a value written
before it reads back with the default. A field with `metadata=NOT_KEPT` is part of the
value (a change the journal could not store puts it back) but is not written: it is not
kept across a restart, and reads back as its default.

How each type is written:

- `int`, `float`, `str`, `bool`: as themselves; an `Enum` by its value; `Any`: as it is
  (a payload already in JSON form);
- `X | None`: null, or X;
- `tuple[X, ...]`: a list; a `NamedTuple` (`engine.events.Coords`): the list of its fields;
- `Mapping[str, V]`: an object; a mapping with other keys: a list of `[key, value]` pairs;
- a `Kept` value: the object of its kept fields;
- `Tile`: its text (`"6-4"`); `SeenTile`: `[a, b, xa, ya, xb, yb, confidence]`;
- a class with `to_json()` and a classmethod `from_json()`: by them;
- `Annotated[T, Codec(...)]`: as that codec says (`BY_TILE`: tiles and where they lie,
  as the list of where they lie).

Any other type is refused with a TypeError naming the field, the first time its class is
written or read (`tests/service/core/test_kept.py` writes every one).
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Self

from engine.surface import SeenTile
from engine.tiles import Tile

NOT_KEPT: Mapping[str, Any] = types.MappingProxyType({"kept": False})
"""The metadata of a field not written (`dataclasses.field(..., metadata=NOT_KEPT)`)."""


@dataclass(frozen=True, slots=True)
class Codec:
    """How one type is written as JSON (`encode`) and read back (`decode`)."""

    encode: Callable[[Any], Any]
    decode: Callable[[Any], Any]


class Kept:
    """A frozen dataclass that writes itself as JSON (see the module's doc)."""

    __slots__ = ()

    def as_dict(self) -> dict[str, Any]:
        """The kept fields as JSON."""
        return {name: codec.encode(getattr(self, name)) for name, codec in _codecs(type(self))}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The value `as_dict` wrote; a field it lacks (a field newer than it, or one not
        kept) takes its default."""
        given = {name: codec.decode(data[name]) for name, codec in _codecs(cls) if name in data}
        return cls(**given)

    def over(self, now: Self) -> Self:
        """This value read back over `now`: its kept fields, and the fields not kept as
        they are `now`."""
        kept = {name for name, _ in _codecs(type(self))}
        fields = dataclasses.fields(self)  # type: ignore[arg-type]
        same = {f.name: getattr(now, f.name) for f in fields if f.init and f.name not in kept}
        out: Self = dataclasses.replace(self, **same)  # type: ignore[type-var]
        return out


def _same(value: Any) -> Any:
    return value


def _seen(seen: SeenTile) -> list[float]:
    return [seen.a, seen.b, seen.xa, seen.ya, seen.xb, seen.yb, seen.confidence]


def _seen_of(v: list[float]) -> SeenTile:
    return SeenTile(int(v[0]), int(v[1]), v[2], v[3], v[4], v[5], v[6])


_PLAIN: dict[Any, Codec] = {
    int: Codec(_same, int),
    float: Codec(_same, _same),
    str: Codec(_same, str),
    bool: Codec(_same, bool),
    Any: Codec(_same, _same),
    Tile: Codec(lambda t: t.text, Tile.parse),
    SeenTile: Codec(_seen, _seen_of),
}

BY_TILE = Codec(
    lambda by_tile: [_seen(s) for s in by_tile.values()],
    lambda v: {s.tile: s for s in map(_seen_of, v)},
)
"""Tiles and where each lies (`Mapping[Tile, SeenTile]`): written as where they lie."""


_CODECS: dict[type, tuple[tuple[str, Codec], ...]] = {}


def _codecs(cls: type) -> tuple[tuple[str, Codec], ...]:
    """The codec of each kept field of `cls`, in order (found once)."""
    found = _CODECS.get(cls)
    if found is None:
        found = _CODECS[cls] = _find_codecs(cls)
    return found


def _find_codecs(cls: type) -> tuple[tuple[str, Codec], ...]:
    hints = typing.get_type_hints(cls, include_extras=True)
    out = []
    for f in dataclasses.fields(cls):
        if f.metadata.get("kept", True):
            try:
                out.append((f.name, _codec(hints[f.name])))
            except TypeError as exc:
                raise TypeError(f"{cls.__name__}.{f.name}: {exc}") from None
    return tuple(out)


def _codec(tp: Any) -> Codec:
    """The codec of one annotated type."""
    if tp in _PLAIN:
        return _PLAIN[tp]
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Annotated:
        given = [a for a in args[1:] if isinstance(a, Codec)]
        return given[0] if given else _codec(args[0])
    if origin is typing.Union or origin is types.UnionType:
        return _optional(args)
    if origin is tuple:
        return _tuple(args)
    if origin is dict or origin is Mapping:
        return _mapping(*args)
    if isinstance(tp, type):
        return _class(tp)
    raise TypeError(f"cannot keep a {tp!r}")


def _optional(args: tuple[Any, ...]) -> Codec:
    rest = [a for a in args if a is not types.NoneType]
    if len(rest) != 1 or len(args) != 2:
        raise TypeError(f"cannot keep a union of {args!r}: only `X | None`")
    inner = _codec(rest[0])
    return Codec(
        lambda v: None if v is None else inner.encode(v),
        lambda v: None if v is None else inner.decode(v),
    )


def _tuple(args: tuple[Any, ...]) -> Codec:
    if len(args) == 2 and args[1] is Ellipsis:
        item = _codec(args[0])
        return Codec(lambda v: [item.encode(x) for x in v], lambda v: tuple(map(item.decode, v)))
    items = [_codec(a) for a in args]
    return Codec(
        lambda v: [c.encode(x) for c, x in zip(items, v, strict=True)],
        lambda v: tuple(c.decode(x) for c, x in zip(items, v, strict=True)),
    )


def _mapping(key_type: Any, value_type: Any) -> Codec:
    value = _codec(value_type)
    if key_type is str:
        return Codec(
            lambda m: {k: value.encode(v) for k, v in m.items()},
            lambda d: {str(k): value.decode(v) for k, v in d.items()},
        )
    key = _codec(key_type)
    return Codec(
        lambda m: [[key.encode(k), value.encode(v)] for k, v in m.items()],
        lambda pairs: {key.decode(k): value.decode(v) for k, v in pairs},
    )


def _class(tp: type) -> Codec:
    if issubclass(tp, enum.Enum):
        return Codec(lambda e: e.value, tp)
    if issubclass(tp, Kept):
        return Codec(lambda v: v.as_dict(), tp.from_dict)
    if issubclass(tp, tuple) and hasattr(tp, "_fields"):  # a NamedTuple
        return Codec(list, lambda v: tp(*v))
    if callable(getattr(tp, "to_json", None)) and callable(getattr(tp, "from_json", None)):
        return Codec(lambda v: v.to_json(), tp.from_json)  # type: ignore[attr-defined]
    raise TypeError(f"cannot keep a {tp.__name__}: give it to_json/from_json, or make it Kept")


__all__ = ["BY_TILE", "NOT_KEPT", "Codec", "Kept"]
