"""What the tables tell the desk, turned into journal records. Pure.

- a reply on `domino/<table>/cmd/reply` to the round's `new_game`: `ack` or `refused`;
- a `state` naming the event and a round the table is seated in: `started`;
- a `result/<game_id>`: `result` when it is a game of one of the desk's seatings,
  `uncounted` (with why) otherwise. Each is judged once: the same game again (a
  reconnect re-sends every retained result) gives no record, unless it says that more
  players confirmed it at the table (`confirmed_by`): then `confirmed`.
"""

from __future__ import annotations

import json
from typing import Any

from tournament.journal import Kind
from tournament.ledger import Ledger, TableRound
from tournament.rounds import command_id

Records = list[tuple[Kind, dict[str, Any]]]


class NotCountedError(ValueError):
    """Why a result does not count (the `uncounted` entry's `why`)."""


def _json(payload: bytes) -> Any:
    try:
        return json.loads(payload)
    except (UnicodeDecodeError, ValueError):
        return None


def on_reply(ledger: Ledger, table: str, payload: bytes) -> Records:
    reply = _json(payload)
    rnd = ledger.current
    if not isinstance(reply, dict) or rnd is None or rnd.closed or table not in rnd.tables:
        return []
    seated = rnd.tables[table]
    if seated.acked or reply.get("id") != command_id(ledger.event, rnd.number, seated):
        return []
    where = {"round": rnd.number, "table": table, "id": reply["id"]}
    if reply.get("ok") is True:
        return [(Kind.ACK, where)]
    error = reply.get("error") if isinstance(reply.get("error"), str) else "no reason given"
    return [(Kind.REFUSED, {**where, "error": error})]


def _round_of(ledger: Ledger, table: str, body: dict[str, Any]) -> tuple[int, TableRound]:
    """The seating a game at `table` claims to be; `NotCountedError` when it is none of ours."""
    name = ledger.event.name
    if body.get("tournament") != name:
        claimed = body.get("tournament")
        raise NotCountedError(
            f"not a game of {name}" + (f" (it says {claimed!r})" if claimed else " (practice)")
        )
    number = body.get("round")
    rnd = ledger.round(number) if isinstance(number, int) else None
    if rnd is None or isinstance(number, bool):
        raise NotCountedError(f"round {number!r} was never seated")
    seated = rnd.tables.get(table)
    if seated is None:
        raise NotCountedError(f"table {table} has no seating in round {number}")
    players = body.get("players")
    if players is not None and players != seated.players:
        raise NotCountedError(
            f"its players {players} are not round {number}'s seating at {table} {seated.players}"
        )
    return rnd.number, seated


def on_state(ledger: Ledger, table: str, payload: bytes) -> Records:
    if not any(  # read only while the table has a seating whose game has not started
        (seated := rnd.tables.get(table)) is not None
        and seated.game_id is None
        and seated.outcome is None
        for rnd in ledger.rounds
    ):
        return []  # a playing table's every state: no second JSON parse on the desk's loop
    state = _json(payload)
    if not isinstance(state, dict) or not isinstance(state.get("game_id"), str):
        return []
    try:
        number, seated = _round_of(ledger, table, state)
    except NotCountedError:
        return []
    if seated.game_id is not None or seated.outcome is not None:
        return []
    return [(Kind.STARTED, {"round": number, "table": table, "game_id": state["game_id"]})]


def _ints(body: dict[str, Any], key: str) -> list[int]:
    values = body.get(key)
    if not isinstance(values, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in values
    ):
        raise NotCountedError(f"its {key!r} is not a list of integers")
    return values


def outcome_of(seated: TableRound, body: dict[str, Any]) -> tuple[dict[str, int], list[int]]:
    """Each side's final score (by side, as text for JSON) and the winning sides."""
    scores = _ints(body, "scores")
    if len(scores) != len(seated.seats):
        raise NotCountedError(f"{len(seated.seats)} seats at the table, {len(scores)} scores")
    team_scores = _ints(body, "team_scores") if body.get("team_scores") else []
    sides: dict[str, int] = {}
    for seat in seated.seats:
        side = seated.side(seat)
        if seat.team is not None and side < len(team_scores):
            sides[str(side)] = team_scores[side]
        else:
            sides.setdefault(str(side), scores[seat.seat])
    winner, team = body.get("winner"), body.get("team")
    by_seat = {s.seat: seated.side(s) for s in seated.seats}
    if seated.seats[0].team is not None and isinstance(team, int):
        winners = [team]
    elif isinstance(winner, int) and winner in by_seat:
        winners = [by_seat[winner]]
    else:
        winners = []
    return sides, winners


def on_result(ledger: Ledger, table: str, game_id: str, payload: bytes) -> Records:
    seen = (table, game_id)
    if not payload or seen in ledger.uncounted or seen in ledger.voided:
        return []
    counted = _counted(ledger, table, game_id)
    if counted is not None:
        return _confirmation(counted, table, game_id, _json(payload))
    body = _json(payload)
    try:
        if not isinstance(body, dict) or body.get("event") != "over":
            raise NotCountedError("not a finished game (no `game` event with event: over)")
        number, seated = _round_of(ledger, table, body)
        if seated.outcome is not None:
            raise NotCountedError(
                f"{table} already has round {number}'s result ({seated.outcome.game_id}): "
                "void it to count this one"
            )
        sides, winners = outcome_of(seated, body)
    except NotCountedError as exc:
        return [(Kind.UNCOUNTED, {"table": table, "game_id": game_id, "why": str(exc)})]
    reason = body.get("reason") if isinstance(body.get("reason"), str) else None
    data = {"round": number, "table": table, "game_id": game_id, "scores": sides,
            "winners": winners, "reason": reason, "result": body,
            "confirmed_by": confirmed_by(seated, body)}  # fmt: skip
    return [(Kind.RESULT, data)]


def confirmed_by(seated: TableRound, body: dict[str, Any]) -> list[int]:
    """The seats a result says confirmed it (spec: the table's `confirmed_by`), checked."""
    seats = body.get("confirmed_by")
    if not isinstance(seats, list):
        return []
    known = {s.seat for s in seated.seats}
    return [s for s in seats if isinstance(s, int) and not isinstance(s, bool) and s in known]


def _confirmation(counted: tuple[int, TableRound], table: str, game_id: str,
                  body: Any) -> Records:  # fmt: skip
    """A counted result again: a `confirmed` record when more seats confirmed it."""
    number, seated = counted
    if not isinstance(body, dict) or seated.outcome is None:
        return []
    seats = confirmed_by(seated, body)
    if not seats or tuple(seats) == seated.outcome.confirmed_by:
        return []
    data = {"round": number, "table": table, "game_id": game_id, "confirmed_by": seats}
    return [(Kind.CONFIRMED, data)]


def _counted(ledger: Ledger, table: str, game_id: str) -> tuple[int, TableRound] | None:
    """The round and seating whose counted result is that game, if any."""
    for rnd in ledger.rounds:
        seated = rnd.tables.get(table)
        if seated is not None and seated.outcome and seated.outcome.game_id == game_id:
            return rnd.number, seated
    return None
