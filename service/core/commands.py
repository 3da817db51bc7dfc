"""Commands from `<prefix>/cmd`: parsed and checked into frozen values.

`parse_command(raw)` turns a payload into a `Command` or raises `CommandError` whose
`message` is the sentence for the reply's `error` and whose `cmd_id` is the command's id
when one could be read ("" otherwise). A command to the game is a `GameCommand`: its id
and what it tells the game in the one notation of `engine.inputs`
(`GameCommand("c1", Pass(seat=2))`), which the journal keeps and the table core applies
by its type; `snapshot`, `calibrate` and `enrol` are the camera's (`SnapshotNow`,
`Calibrate`, `Enrol`); `history` and `frame` ask for the record of a game
(`HistoryAsk`, `FrameAsk`: `service.history`), and change nothing. Only the form is
checked here, within the spec's bounds (a seat from 0 to 9, names of 32 characters...);
whether a command fits the game (a seat that exists, a hand in progress) is the game's
judgement. `Command.as_dict()` gives the spec's JSON back.
"""

from __future__ import annotations

import enum
import json
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.inputs import Input, InputError, NewGame, read
from mqttweb.envelope import parse_ts

MAX_PAYLOAD_BYTES = 16 * 1024
MAX_ID_LENGTH = 128
MAX_SEAT = 9
_TILE = re.compile(r"(1[0-8]|[0-9])-(1[0-8]|[0-9])")


class Action(enum.StrEnum):
    NEW_GAME = "new_game"
    NEXT_HAND = "next_hand"
    PASS = "pass"
    DRAW = "draw"
    LEAD = "lead"
    OUT = "out"
    UNDO = "undo"
    CORRECT = "correct"
    COUNT = "count"
    CONFIRM = "confirm"
    END_HAND = "end_hand"
    RENAME = "rename"
    REDEAL = "redeal"
    SNAPSHOT = "snapshot"
    CALIBRATE = "calibrate"
    ENROL = "enrol"
    HISTORY = "history"
    FRAME = "frame"

    @property
    def reads_only(self) -> bool:
        """Whether the command only asks (`history`, `frame`): it changes nothing, so
        its reply is not kept in the journal (`service.mqtt.intake`)."""
        return self in (Action.HISTORY, Action.FRAME)


