"""Desk commands (`domino/tournament/cmd`, and the director's page): checked, then turned
into journal records. Pure.

`decide(ledger, command, now)` returns the reply's `detail` and the records to append,
or raises `CommandError` saying why the command is malformed or out of place; then
nothing is recorded but the command and its refusal.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tournament.errors import CommandError
from tournament.event import PLAYER_ID, TABLE_ID, Format
from tournament.journal import Kind
from tournament.ledger import Ledger, Round, TableRound
from tournament.rounds import seat_round

Records = list[tuple[Kind, dict[str, Any]]]
Decided = tuple[dict[str, Any], Records]
Text = Annotated[str, Field(min_length=1, max_length=200)]


class _Command(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)
    id: Annotated[str, Field(min_length=1, max_length=128)]


class StartRound(_Command):
    action: Literal["start_round"]


class CloseRound(_Command):
    action: Literal["close_round"]


class Void(_Command):
    action: Literal["void"]
    table: Annotated[str, Field(pattern=TABLE_ID)]
    game_id: Text
    reason: Text


class Forfeit(_Command):
    action: Literal["forfeit"]
    round: Annotated[int, Field(ge=1)]
    player: Text
    reason: Text


class Result(_Command):
    action: Literal["result"]
    table: Annotated[str, Field(pattern=TABLE_ID)]
    round: Annotated[int, Field(ge=1)]
    scores: list[Annotated[int, Field(ge=0)]] | None = None
    team_scores: list[Annotated[int, Field(ge=0)]] | None = None


class AddPlayer(_Command):
    action: Literal["add_player"]
    player: Annotated[str, Field(pattern=PLAYER_ID)] | None = None  # else the command's id
    name: Annotated[str, Field(min_length=1, max_length=32)]  # a table's seat name: 32 at most
    pair: Annotated[str, Field(pattern=PLAYER_ID)] | None = None


class Withdraw(_Command):
    action: Literal["withdraw"]
    player: Text


class NoteOn(_Command):
    """The director's note on a game's result: "checked, stands", "score corrected to
    ...". It goes into the journal and the exports; it changes no score (a correction
    is a `void` and a `result`)."""

    action: Literal["note"]
    table: Annotated[str, Field(pattern=TABLE_ID)]
    game_id: Text
    text: Annotated[str, Field(min_length=1, max_length=500)]


class CheckIn(_Command):
    action: Literal["check_in"]
    player: Text
    present: bool = True


MODELS: dict[str, type[_Command]] = {
    "start_round": StartRound,
    "close_round": CloseRound,
    "void": Void,
    "forfeit": Forfeit,
    "result": Result,
    "add_player": AddPlayer,
    "withdraw": Withdraw,
    "check_in": CheckIn,
    "note": NoteOn,
}


def parse(command: Any) -> _Command:
    """The command checked field by field; `CommandError` naming what is wrong."""
    if not isinstance(command, dict):
        raise CommandError("a command is a JSON object with an id and an action")
    action = command.get("action")
    model = MODELS.get(action) if isinstance(action, str) else None
    if model is None:
        raise CommandError(f"unknown action {action!r}; known: {', '.join(MODELS)}")
    try:
        return model.model_validate(command)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "command"
        raise CommandError(f"{action}: {where}: {first['msg']}") from None


def _player(ledger: Ledger, pid: str) -> None:
    if pid not in ledger.players:
        raise CommandError(f"no player {pid!r} in the roster")


def _seated(ledger: Ledger, number: int, table: str) -> tuple[Round, TableRound]:
    rnd = ledger.round(number)
    if rnd is None:
        raise CommandError(f"round {number} has not been seated")
    if table not in rnd.tables:
        raise CommandError(f"table {table} has no seating in round {number}")
    return rnd, rnd.tables[table]


def _start(ledger: Ledger, cmd: StartRound, now: datetime) -> Decided:
    data = seat_round(ledger, now)
    detail = {"round": data["round"], "tables": [t["table"] for t in data["tables"]],
              "byes": data["byes"]}  # fmt: skip
    return detail, [(Kind.SEATING, data)]


def _close(ledger: Ledger, cmd: CloseRound, now: datetime) -> Decided:
    rnd = ledger.current
    if rnd is None or rnd.closed:
        raise CommandError("no round is open; start one with start_round")
    missing = rnd.unreported()
    return (
        {"round": rnd.number, "not_played": missing},
        [(Kind.CLOSE, {"round": rnd.number, "not_played": missing})],
    )


def _void(ledger: Ledger, cmd: Void, now: datetime) -> Decided:
    for rnd in ledger.rounds:
        seated = rnd.tables.get(cmd.table)
        if seated and seated.outcome and seated.outcome.game_id == cmd.game_id:
            data = {"round": rnd.number, "table": cmd.table, "game_id": cmd.game_id,
                    "reason": cmd.reason}  # fmt: skip
            return {"round": rnd.number}, [(Kind.VOID, data)]
    raise CommandError(f"no counted game {cmd.game_id!r} at table {cmd.table}")


def _forfeit(ledger: Ledger, cmd: Forfeit, now: datetime) -> Decided:
    _player(ledger, cmd.player)
    rnd = ledger.round(cmd.round)
    if rnd is None:
        raise CommandError(f"round {cmd.round} has not been seated")
    for seated in rnd.tables.values():
        if cmd.player in seated.players:
            if cmd.player in seated.forfeits:
                raise CommandError(f"{cmd.player} already forfeited round {cmd.round}")
            data = {"round": cmd.round, "table": seated.table, "player": cmd.player,
                    "reason": cmd.reason}  # fmt: skip
            return {"table": seated.table}, [(Kind.FORFEIT, data)]
    raise CommandError(f"{cmd.player} has no seat in round {cmd.round} (a bye?)")


def _entered_sides(ledger: Ledger, seated: TableRound, cmd: Result) -> dict[int, int]:
    if (cmd.scores is None) == (cmd.team_scores is None):
        raise CommandError("result: give scores (one per seat) or team_scores, not both")
    if cmd.team_scores is not None:
        if not ledger.event.partnered or len(cmd.team_scores) != 2:
            raise CommandError("result: team_scores needs a partnership game: two numbers")
        return dict(enumerate(cmd.team_scores))
    assert cmd.scores is not None
    if len(cmd.scores) != len(seated.seats):
        raise CommandError(f"result: {len(seated.seats)} seats, {len(cmd.scores)} scores given")
    sides: dict[int, int] = {}
    for seat in seated.seats:
        sides.setdefault(seated.side(seat), cmd.scores[seat.seat])
    return sides


def _result(ledger: Ledger, cmd: Result, now: datetime) -> Decided:
    _, seated = _seated(ledger, cmd.round, cmd.table)
    if seated.outcome is not None:
        raise CommandError(
            f"{cmd.table} already has round {cmd.round}'s result ({seated.outcome.game_id}): "
            "void it first"
        )
    sides = _entered_sides(ledger, seated, cmd)
    top = max(sides.values())
    winners = [s for s, v in sides.items() if v == top]
    game_id = f"entered-r{cmd.round}-{seated.entered + 1}"
    data = {"round": cmd.round, "table": cmd.table, "game_id": game_id,
            "scores": {str(k): v for k, v in sides.items()},
            "winners": winners if len(winners) == 1 else []}  # fmt: skip
    return {"game_id": game_id}, [(Kind.ENTERED, data)]


def _add(ledger: Ledger, cmd: AddPlayer, now: datetime) -> Decided:
    pid = cmd.player or cmd.id  # spec/mqtt.md: `add_player` (`id`, `name`)
    if not re.fullmatch(PLAYER_ID, pid):
        raise CommandError(
            f"add_player: {pid!r} is not a player id (letters, digits, _ . -; up to 32)"
        )
    if pid in ledger.players:
        raise CommandError(f"{pid!r} is already in the roster")
    if ledger.event.format is Format.PAIRS:
        if cmd.pair is None:
            raise CommandError("add_player: in a pairs event give the player's `pair`")
        if len(ledger.pairs.get(cmd.pair, [])) >= 2:
            raise CommandError(f"pair {cmd.pair} already has two players")
    elif cmd.pair is not None:
        raise CommandError("add_player: `pair` is only for pairs events")
    data = {"player": pid, "name": cmd.name, "pair": cmd.pair}
    return {"player": pid}, [(Kind.ADD_PLAYER, data)]


def _withdraw(ledger: Ledger, cmd: Withdraw, now: datetime) -> Decided:
    _player(ledger, cmd.player)
    if not ledger.players[cmd.player].active:
        raise CommandError(f"{cmd.player} has already withdrawn")
    return {"player": cmd.player}, [(Kind.WITHDRAW, {"player": cmd.player})]


def _check_in(ledger: Ledger, cmd: CheckIn, now: datetime) -> Decided:
    _player(ledger, cmd.player)
    data = {"player": cmd.player, "present": cmd.present}
    return {"player": cmd.player}, [(Kind.CHECK_IN, data)]


def _note(ledger: Ledger, cmd: NoteOn, now: datetime) -> Decided:
    found = ledger.game_of(cmd.table, cmd.game_id)
    if found is None:
        raise CommandError(f"no game {cmd.game_id!r} at table {cmd.table} in this event")
    number, _ = found
    at = now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"
    data = {"round": number, "table": cmd.table, "game_id": cmd.game_id, "text": cmd.text,
            "at": at}  # fmt: skip
    return {"round": number}, [(Kind.NOTE, data)]


HANDLERS: dict[type[_Command], Callable[[Ledger, Any, datetime], Decided]] = {
    StartRound: _start,
    CloseRound: _close,
    Void: _void,
    Forfeit: _forfeit,
    Result: _result,
    AddPlayer: _add,
    Withdraw: _withdraw,
    CheckIn: _check_in,
    NoteOn: _note,
}


def decide(ledger: Ledger, command: _Command, now: datetime) -> Decided:
    return HANDLERS[type(command)](ledger, command, now)
