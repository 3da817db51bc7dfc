"""`domino-table replay`: a game told line by line, judged in table mode.

Input is JSON lines (see docs/design/replay.md), one input a line in the notation of
`engine.inputs`: a `new_game` first (`{"action": "new_game", "rules": "walnut",
"seats": 4}`), then plays, passes, draws, counts... (`{"action": "play", "tile": "5-0",
"seat": 1, "to": "5-5"}`). The lines of replay files written before that notation
(`{"rules": "walnut", "seats": 4}`, then `{"seat": 1, "play": "5-0", "to": "5-5"}`, with
`end` for the number and `edge` for `side` or `arm`) are read too: each is converted to
its input first (`legacy_input`). The table's own inputs are read too: `rename`, and
`confirm` with the tiles the table counted in the seat zones, as its journal keeps them
(`domino-table history --inputs` prints a kept game's). Output is one JSON line per
resulting event, the
`event/<kind>` payload of spec/mqtt.md with `"type": "<kind>"`. An illegal input yields
an `alert` (its output marked `refused`) and changes nothing; a malformed line yields an
error naming its line number, and the replay goes on. Blank lines and lines starting
with `#` (comments) are skipped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine import rulesets
from engine.events import Event, Judgement, Reason
from engine.game import Game, Mode, Phase
from engine.inputs import Confirm, Input, InputError, NewGame, Play, Rename, read
from engine.rules import Rules, RulesError
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


# --- the lines of replay files written before `engine.inputs` -------------------------------


def _target(obj: Mapping[str, Any]) -> dict[str, Any]:
    """Where a play joins: `to`, its number `end`, its `edge` (`side` or `arm`)."""
    return {"to": obj.get("to"), "pip": obj.get("end"), "kind": obj.get("edge")}


def _flag(obj: Mapping[str, Any], key: str) -> bool:
    value = obj.get(key, False)
    if not isinstance(value, bool):
        raise ReplayError(f'"{key}" must be true or false, not {json.dumps(value)}')
    return value


def _blocked(obj: Mapping[str, Any]) -> dict[str, Any]:
    if not _flag(obj, "blocked"):
        raise ReplayError('"blocked" ends a hand: write {"blocked": true}')
    return {"action": "end_hand"}


def _counts(obj: Mapping[str, Any]) -> dict[str, Any]:
    """`count` (pips), `tiles` or both; `out` or `blocked` beside them says how it ended."""
    return {
        "action": "counts",
        "pips": obj.get("count"),
        "tiles": obj.get("tiles"),
        "out": obj.get("out"),
        "blocked": _flag(obj, "blocked") or None,
    }


# Each old line is recognised by the first of these keys it carries (a count's `out` or
# `blocked` belongs to the count): the input it was.
_LEGACY: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "play": lambda o: {"action": "play", "tile": o["play"], "seat": o.get("seat"), **_target(o)},
    "pass": lambda o: {"action": "pass", "seat": o.get("seat")},
    # an old `draw` was the tiles drawn, `true` for one
    "draw": lambda o: {
        "action": "draw",
        "seat": o.get("seat"),
        "count": 1 if o["draw"] is True else o["draw"],
    },
    "lead": lambda o: {"action": "lead", "seat": o["lead"]},
    "count": _counts,
    "tiles": _counts,
    "out": lambda o: {"action": "out", "seat": o["out"]},
    "blocked": _blocked,
    "end_hand": lambda o: {"action": "end_hand"},
    "undo": lambda o: {"action": "undo"},
    "next_hand": lambda o: {"action": "next_hand"},
    "redeal": lambda o: {"action": "redeal"},
    "correct": lambda o: {"action": "correct", "tile": o["correct"], "as": o.get("as")},
}


def legacy_input(obj: Mapping[str, Any], *, first: bool) -> dict[str, Any]:
    """An old replay line as its input's JSON form (`first`: the header, a new game)."""
    if first:
        return {"action": "new_game", **{k: v for k, v in obj.items() if k != "action"}}
    key = next((k for k in _LEGACY if k in obj), None)
    if key is None:
        raise ReplayError(f"no input recognised; use one of: {', '.join(_LEGACY)}")
    return {k: v for k, v in _LEGACY[key](obj).items() if v is not None}


