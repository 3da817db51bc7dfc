"""`domino-table replay`: a game told line by line, judged in table mode.

Input is JSON lines (see docs/replay.md): a header `{"rules": "walnut", "seats": 4}`
(optional `target`, `names`, `teams`, `language`), then one input per line. Output is
one JSON line per resulting event, the `event/<kind>` payload of spec/mqtt.md with
`"type": "<kind>"`. An illegal input yields an `alert` (its output marked `refused`) and
changes nothing; a malformed line yields an error naming its line number, and the
replay goes on. Blank lines and lines starting with `#` (comments) are skipped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine import rulesets
from engine.events import Event, Judgement
from engine.game import Game, Mode, Phase, Target
from engine.layout import EdgeKind
from engine.rules import Rules, RulesError
from engine.tiles import Tile, TileError
from service.core.payloads import Numbering


class ReplayError(ValueError):
    """A line that is not a valid input; the message says what is wrong."""


@dataclass(frozen=True)
class Output:
    """One output line: an event payload, or an error for a malformed line."""

    line: int
    payload: dict[str, Any] | None = None
    error: str | None = None
    refused: bool = False  # the alert of an input the game refused


def _int(obj: Mapping[str, Any], key: str, *, optional: bool = False) -> int | None:
    value = obj.get(key)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ReplayError(f'"{key}" must be a whole number, not {json.dumps(value)}')
    return value


def _tile(obj: Mapping[str, Any], key: str) -> Tile:
    return _parse_tile(obj.get(key), key)


def _parse_tile(value: Any, key: str) -> Tile:
    if not isinstance(value, str):
        raise ReplayError(f'"{key}" must be a tile like "6-4", not {json.dumps(value)}')
    try:
        return Tile.parse(value)
    except TileError as exc:
        raise ReplayError(str(exc)) from None


def _target(obj: Mapping[str, Any]) -> Target | None:
    if "to" not in obj:
        return None
    kind = obj.get("edge")
    if kind is not None and kind not in ("side", "arm"):
        raise ReplayError(f'"edge" must be "side" or "arm", not {json.dumps(kind)}')
    return Target(
        _tile(obj, "to"),
        _int(obj, "end", optional=True),
        EdgeKind(kind) if kind is not None else None,
    )


def _counts(obj: Mapping[str, Any], seats: int) -> list[int | None]:
    value = obj.get("count", [None] * seats)
    if not isinstance(value, list) or not all(
        v is None or (isinstance(v, int) and not isinstance(v, bool)) for v in value
    ):
        raise ReplayError('"count" must be a list of pip counts, one per seat')
    return list(value)


def _shown(obj: Mapping[str, Any]) -> list[list[Tile] | None] | None:
    """`tiles`: per seat the tiles it shows, or null for a seat that gives only pips."""
    value = obj.get("tiles")
    if value is None:
        return None
    if not isinstance(value, list) or not all(v is None or isinstance(v, list) for v in value):
        raise ReplayError('"tiles" must be a list, per seat, of the tiles it shows (or null)')
    return [None if seat is None else [_parse_tile(t, "tiles") for t in seat] for seat in value]


def _flag(obj: Mapping[str, Any], key: str) -> bool:
    value = obj.get(key, False)
    if not isinstance(value, bool):
        raise ReplayError(f'"{key}" must be true or false, not {json.dumps(value)}')
    return value


def _play(game: Game, obj: Mapping[str, Any]) -> Judgement:
    if game.phase is Phase.HAND_OVER:
        game.next_hand()
    return game.play(_tile(obj, "play"), _target(obj), seat=_int(obj, "seat", optional=True))


def _pass(game: Game, obj: Mapping[str, Any]) -> Judgement:
    return game.pass_turn(_int(obj, "seat", optional=True))


def _draw(game: Game, obj: Mapping[str, Any]) -> Judgement:
    count = obj.get("draw")
    count = 1 if count is True else count
    if isinstance(count, bool) or not isinstance(count, int):
        raise ReplayError('"draw" must be the number of tiles drawn')
    return game.draw(_int(obj, "seat", optional=True), count)


def _lead(game: Game, obj: Mapping[str, Any]) -> Judgement:
    return game.name_leader(_int(obj, "lead") or 0)


def _count(game: Game, obj: Mapping[str, Any]) -> Judgement:
    """`count` (pips), `tiles` or both; `out` or `blocked` beside them says how it ended."""
    out = _int(obj, "out", optional=True)
    pips = _counts(obj, game.seats)
    return game.count(pips, _shown(obj), out=out, blocked=_flag(obj, "blocked"))


def _blocked(game: Game, obj: Mapping[str, Any]) -> Judgement:
    if not _flag(obj, "blocked"):
        raise ReplayError('"blocked" ends a hand: write {"blocked": true}')
    return game.end_hand()


# Each input line is recognised by the first of these keys it carries (a count's `out`
# or `blocked` belongs to the count).
_HANDLERS: dict[str, Callable[[Game, Mapping[str, Any]], Judgement]] = {
    "play": _play,
    "pass": _pass,
    "draw": _draw,
    "lead": _lead,
    "count": _count,
    "tiles": _count,
    "out": lambda g, o: g.declare_out(_int(o, "out") or 0),
    "blocked": _blocked,
    "end_hand": lambda g, o: g.end_hand(),
    "undo": lambda g, o: g.undo(),
    "next_hand": lambda g, o: g.next_hand(),
    "redeal": lambda g, o: g.redeal(),
    "correct": lambda g, o: g.correct(_tile(o, "correct"), _tile(o, "as")),
}


def _header(obj: Mapping[str, Any], find_rules: Callable[[str], Rules]) -> Game:
    name = obj.get("rules")
    if not isinstance(name, str):
        raise ReplayError('the first line must name the rules: {"rules": "walnut", "seats": 4}')
    seats = _int(obj, "seats")
    assert seats is not None
    names = obj.get("names")
    teams = obj.get("teams")
    if names is not None and not (
        isinstance(names, list) and all(isinstance(n, str) for n in names)
    ):
        raise ReplayError('"names" must be a list of strings')
    if teams is not None and not (
        isinstance(teams, list)
        and all(isinstance(t, list) and all(isinstance(s, int) for s in t) for t in teams)
    ):
        raise ReplayError('"teams" must be a list of lists of seats, e.g. [[0, 2], [1, 3]]')
    language = obj.get("language", "en")
    try:
        return Game(
            find_rules(name),
            seats,
            mode=Mode.TABLE,
            names=names,
            teams=teams,
            target=_int(obj, "target", optional=True),
            language=language if language in ("en", "es") else "en",
        )
    except RulesError as exc:
        raise ReplayError(str(exc)) from None


def replay(
    lines: Iterable[str],
    *,
    table: str = "replay",
    game_id: str = "replay",
    find_rules: Callable[[str], Rules] = rulesets.load,
    now: datetime | None = None,
) -> Iterator[Output]:
    """Judge each input line; yield each event's payload (or a line's error) in order."""
    game: Game | None = None
    numbering = Numbering(table, game_id)

    def emit(line: int, events: Iterable[Event], *, refused: bool = False) -> Iterator[Output]:
        for event in events:
            body = numbering.payload(event, now)
            yield Output(line, {"type": event.kind, **body}, refused=refused)

    for number, text in enumerate(lines, start=1):
        if not text.strip() or text.lstrip().startswith("#"):
            continue  # blank lines and comments
        try:
            obj = json.loads(text)
            if not isinstance(obj, dict):
                raise ReplayError("each line must be a JSON object")
            if game is None:
                game = _header(obj, find_rules)
                yield from emit(number, game.start())
                continue
            key = next((k for k in _HANDLERS if k in obj), None)
            if key is None:
                raise ReplayError(f"no input recognised; use one of: {', '.join(_HANDLERS)}")
            judgement = _HANDLERS[key](game, obj)
            yield from emit(number, judgement.events, refused=not judgement.ok)
        except json.JSONDecodeError as exc:
            yield Output(number, error=f"line {number}: not JSON: {exc.msg}")
        except ReplayError as exc:
            yield Output(number, error=f"line {number}: {exc}")
