"""A round's seating (the `seating` record) and each table's `new_game`. Pure.

The seating is made once, when the round starts, from the ledger (standings, history,
roster) and the event's seed, and kept in the journal: a desk restarted mid-round reads
it back instead of seating again.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from datetime import datetime, timedelta
from typing import Any

from mqttweb.envelope import utc_ts
from tournament.errors import CommandError
from tournament.event import EventConfig, Format
from tournament.ledger import Ledger, Round, TableRound
from tournament.pairing import Pair, Seating, individual, pair, shuffled, swiss


def _pairs_seating(ledger: Ledger, ranked: list[str], wins: dict[str, int]) -> Seating:
    """Swiss between fixed pairs whose two players may both be seated."""
    seatable = set(ledger.seatable())
    best: dict[str, int] = {}
    for place, pid in enumerate(ranked):
        pair_id = ledger.players[pid].pair
        if pair_id is not None:
            best.setdefault(pair_id, place)
    ready = [
        pid
        for pid, members in ledger.pairs.items()
        if len(members) == 2 and all(m in seatable for m in members)
    ]
    order = sorted(ready, key=lambda p: best.get(p, len(ranked)))
    history = ledger.history()
    met: Counter[Pair] = Counter()
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            met[pair(a, b)] = history.opponents[pair(ledger.pairs[a][0], ledger.pairs[b][0])]
    pair_wins = {p: max(wins[m] for m in ledger.pairs[p]) for p in order}
    found = swiss(order, pair_wins, len(ledger.event.tables), met, history)
    groups = []
    for a, b in found.groups:
        (a1, a2), (b1, b2) = ledger.pairs[a], ledger.pairs[b]
        groups.append([a1, b1, a2, b2])  # pair a at seats 0+2, pair b at 1+3
    return Seating(groups, [m for p in found.byes for m in ledger.pairs[p]])


def seating_for(ledger: Ledger, number: int) -> Seating:
    """Who sits where in round `number` (the format's pairing, see `pairing`)."""
    event = ledger.event
    entries = ledger.standings()
    ranked = [e.record.player for e in entries]
    wins = {e.record.player: e.record.wins for e in entries}
    tables = len(event.tables)
    if event.format is Format.PAIRS:
        return _pairs_seating(ledger, ranked, wins)
    seatable = set(ledger.seatable())
    history = ledger.history()
    if event.format is Format.SINGLES:
        order = [p for p in ranked if p in seatable]
        return swiss(order, wins, tables, history.opponents, history)
    order = shuffled(seatable, event.seed, number)
    return individual(order, tables, history, event.partnered)


def seat_round(ledger: Ledger, now: datetime) -> dict[str, Any]:
    """The `seating` record of the next round; `CommandError` when it cannot be seated."""
    event = ledger.event
    current = ledger.current
    if current is not None and not current.closed:
        raise CommandError(f"round {current.number} is still open: close it first (close_round)")
    number = len(ledger.rounds) + 1
    if number > event.rounds:
        raise CommandError(f"all {event.rounds} rounds have been played")
    found = seating_for(ledger, number)
    if not found.groups:
        raise CommandError(
            f"only {len(ledger.seatable())} players can be seated; a table needs {event.seats}"
            + (" (check players in)" if event.check_in else "")
        )
    teams = event.teams()
    tables = []
    for table, group in zip(event.tables, found.groups, strict=False):
        seats = [
            {"seat": n, "player": pid, "name": ledger.players[pid].name,
             "team": teams[n] if teams else None}
            for n, pid in enumerate(group)
        ]  # fmt: skip
        tables.append({"table": table, "seats": seats})
    ends_at = None
    if event.time_limit_min is not None:
        ends_at = utc_ts(now + timedelta(minutes=event.time_limit_min))
    return {"round": number, "ends_at": ends_at, "tables": tables, "byes": found.byes}


def event_tag(event: EventConfig) -> str:
    """A short tag of the event (its name and seed) that makes command ids unique to it."""
    return hashlib.sha256(f"{event.name}\n{event.seed}".encode()).hexdigest()[:8]


def command_id(event: EventConfig, number: int, table: TableRound) -> str:
    return f"tournament-{event_tag(event)}-r{number}-{table.table}-{table.attempt}"


def new_game(event: EventConfig, rnd: Round, table: TableRound) -> dict[str, Any]:
    """The `new_game` command that seats `table` for round `rnd` (spec/mqtt.md)."""
    body: dict[str, Any] = {
        "id": command_id(event, rnd.number, table),
        "action": "new_game",
        "rules": event.rules,
        "seats": [s.name for s in table.seats],
        "tournament": event.name,
        "round": rnd.number,
        "players": table.players,
        "ends_at": rnd.ends_at,
    }
    teams = event.teams()
    if teams is not None:
        body["teams"] = teams
    if event.target is not None:
        body["target"] = event.target
    return body