# --- judging ----------------------------------------------------------------------------------


def _new_game(told: NewGame, find_rules: Callable[[str], Rules]) -> Game:
    """The game a `new_game` line starts (teams: one team number per seat, or the
    groups of seats of older files)."""
    teams = told.teams
    groups = None
    if teams:
        groups = [[s for s, t in enumerate(teams) if t == team] for team in sorted(set(teams))]
    try:
        return Game(
            find_rules(told.rules),
            told.seats,
            mode=Mode.TABLE,
            names=told.names,
            teams=groups,
            target=told.target,
            language=told.language if told.language in ("en", "es") else "en",
        )
    except RulesError as exc:
        raise ReplayError(str(exc)) from None


def _header_teams(obj: dict[str, Any]) -> dict[str, Any]:
    """An old header's `teams` are groups of seats (`[[0, 2], [1, 3]]`): one team
    number per seat now."""
    teams = obj.get("teams")
    if isinstance(teams, list) and teams and all(isinstance(t, list) for t in teams):
        given = obj.get("seats")
        seats = given if isinstance(given, int) else 0
        of = {s: n for n, group in enumerate(teams) for s in group if isinstance(s, int)}
        if set(of) != set(range(seats)):
            raise ReplayError('"teams" must be a list of lists of seats, e.g. [[0, 2], [1, 3]]')
        obj = {**obj, "teams": [of[s] for s in range(seats)]}
    return obj


def _told(game: Game, told: Input) -> Judgement:
    """An input judged by the game; a play after a hand's result starts the next hand."""
    if isinstance(told, Play) and game.phase is Phase.HAND_OVER:
        game.next_hand()
    if isinstance(told, Rename):
        if not 0 <= told.seat < game.seats:
            raise ReplayError(f"there is no seat {told.seat}")
        game.names[told.seat] = told.name
        return Judgement(Reason.OK)
    if isinstance(told, Confirm):
        return _confirm(game, told)
    try:
        return game.tell(told)
    except TypeError as exc:
        raise ReplayError(str(exc)) from None


def _confirm(game: Game, told: Confirm) -> Judgement:
    """The counts made from the seat zones are right: the hand is scored from the tiles
    the table counted, which its journal keeps with the `confirm` (a table's kept
    record replays exactly). After the game, a seat agreeing with the result changes
    nothing."""
    if game.phase is Phase.OVER:
        return Judgement(Reason.OK)
    if told.tiles is None:
        raise ReplayError(
            'a "confirm" that scores a hand needs the tiles counted, one list per seat: '
            '{"action": "confirm", "tiles": [["6-4"], [], ...]}'
        )
    return game.count_tiles([list(seat or ()) for seat in told.tiles])


def _read(obj: Any, *, first: bool) -> Input:
    """A line's input: in the notation of `engine.inputs`, or an old line converted."""
    if not isinstance(obj, dict):
        raise ReplayError("each line must be a JSON object")
    if "action" not in obj:
        obj = legacy_input(_header_teams(obj) if first else obj, first=first)
    try:
        told = read(obj)
    except InputError as exc:
        raise ReplayError(str(exc)) from None
    if first and not isinstance(told, NewGame):
        raise ReplayError(
            'the first line must start the game: {"action": "new_game", "rules": "walnut", '
            '"seats": 4}'
        )
    return told


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
            told = _read(json.loads(text), first=game is None)
            if isinstance(told, NewGame):
                game = _new_game(told, find_rules)
                yield from emit(number, game.start())
                continue
            assert game is not None
            judgement = _told(game, told)
            yield from emit(number, judgement.events, refused=not judgement.ok)
        except json.JSONDecodeError as exc:
            yield Output(number, error=f"line {number}: not JSON: {exc.msg}")
        except ReplayError as exc:
            yield Output(number, error=f"line {number}: {exc}")
