"""What the desk shows: the `round` and `standings` payloads (spec/mqtt.md, without `v`,
`ts`, `seq`) and the pages' views. Pure: the ledger in, plain dicts out."""

from __future__ import annotations

from typing import Any

from tournament.journal import Record
from tournament.ledger import Ledger, Round, TableRound


def _table(seated: TableRound) -> dict[str, Any]:
    return {
        "table": seated.table,
        "game_id": seated.outcome.game_id if seated.outcome else seated.game_id,
        "status": seated.status.value,
        "seats": [s.payload() for s in seated.seats],
        "confirmed_by": list(seated.outcome.confirmed_by) if seated.outcome else [],
    }


def round_body(ledger: Ledger, rnd: Round) -> dict[str, Any]:
    return {
        "tournament": ledger.event.name,
        "round": rnd.number,
        "state": rnd.state.value,
        "ends_at": rnd.ends_at,
        "tables": [_table(t) for t in rnd.tables.values()],
        "byes": list(rnd.byes),
    }


def standings_body(ledger: Ledger, tables: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "tournament": ledger.event.name,
        "round": ledger.last_closed,
        "tables": tables,
        "entries": [e.payload() for e in ledger.standings()],
        "uncounted": [
            {"table": t, "game_id": g, "why": why} for (t, g), why in ledger.uncounted.items()
        ],
    }


def event_summary(ledger: Ledger) -> dict[str, Any]:
    e = ledger.event
    return {
        "name": e.name,
        "format": e.format.value,
        "rules": e.rules,
        "target": e.target,
        "rounds": e.rounds,
        "played": len(ledger.rounds),
        "time_limit_min": e.time_limit_min,
        "tables": list(e.tables),
        "tie_breaks": [t.value for t in e.tie_breaks],
        "check_in": e.check_in,
    }


def roster(ledger: Ledger) -> list[dict[str, Any]]:
    rnd = ledger.current
    where = {}
    if rnd is not None:
        for seated in rnd.tables.values():
            for seat in seated.seats:
                where[seat.player] = {"table": seated.table, "seat": seat.seat}
    return [
        {"id": p.id, "name": p.name, "pair": p.pair, "active": p.active,
         "checked_in": p.checked_in, "at": where.get(p.id)}
        for p in ledger.players.values()
    ]  # fmt: skip


def _detail(seated: TableRound) -> dict[str, Any]:
    out = _table(seated)
    outcome = seated.outcome
    out["error"] = seated.error
    out["forfeits"] = list(seated.forfeits)
    out["scores"] = {str(k): v for k, v in outcome.scores.items()} if outcome else None
    out["winners"] = sorted(outcome.winners) if outcome else None
    return out


def games(ledger: Ledger) -> list[dict[str, Any]]:
    """Every game of the event, newest round first: where the director opens one (its
    record, asked of its table: the desk's game page; the table's own screen) and its
    notes."""
    out = []
    for number, seated, game_id in reversed(ledger.games()):
        outcome = seated.outcome
        out.append({
            "round": number, "table": seated.table, "game_id": game_id,
            "status": seated.status.value,
            "names": [s.name for s in seated.seats],
            "scores": {str(k): v for k, v in outcome.scores.items()} if outcome else None,
            "notes": [n.payload() for n in ledger.notes.get((seated.table, game_id), [])],
            "screen": ledger.event.table_url(seated.table),
        })  # fmt: skip
    return out


def director_view(ledger: Ledger, journal_tail: list[Record]) -> dict[str, Any]:
    rnd = ledger.current
    is_open = rnd is not None and not rnd.closed
    return {
        "event": event_summary(ledger),
        "roster": roster(ledger),
        "round": None if rnd is None else {
            "round": rnd.number, "state": rnd.state.value, "ends_at": rnd.ends_at,
            "byes": rnd.byes, "tables": [_detail(t) for t in rnd.tables.values()],
            "unreported": rnd.unreported() if is_open else [],
        },
        "can_start": not is_open and len(ledger.rounds) < ledger.event.rounds,
        "can_close": is_open,
        "games": games(ledger),
        "journal": [r.payload() for r in reversed(journal_tail)],
    }  # fmt: skip