class CommandError(ValueError):
    """A command that is refused: `message` is the reply's error, `cmd_id` its id or ""."""

    def __init__(self, message: str, cmd_id: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.cmd_id = cmd_id


@dataclass(frozen=True)
class Command:
    """A checked command: its `id`, and what it asks (`GameCommand`, or the camera's)."""

    id: str

    @property
    def action(self) -> Action:
        raise NotImplementedError

    def fields(self) -> dict[str, Any]:
        """The command's fields as spec/mqtt.md writes them (without `id` and `action`)."""
        return {}

    def as_dict(self) -> dict[str, Any]:
        """The command as the spec writes it: `{"id", "action", ...fields}`."""
        return {"id": self.id, "action": self.action.value, **self.fields()}


@dataclass(frozen=True)
class GameCommand(Command):
    """A command that tells the table's game something: `told`, in the notation of
    `engine.inputs` (`Pass`, `Count`, `NewGame`, ...), which the journal keeps."""

    told: Input

    @property
    def action(self) -> Action:
        return Action(self.told.action)

    def fields(self) -> dict[str, Any]:
        out = self.told.to_json()
        del out["action"]
        if isinstance(self.told, NewGame) and self.told.names is not None:
            out["seats"] = out.pop("names")  # (the spec names the seats in `seats`)
        return out


@dataclass(frozen=True)
class SnapshotNow(Command):
    """Publish `camera/snapshot` now (tables with a camera)."""

    @property
    def action(self) -> Action:
        return Action.SNAPSHOT


@dataclass(frozen=True)
class Calibrate(Command):
    """Find the four corner markers on the next still frame (tables with a camera)."""

    @property
    def action(self) -> Action:
        return Action.CALIBRATE


SETS = ("double-six", "double-nine", "double-twelve")


@dataclass(frozen=True)
class Enrol(Command):
    """The whole set lies face up: read it as `set_name` (JSON `set`; None: the ruleset's),
    laid loose, or with `mat` on the enrolment mat (`domino-table vision mat`)."""

    set_name: str | None = None
    mat: bool = False

    @property
    def action(self) -> Action:
        return Action.ENROL

    def fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {"set": self.set_name} if self.set_name is not None else {}
        return out | ({"mat": True} if self.mat else {})


@dataclass(frozen=True)
class HistoryAsk(Command):
    """The record of game `game_id` (None: the game in play, or the last one)."""

    game_id: str | None = None

    @property
    def action(self) -> Action:
        return Action.HISTORY

    def fields(self) -> dict[str, Any]:
        return {"game_id": self.game_id} if self.game_id is not None else {}


@dataclass(frozen=True)
class FrameAsk(Command):
    """Publish the frame kept for event `seq` of game `game_id` on `history/frame`."""

    game_id: str
    seq: int

    @property
    def action(self) -> Action:
        return Action.FRAME

    def fields(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "seq": self.seq}


# -- field checks: each returns the typed value or raises _FieldError with a sentence --------


class _FieldError(Exception):
    pass


def _int(name: str, value: Any, lo: int, hi: int, what: str) -> int:
    if type(value) is not int or not lo <= value <= hi:
        raise _FieldError(f'"{name}" must be {what} from {lo} to {hi}, not {json.dumps(value)}.')
    return value


def _seat(name: str, value: Any) -> int:
    return _int(name, value, 0, MAX_SEAT, "a seat number")


def _controls(text: str) -> bool:
    """Whether `text` holds a control character (a NUL, a line break...)."""
    return any(unicodedata.category(c) == "Cc" for c in text)


def _text(name: str, value: Any, limit: int = 64) -> str:
    """A name: surrounding spaces are dropped, control characters refused."""
    if not isinstance(value, str) or not value.strip() or len(value) > limit or _controls(value):
        raise _FieldError(
            f'"{name}" must be a text of 1 to {limit} characters, without control characters.'
        )
    return value.strip()


def _rules(name: str, value: Any) -> str:
    """A ruleset's name, exactly: never trimmed into another one (`"walnut\\n"`)."""
    if (
        not isinstance(value, str)
        or not 1 <= len(value) <= 200
        or value != value.strip()
        or _controls(value)
    ):
        raise _FieldError(
            f'"{name}" must name a ruleset exactly, such as "walnut": no spaces, line breaks '
            "or control characters."
        )
    return value


def tile_notation(value: str) -> str | None:
    """`"4-6"` -> `"6-4"` (high first), or None when it is not a tile."""
    match = _TILE.fullmatch(value)
    if match is None:
        return None
    a, b = int(match[1]), int(match[2])
    return f"{max(a, b)}-{min(a, b)}"


def _tile(name: str, value: Any) -> str:
    tile = tile_notation(value) if isinstance(value, str) else None
    if tile is None:
        raise _FieldError(f'"{name}" must be a tile such as "6-4", not {json.dumps(value)}.')
    return tile


def _tiles(name: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) > 100:
        raise _FieldError(f'"{name}" must be a list of tiles such as ["6-4", "2-2"].')
    return tuple(_tile(name, item) for item in value)


def _seats(name: str, value: Any) -> int | tuple[str, ...]:
    if isinstance(value, list):
        if not 2 <= len(value) <= 10:
            raise _FieldError(f'"{name}" must list 2 to 10 names.')
        return tuple(_text(name, item, 32) for item in value)
    return _int(name, value, 2, 10, "a number of seats")


def _teams(name: str, value: Any) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise _FieldError(
            f'"{name}" must be a list of team numbers, one per seat, such as [0, 1, 0, 1].'
        )
    return tuple(_int(name, item, 0, MAX_SEAT, "a team number") for item in value)


def _players(name: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not 2 <= len(value) <= 10:
        raise _FieldError(f'"{name}" must list 2 to 10 player ids, one per seat.')
    return tuple(_text(name, item, 64) for item in value)


def _ends_at(name: str, value: Any) -> str:
    try:
        parse_ts(value if isinstance(value, str) else "")
    except ValueError:
        raise _FieldError(
            f'"{name}" must be a UTC time such as "2026-11-22T04:14:00.123Z", '
            f"not {json.dumps(value)}."
        ) from None
    return str(value)


def _set(name: str, value: Any) -> str:
    if value not in SETS:
        raise _FieldError(f'"{name}" must be one of {", ".join(map(json.dumps, SETS))}.')
    return str(value)


def _flag(name: str, value: Any) -> bool:
    if type(value) is not bool:
        raise _FieldError(f'"{name}" must be true or false, not {json.dumps(value)}.')
    return value


def _language(name: str, value: Any) -> str:
    if value not in ("en", "es"):
        raise _FieldError(f'"{name}" must be "en" or "es".')
    return str(value)


_Check = Callable[[str, Any], Any]
_FIELDS: dict[str, _Check] = {
    "seat": _seat,
    "count": lambda n, v: _int(n, v, 1, 190, "a number of tiles"),  # up to a double-18 set
    "tile": _tile,
    "as": _tile,
    "tiles": _tiles,
    "pips": lambda n, v: _int(n, v, 0, 10000, "a number of pips"),
    "name": lambda n, v: _text(n, v, 32),
    "rules": _rules,
    "seats": _seats,
    "teams": _teams,
    "target": lambda n, v: _int(n, v, 1, 100000, "a target score"),
    "language": _language,
    "tournament": lambda n, v: _text(n, v, 80),
    "round": lambda n, v: _int(n, v, 1, 10000, "a round number"),
    "players": _players,
    "ends_at": _ends_at,
    "set": _set,
    "mat": _flag,
    "game_id": lambda n, v: _text(n, v, 128),
    "seq": lambda n, v: _int(n, v, 1, 2**53, "an event's seq"),
}

# action -> (required JSON fields, optional JSON fields)
_ACTIONS: dict[Action, tuple[tuple[str, ...], tuple[str, ...]]] = {
    Action.NEW_GAME: (
        ("rules", "seats"),
        ("teams", "target", "language", "tournament", "round", "players", "ends_at"),
    ),
    Action.NEXT_HAND: ((), ()),
    Action.PASS: ((), ("seat",)),
    Action.DRAW: ((), ("seat", "count")),
    Action.LEAD: (("seat",), ()),
    Action.OUT: (("seat",), ()),
    Action.UNDO: ((), ()),
    Action.CORRECT: (("tile", "as"), ()),
    Action.COUNT: (("seat",), ("tiles", "pips")),
    Action.CONFIRM: ((), ("seat",)),
    Action.END_HAND: ((), ()),
    Action.RENAME: (("seat", "name"), ()),
    Action.REDEAL: ((), ()),
    Action.SNAPSHOT: ((), ()),
    Action.CALIBRATE: ((), ()),
    Action.ENROL: ((), ("set", "mat")),
    Action.HISTORY: ((), ("game_id",)),
    Action.FRAME: (("game_id", "seq"), ()),
}
_NOT_INPUTS: dict[Action, Callable[..., Command]] = {
    Action.SNAPSHOT: SnapshotNow,
    Action.CALIBRATE: Calibrate,
    Action.ENROL: lambda cmd_id, **values: Enrol(
        cmd_id, values.get("set"), bool(values.get("mat", False))
    ),
    Action.HISTORY: lambda cmd_id, **values: HistoryAsk(cmd_id, values.get("game_id")),
    Action.FRAME: lambda cmd_id, **values: FrameAsk(cmd_id, values["game_id"], values["seq"]),
}
"""The commands that are not the game's inputs: the camera's, and the history's."""


def _decode(raw: bytes) -> dict[str, Any]:
    if len(raw) > MAX_PAYLOAD_BYTES:
        raise CommandError(
            f"The command is {len(raw)} bytes; at most {MAX_PAYLOAD_BYTES} are accepted."
        )
    try:
        body = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise CommandError(
            'The command is not JSON: send {"id": "...", "action": "..."}.'
        ) from None
    except RecursionError:  # nested deeper than the parser goes (5,000 levels fit in 16 KB)
        raise CommandError("The command is nested too deeply: send a flat JSON object.") from None
    if not isinstance(body, dict):
        raise CommandError('The command must be a JSON object: {"id": "...", "action": "..."}.')
    return body


def unicode_text(value: Any) -> bool:
    """Whether every text in `value` can be written as UTF-8 (JSON may escape a lone
    surrogate, `"\\udfff"`, which no journal, reply or state could then hold)."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def readable_id(body: Any) -> str | None:
    """A command's `id` when it is one: a text of 1 to MAX_ID_LENGTH characters of
    valid Unicode; else None (the reply then carries the id "")."""
    cmd_id = body.get("id") if isinstance(body, dict) else None
    if isinstance(cmd_id, str) and 1 <= len(cmd_id) <= MAX_ID_LENGTH and unicode_text(cmd_id):
        return cmd_id
    return None


def best_id(raw: bytes) -> str | None:
    """The command's id when it can be read, even from a payload refused otherwise."""
    try:
        return readable_id(_decode(raw))
    except CommandError:
        return None


def _id_of(body: Mapping[str, Any]) -> str:
    cmd_id = readable_id(body)
    if cmd_id is None:
        raise CommandError(
            f'The command needs an "id": a text of 1 to {MAX_ID_LENGTH} characters of valid '
            "Unicode, unique for each command."
        )
    return cmd_id


def _action_of(body: Mapping[str, Any], cmd_id: str) -> Action:
    action = body.get("action")
    if isinstance(action, str) and action in {a.value for a in Action}:
        return Action(action)
    known = ", ".join(a.value for a in Action)
    raise CommandError(f"Unknown action {json.dumps(action)}; the actions are: {known}.", cmd_id)


def parse_command(raw: bytes) -> Command:
    """Check one command payload and return it typed; raise `CommandError` if refused."""
    body = _decode(raw)
    cmd_id = _id_of(body)
    if not unicode_text(body):
        raise CommandError(
            "The command holds text that is not valid Unicode (a lone surrogate such as "
            '"\\udfff"): send UTF-8 text.',
            cmd_id,
        )
    action = _action_of(body, cmd_id)
    required, optional = _ACTIONS[action]
    unknown = sorted(set(body) - {"id", "action", *required, *optional})
    if unknown:
        allowed = ", ".join(f'"{f}"' for f in (*required, *optional)) or "none"
        raise CommandError(
            f'"{action}" does not take {", ".join(map(json.dumps, unknown))} '
            f"(its fields: {allowed}).",
            cmd_id,
        )
    missing = [f for f in required if body.get(f) is None]  # null is no value
    if missing:
        raise CommandError(f'"{action}" needs {", ".join(map(json.dumps, missing))}.', cmd_id)
    values: dict[str, Any] = {}
    try:
        for name in (*required, *optional):
            if name in body and body[name] is not None:
                values[name] = _FIELDS[name](name, body[name])
    except _FieldError as exc:
        raise CommandError(str(exc), cmd_id) from None
    _cross_check(action, values, cmd_id)
    other = _NOT_INPUTS.get(action)
    if other is not None:
        return other(cmd_id, **values)
    if action is Action.NEW_GAME and isinstance(values["seats"], tuple):
        values["names"] = values["seats"]
        values["seats"] = len(values["names"])
    try:
        told = read({"action": action.value, **{k: _plain(v) for k, v in values.items()}})
    except InputError as exc:
        raise CommandError(str(exc), cmd_id) from None
    return GameCommand(cmd_id, told)


def _plain(value: Any) -> Any:
    """A checked field as JSON again (tuples as lists) for `engine.inputs.read`."""
    return list(value) if isinstance(value, tuple) else value


def _cross_check(action: Action, values: Mapping[str, Any], cmd_id: str) -> None:
    if action is Action.COUNT and ("tiles" in values) == ("pips" in values):
        raise CommandError('"count" needs either "tiles" or "pips", not both.', cmd_id)
    if action is Action.NEW_GAME:
        seats = values["seats"]
        n = seats if isinstance(seats, int) else len(seats)
        for name, what in (("teams", "one team number"), ("players", "one player id")):
            if name in values and len(values[name]) != n:
                raise CommandError(f'"{name}" must give {what} for each of the {n} seats.', cmd_id)
