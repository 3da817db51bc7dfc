"""One notation for what a table is told: small frozen values, one JSON form each.

Everything the players, the panel, the display, a tournament desk, the camera or the
board tell a table is one of these values: a `Play` seen on the table, a `Pass`, a
`Draw`, a `Lead` named, a seat gone `Out`, a `Count` of a seat's tiles, and so on.
MQTT commands parse into them, the table's journal stores them, `domino-table replay`
reads them, and a game takes the ones that are its own by their type (`Game.tell`).

Each value has one JSON form, `to_json()`: `{"action": "<name>", ...}` with the field
names of spec/mqtt.md's commands (a command is `{"id": ..., **value.to_json()}`), tiles
written high first (`"6-3"`), fields at their default left out. `read(obj)` reads any of
them back (`Input.from_json` for one class) and raises `InputError`, a `ValueError`
whose message says what is wrong; what was written reads back equal. `repr()` gives
Python that builds the same value again (with the names of `engine` imported).

Only the form is checked here (a seat is a number of 0 or more, a tile a tile): whether
an input fits the game (a seat that exists, a tile of the set, a hand in play) is the
game's judgement.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import MISSING, Field, dataclass, fields
from typing import Any, ClassVar, TypeVar

from engine.events import Coords
from engine.layout import Edge, EdgeKind, OpenEnd, Target
from engine.tiles import MAX_PIP, Tile

_TILE = re.compile(r"([0-9]{1,2})-([0-9]{1,2})")
_EDGES = {e.name.lower(): e for e in Edge}
_KINDS = {k.value: k for k in EdgeKind}
_COORDS = ("xa", "ya", "xb", "yb")

Json = dict[str, Any]


class InputError(ValueError):
    """JSON that is not an input: the message says which field, and what it must be."""


# --- the fields' JSON forms: each reader returns the value or raises InputError ------------


def _shown(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, str) else json.dumps(value[:40])


def _int(name: str, value: Any, least: int, what: str) -> int:
    if type(value) is not int or value < least:
        raise InputError(f'"{name}" must be {what} ({least} or more), not {_shown(value)}.')
    return value


def _seat(name: str, value: Any) -> int:
    return _int(name, value, 0, "a seat number")


def _tile(name: str, value: Any) -> Tile:
    match = _TILE.fullmatch(value) if isinstance(value, str) else None
    if match is None or max(int(match[1]), int(match[2])) > MAX_PIP:
        raise InputError(f'"{name}" must be a tile such as "6-4", not {_shown(value)}.')
    return Tile(int(match[1]), int(match[2]))


def _tiles(name: str, value: Any) -> tuple[Tile, ...]:
    if not isinstance(value, list):
        raise InputError(f'"{name}" must be a list of tiles such as ["6-4", "2-2"].')
    return tuple(_tile(name, item) for item in value)


def _per_seat(name: str, value: Any, read: Callable[[str, Any], Any]) -> tuple[Any, ...]:
    if not isinstance(value, list):
        raise InputError(f'"{name}" must be a list with one entry per seat (null: not given).')
    return tuple(None if item is None else read(name, item) for item in value)


def _text(name: str, value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise InputError(f'"{name}" must be a text, not {_shown(value)}.')
    return value


def _texts(name: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise InputError(f'"{name}" must be a list of texts.')
    return tuple(_text(name, item) for item in value)


def _flag(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise InputError(f'"{name}" must be true or false, not {_shown(value)}.')
    return value


def _plain(value: Any) -> Any:
    """A field's value in JSON: tiles as their notation, tuples as lists."""
    if isinstance(value, Tile):
        return value.text
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


Reader = Callable[[str, Any], Any]
_READERS: dict[str, Reader] = {
    "seat": _seat,
    "count": lambda n, v: _int(n, v, 1, "a number of tiles"),
    "pips": lambda n, v: _int(n, v, 0, "a number of pips"),
    "tile": _tile,
    "as": _tile,
    "tiles": _tiles,
    "name": _text,
    "rules": _text,
    "seats": lambda n, v: _int(n, v, 1, "a number of seats"),
    "names": _texts,
    "teams": lambda n, v: tuple(_int(n, t, 0, "a team number") for t in _list(n, v)),
    "target": lambda n, v: _int(n, v, 1, "a target score"),
    "language": _text,
    "game_id": _text,
    "tournament": _text,
    "round": lambda n, v: _int(n, v, 1, "a round number"),
    "players": _texts,
    "ends_at": _text,
    "at": _text,
    "out": _seat,
    "blocked": _flag,
}
"""How each JSON field reads, by its name (a class may read a field its own way)."""


def _list(name: str, value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise InputError(f'"{name}" must be a list, not {_shown(value)}.')
    return value


# --- the inputs -------------------------------------------------------------------------------

_I = TypeVar("_I", bound="Input")


@dataclass(frozen=True, slots=True)
class Input:
    """A value a table is told; `action` names its kind (see the module doc)."""

    action: ClassVar[str]
    json_names: ClassVar[Mapping[str, str]] = {}  # field -> JSON name, where they differ
    readers: ClassVar[Mapping[str, Reader]] = {}  # JSON name -> reader, this class's own

    def to_json(self) -> Json:
        """The JSON form: `{"action": ...}` and each field not at its default."""
        out: Json = {"action": self.action}
        for spec in fields(self):
            value = getattr(self, spec.name)
            if value != spec.default:
                out[self.json_names.get(spec.name, spec.name)] = _plain(value)
        return out

    @classmethod
    def from_json(cls: type[_I], obj: Mapping[str, Any]) -> _I:
        """This class's input from its JSON form (`InputError` if it is not one)."""
        names = {cls.json_names.get(f.name, f.name): f for f in fields(cls)}
        _check_names(cls.action, obj, names)
        values: dict[str, Any] = {}
        for name, spec in names.items():
            value = obj.get(name)
            if value is not None:  # (null is no value: the field's default)
                values[spec.name] = (cls.readers.get(name) or _READERS[name])(name, value)
        needs = [n for n, f in names.items() if f.name not in values and _required(f)]
        if needs:
            raise InputError(f'"{cls.action}" needs {", ".join(map(json.dumps, needs))}.')
        return cls(**values)


def _check_names(action: str, obj: Mapping[str, Any], names: Collection[str]) -> None:
    """Refuse JSON of another action, or with fields `action` does not take."""
    if obj.get("action") != action:
        raise InputError(f'"action" must be "{action}", not {_shown(obj.get("action"))}.')
    unknown = sorted(set(obj) - {"action", *names})
    if unknown:
        allowed = ", ".join(f'"{n}"' for n in names) or "none"
        took = ", ".join(map(json.dumps, unknown))
        raise InputError(f'"{action}" does not take {took} (its fields: {allowed}).')


def _required(spec: Field[Any]) -> bool:
    return spec.default is MISSING and spec.default_factory is MISSING


@dataclass(frozen=True, slots=True)
class Play(Input):
    """A tile laid: the lead (`where` None on an empty layout), joined at an open end
    (`OpenEnd`: what the board and the camera see) or against a tile (`Target`: what a
    player says). `seat`: who laid it, when said; `coords`: where it lies, when seen.

    JSON: `{"action": "play", "tile": "5-0", "seat": 1}` and for `where` either
    `"node", "edge", "pip"` (an open end: the node's index, `high`, `low`, `side0`,
    `side1`, `arm0` or `arm1`, and the number it shows) or `"to", "pip", "kind"` (the
    tile joined, which number, `end`, `side` or `arm`); `"xa", "ya", "xb", "yb"` in
    millimetres for `coords` (`xa, ya`: the centre of the half showing the high number).
    """

    action = "play"
    tile: Tile
    where: OpenEnd | Target | None = None
    seat: int | None = None
    coords: Coords | None = None

    def to_json(self) -> Json:
        out: Json = {"action": self.action, "tile": self.tile.text}
        if self.seat is not None:
            out["seat"] = self.seat
        where = self.where
        if isinstance(where, OpenEnd):
            out |= {"node": where.node, "edge": where.edge.name.lower(), "pip": where.pip}
        elif isinstance(where, Target):
            out["to"] = where.to.text
            if where.pip is not None:
                out["pip"] = where.pip
            if where.kind is not None:
                out["kind"] = where.kind.value
        if self.coords is not None:
            out |= dict(zip(_COORDS, self.coords, strict=True))
        return out

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Play:
        _check_names(cls.action, obj, _PLAY_NAMES)
        if obj.get("tile") is None:
            raise InputError('"play" needs "tile".')
        seat = obj.get("seat")
        return cls(
            _tile("tile", obj["tile"]),
            _where(obj),
            None if seat is None else _seat("seat", seat),
            _coords(obj),
        )


_PLAY_NAMES = ("tile", "seat", "node", "edge", "to", "pip", "kind", *_COORDS)


def _where(obj: Mapping[str, Any]) -> OpenEnd | Target | None:
    """A play's `where` from its JSON fields (see `Play`)."""
    pip = obj.get("pip")
    if pip is not None:
        pip = _int("pip", pip, 0, "a number")
    if obj.get("node") is not None:
        named = obj.get("edge")
        edge = _EDGES.get(named) if isinstance(named, str) else None
        if edge is None:
            names = ", ".join(map(json.dumps, _EDGES))
            raise InputError(f'"edge" must be one of {names}, not {_shown(obj.get("edge"))}.')
        if pip is None or obj.get("to") is not None or obj.get("kind") is not None:
            raise InputError('an open end is "node", "edge" and "pip" (not "to" or "kind").')
        return OpenEnd(_int("node", obj["node"], 0, "a tile's place in the layout"), edge, pip)
    if obj.get("edge") is not None:
        raise InputError('"edge" names an open end with "node" and "pip".')
    if obj.get("to") is None:
        if pip is not None or obj.get("kind") is not None:
            raise InputError('"pip" and "kind" say where a tile joins "to": name the tile.')
        return None
    kind = obj.get("kind")
    if kind is not None and kind not in _KINDS:
        names = ", ".join(map(json.dumps, _KINDS))
        raise InputError(f'"kind" must be one of {names}, not {_shown(kind)}.')
    return Target(_tile("to", obj["to"]), pip, _KINDS[kind] if kind is not None else None)


def _coords(obj: Mapping[str, Any]) -> Coords | None:
    given = [obj.get(k) for k in _COORDS]
    if all(v is None for v in given):
        return None
    xa, ya, xb, yb = given
    if not (type(xa) is type(ya) is type(xb) is type(yb) is int):
        raise InputError('where a tile lies is "xa", "ya", "xb" and "yb", whole millimetres.')
    return Coords(xa, ya, xb, yb)


@dataclass(frozen=True, slots=True)
class Pass(Input):
    """A knock: the seat (default: the turn seat) cannot or may not play."""

    action = "pass"
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Draw(Input):
    """`count` tiles drawn from the boneyard by the seat (default: the turn seat)."""

    action = "draw"
    seat: int | None = None
    count: int = 1


@dataclass(frozen=True, slots=True)
class Lead(Input):
    """Who led, when the table could not know."""

    action = "lead"
    seat: int


@dataclass(frozen=True, slots=True)
class Out(Input):
    """A seat says it went out (a draw game, where the table cannot tell)."""

    action = "out"
    seat: int


@dataclass(frozen=True, slots=True)
class Undo(Input):
    """Take back the last play or pass (and the draws told after it)."""

    action = "undo"


@dataclass(frozen=True, slots=True)
class Correct(Input):
    """A tile on the table was misread: `tile` as read is really `actual` (JSON `as`)."""

    action = "correct"
    json_names: ClassVar[Mapping[str, str]] = {"actual": "as"}
    tile: Tile
    actual: Tile


@dataclass(frozen=True, slots=True)
class Count(Input):
    """One seat's tiles left at the end of a hand: the `tiles` it shows, or their `pips`."""

    action = "count"
    seat: int
    tiles: tuple[Tile, ...] | None = None
    pips: int | None = None

    def __post_init__(self) -> None:
        if (self.tiles is None) == (self.pips is None):
            raise InputError('"count" needs either "tiles" or "pips", not both.')


@dataclass(frozen=True, slots=True)
class Counts(Input):
    """Every seat's count at once (`pips` and/or the `tiles` shown, one entry per seat,
    None: not given), and how the hand ended when the players say so (`out`: the seat
    that went out; `blocked`)."""

    action = "counts"
    readers: ClassVar[Mapping[str, Reader]] = {
        "pips": lambda n, v: _per_seat(n, v, _READERS["pips"]),
        "tiles": lambda n, v: _per_seat(n, v, _tiles),
    }
    pips: tuple[int | None, ...] | None = None
    tiles: tuple[tuple[Tile, ...] | None, ...] | None = None
    out: int | None = None
    blocked: bool = False


@dataclass(frozen=True, slots=True)
class Confirm(Input):
    """The counts the table made are right: score the hand (`tiles`, per seat: the tiles
    it counted, kept so that the journal scores the same hand again). After the game,
    `seat` agrees with the result."""

    action = "confirm"
    readers: ClassVar[Mapping[str, Reader]] = {"tiles": lambda n, v: _per_seat(n, v, _tiles)}
    seat: int | None = None
    tiles: tuple[tuple[Tile, ...] | None, ...] | None = None


@dataclass(frozen=True, slots=True)
class EndHand(Input):
    """The players agree the hand is blocked (the table cannot see the boneyard)."""

    action = "end_hand"


@dataclass(frozen=True, slots=True)
class NextHand(Input):
    action = "next_hand"


@dataclass(frozen=True, slots=True)
class Redeal(Input):
    """Abandon the hand unscored and deal it again."""

    action = "redeal"


@dataclass(frozen=True, slots=True)
class Rename(Input):
    action = "rename"
    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class CallTime(Input):
    """The round's clock ran out (at `at`, a UTC time): the hand in play is the last."""

    action = "time"
    at: str | None = None


@dataclass(frozen=True, slots=True)
class NewGame(Input):
    """A new game: the ruleset, the seats (and their names and teams: one team number
    per seat), the target and the language; `game_id` names it. A tournament desk's
    seating adds `tournament`, `round`, `players` (one id per seat) and `ends_at`."""

    action = "new_game"
    rules: str
    seats: int
    names: tuple[str, ...] | None = None
    teams: tuple[int, ...] | None = None
    target: int | None = None
    language: str | None = None
    game_id: str | None = None
    tournament: str | None = None
    round: int | None = None
    players: tuple[str, ...] | None = None
    ends_at: str | None = None

    def __post_init__(self) -> None:
        for name in ("names", "teams", "players"):
            given = getattr(self, name)
            if given is not None and len(given) != self.seats:
                raise InputError(
                    f'"{name}" must give one entry for each of the {self.seats} seats.'
                )


INPUTS: Mapping[str, type[Input]] = {
    cls.action: cls
    for cls in (
        Play,
        Pass,
        Draw,
        Lead,
        Out,
        Undo,
        Correct,
        Count,
        Counts,
        Confirm,
        EndHand,
        NextHand,
        Redeal,
        Rename,
        CallTime,
        NewGame,
    )
}
"""Every input by its `action`."""


def read(obj: Any) -> Input:
    """The input whose JSON form `obj` is (`InputError`: it is none)."""
    if not isinstance(obj, Mapping):
        raise InputError('an input is a JSON object: {"action": "...", ...}.')
    action = obj.get("action")
    cls = INPUTS.get(action) if isinstance(action, str) else None
    if cls is None:
        known = ", ".join(INPUTS)
        raise InputError(f"Unknown action {_shown(action)}; the actions are: {known}.")
    return cls.from_json(obj)


def tiles_per_seat(shown: Sequence[Sequence[Tile] | None]) -> tuple[tuple[Tile, ...] | None, ...]:
    """Tiles shown per seat, as the inputs keep them (tuples; None: not shown)."""
    return tuple(None if seat is None else tuple(seat) for seat in shown)


__all__ = [
    "INPUTS",
    "CallTime",
    "Confirm",
    "Correct",
    "Count",
    "Counts",
    "Draw",
    "EndHand",
    "Input",
    "InputError",
    "Lead",
    "NewGame",
    "NextHand",
    "Out",
    "Pass",
    "Play",
    "Redeal",
    "Rename",
    "read",
    "tiles_per_seat",
]
