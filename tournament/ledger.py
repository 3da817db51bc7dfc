"""The event as it stands: everything the journal's records say, folded in order. Pure.

`Ledger.apply(record)` is the only way anything changes, at run time and when the desk
rebuilds after a restart, so a rebuilt desk is the desk that crashed. The decisions
(what a command, a reply or a result becomes) are made elsewhere (`intake`, `commands`,
`rounds`); this module only remembers and answers questions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from tournament.event import EventConfig, Format
from tournament.journal import Kind, Record
from tournament.pairing import History
from tournament.ranking import Credit, Entry, rank, records


class RoundState(StrEnum):
    SEATED = "seated"  # new_game sent; not every table has acknowledged yet
    PLAYING = "playing"  # every table acknowledged
    CLOSED = "closed"


class TableStatus(StrEnum):
    """Where one table stands in a round (the round payload's `status`)."""

    SENT = "sent"  # new_game sent, no answer yet
    REFUSED = "refused"  # the table answered ok: false (sent again with a new id)
    READY = "ready"  # acknowledged
    PLAYING = "playing"  # the round's game started (game_id known)
    REPORTED = "reported"  # its result counts
    ENTERED = "entered"  # a result entered by hand counts
    FORFEIT = "forfeit"
    VOID = "void"  # its result was voided and nothing replaced it
    NOT_PLAYED = "not_played"  # the round closed without a result


DONE = {TableStatus.REPORTED, TableStatus.ENTERED, TableStatus.FORFEIT}
# records that change neither an outcome nor the roster: the standings stay as they were
KEEP_STANDINGS = frozenset({
    Kind.EVENT, Kind.COMMAND, Kind.CHECK_IN, Kind.SENT, Kind.ACK, Kind.REFUSED, Kind.STARTED,
    Kind.CONFIRMED, Kind.UNCOUNTED, Kind.NOTE,
})  # fmt: skip


@dataclass
class Player:
    id: str
    name: str
    pair: str | None = None
    active: bool = True
    checked_in: bool = False


@dataclass(frozen=True)
class Seat:
    seat: int
    player: str
    name: str
    team: int | None

    def payload(self) -> dict[str, Any]:
        return {"seat": self.seat, "player": self.player, "name": self.name, "team": self.team}


@dataclass(frozen=True)
class Outcome:
    """What counts for one table in one round, by side (a team, or a seat without teams)."""

    source: TableStatus  # REPORTED, ENTERED or FORFEIT
    game_id: str
    scores: dict[int, int]  # side -> final score
    winners: frozenset[int]
    reason: str | None = None
    confirmed_by: tuple[int, ...] = ()  # the seats that confirmed it at the table


@dataclass(frozen=True)
class Note:
    """The director's note on a game's result, when it was made."""

    at: str
    text: str

    def payload(self) -> dict[str, Any]:
        return {"at": self.at, "text": self.text}


@dataclass
class TableRound:
    table: str
    seats: list[Seat]
    attempt: int = 1
    acked: bool = False
    error: str | None = None
    game_id: str | None = None
    outcome: Outcome | None = None
    voided: bool = False
    not_played: bool = False
    forfeits: list[str] = field(default_factory=list)
    entered: int = 0  # results entered by hand so far

    def side(self, seat: Seat) -> int:
        return seat.team if seat.team is not None else seat.seat

    @property
    def players(self) -> list[str]:
        return [s.player for s in self.seats]

    @property
    def status(self) -> TableStatus:
        if self.outcome is not None:
            return self.outcome.source
        if self.not_played:
            return TableStatus.NOT_PLAYED
        if self.voided:
            return TableStatus.VOID
        if self.game_id is not None:
            return TableStatus.PLAYING
        if self.acked:
            return TableStatus.READY
        return TableStatus.REFUSED if self.error else TableStatus.SENT

    def credits(self) -> list[Credit]:
        if self.outcome is None:
            return []
        out = self.outcome
        sides = {self.side(s) for s in self.seats}
        credits = []
        for seat in self.seats:
            side = self.side(seat)
            points = out.scores.get(side, 0)
            best = max((out.scores.get(o, 0) for o in sides if o != side), default=0)
            margin = 0 if out.source is TableStatus.FORFEIT else points - best
            opponents = frozenset(s.player for s in self.seats if self.side(s) != side)
            credits.append(Credit(seat.player, side in out.winners, points, margin, opponents))
        return credits


@dataclass
class Round:
    number: int
    ends_at: str | None
    tables: dict[str, TableRound]
    byes: list[str]
    closed: bool = False

    @property
    def state(self) -> RoundState:
        if self.closed:
            return RoundState.CLOSED
        if all(t.acked or t.game_id or t.outcome for t in self.tables.values()):
            return RoundState.PLAYING
        return RoundState.SEATED

    def unreported(self) -> list[str]:
        return [t for t, tr in self.tables.items() if tr.status not in DONE]


class Ledger:
    """Roster, rounds, commands answered and results not counted."""

    def __init__(self, event: EventConfig) -> None:
        self.event = event
        self.players: dict[str, Player] = {}
        self.pairs: dict[str, list[str]] = {}
        self.rounds: list[Round] = []
        self.replies: dict[str, dict[str, Any]] = {}  # command id -> its reply
        self.uncounted: dict[tuple[str, str], str] = {}
        self.voided: set[tuple[str, str]] = set()  # (table, game_id): never counted again
        self.notes: dict[tuple[str, str], list[Note]] = {}  # (table, game_id) -> in order
        self.played: dict[tuple[str, str], int] = {}  # (table, game_id) -> its round
        self.last = 0  # the last record applied
        self._standings: list[Entry] | None = None  # ranked, until a record changes them
        for p in event.players:
            self.players[p.id] = Player(p.id, p.name)
        for pair in event.pairs:
            self.pairs[pair.id] = list(pair.players)
            for pid in pair.players:
                self.players[pid].pair = pair.id
        self._apply: dict[Kind, Callable[[dict[str, Any]], None]] = {
            Kind.EVENT: lambda d: None,
            Kind.COMMAND: self._command,
            Kind.CHECK_IN: self._check_in,
            Kind.ADD_PLAYER: self._add_player,
            Kind.WITHDRAW: self._withdraw,
            Kind.SEATING: self._seating,
            Kind.ACK: self._ack,
            Kind.REFUSED: self._refused,
            Kind.STARTED: self._started,
            Kind.RESULT: self._result,
            Kind.CONFIRMED: self._confirmed,
            Kind.UNCOUNTED: self._uncounted,
            Kind.ENTERED: self._entered,
            Kind.VOID: self._void,
            Kind.FORFEIT: self._forfeit,
            Kind.CLOSE: self._close,
            Kind.NOTE: self._note,
        }

    # ---- questions ---------------------------------------------------------------------

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def round(self, number: int) -> Round | None:
        return self.rounds[number - 1] if 1 <= number <= len(self.rounds) else None

    @property
    def last_closed(self) -> int | None:
        closed = [r.number for r in self.rounds if r.closed]
        return closed[-1] if closed else None

    def credits(self) -> Iterator[Credit]:
        for rnd in self.rounds:
            for table in rnd.tables.values():
                yield from table.credits()

    def standings(self) -> list[Entry]:
        """Every roster player ranked; kept until a record changes a game's outcome or the
        roster (the desk asks on every publication, the tables' news rarely changes it)."""
        if self._standings is None:
            roster = [(p.id, p.name) for p in self.players.values()]
            recs = records(roster, self.credits())
            self._standings = rank(recs.values(), self.event.tie_breaks, self.event.seed)
        return self._standings

    def history(self) -> History:
        """Partners, opponents and byes of every round seated so far (per player, and per
        pair in the pairs format)."""
        hist = History()
        for rnd in self.rounds:
            for table in rnd.tables.values():
                sides: dict[int, list[str]] = {}
                for seat in table.seats:
                    sides.setdefault(table.side(seat), []).append(seat.player)
                hist.add_table(list(sides.values()))
            for bye in rnd.byes:
                hist.byes[bye] += 1
            if self.event.format is Format.PAIRS:
                for pair_id in {self.players[b].pair for b in rnd.byes}:
                    hist.byes[pair_id or ""] += 1
        return hist

    def seatable(self) -> list[str]:
        """Players who may be seated next round (active, and checked in when required)."""
        return [
            p.id
            for p in self.players.values()
            if p.active and (p.checked_in or not self.event.check_in)
        ]

    # ---- the one way in ------------------------------------------------------------------

    def apply(self, record: Record) -> None:
        self._apply[record.kind](record.data)
        self.last = record.n
        if record.kind not in KEEP_STANDINGS:
            self._standings = None

    def _table(self, data: dict[str, Any]) -> TableRound:
        rnd = self.round(int(data["round"]))
        assert rnd is not None, data
        if isinstance(data.get("game_id"), str):  # a game of the event at this table
            self.played[(data["table"], data["game_id"])] = rnd.number
        return rnd.tables[data["table"]]

    def _command(self, data: dict[str, Any]) -> None:
        if data["id"]:
            self.replies[data["id"]] = data["reply"]

    def _check_in(self, data: dict[str, Any]) -> None:
        self.players[data["player"]].checked_in = bool(data["present"])

    def _add_player(self, data: dict[str, Any]) -> None:
        player = Player(data["player"], data["name"], data.get("pair"), checked_in=True)
        self.players[player.id] = player
        if player.pair is not None:
            self.pairs.setdefault(player.pair, []).append(player.id)

    def _withdraw(self, data: dict[str, Any]) -> None:
        self.players[data["player"]].active = False

    def _seating(self, data: dict[str, Any]) -> None:
        tables = {
            t["table"]: TableRound(t["table"], [Seat(**s) for s in t["seats"]])
            for t in data["tables"]
        }
        self.rounds.append(Round(int(data["round"]), data["ends_at"], tables, list(data["byes"])))

    def _ack(self, data: dict[str, Any]) -> None:
        table = self._table(data)
        table.acked, table.error = True, None

    def _refused(self, data: dict[str, Any]) -> None:
        table = self._table(data)
        table.error = data["error"]
        table.attempt += 1

    def _started(self, data: dict[str, Any]) -> None:
        table = self._table(data)
        table.acked, table.game_id, table.error = True, data["game_id"], None

    def _result(self, data: dict[str, Any]) -> None:
        table = self._table(data)
        table.game_id = data["game_id"]
        table.outcome = Outcome(
            TableStatus.REPORTED,
            data["game_id"],
            {int(k): v for k, v in data["scores"].items()},
            frozenset(data["winners"]),
            data.get("reason"),
            tuple(data.get("confirmed_by", ())),
        )
        table.voided = table.not_played = False

    def _confirmed(self, data: dict[str, Any]) -> None:
        table = self._table(data)
        if table.outcome is not None and table.outcome.game_id == data["game_id"]:
            table.outcome = replace(table.outcome, confirmed_by=tuple(data["confirmed_by"]))

    def _uncounted(self, data: dict[str, Any]) -> None:
        self.uncounted[(data["table"], data["game_id"])] = data["why"]

    def _entered(self, data: dict[str, Any]) -> None:
        table = self._table(data)
        table.entered += 1
        table.outcome = Outcome(
            TableStatus.ENTERED,
            data["game_id"],
            {int(k): v for k, v in data["scores"].items()},
            frozenset(data["winners"]),
        )
        table.voided = table.not_played = False

    def _void(self, data: dict[str, Any]) -> None:
        table = self._table(data)
        if table.outcome is not None and table.outcome.source is TableStatus.FORFEIT:
            table.forfeits = []
        self.voided.add((table.table, data["game_id"]))
        table.outcome, table.voided = None, True

    def _forfeit(self, data: dict[str, Any]) -> None:
        table = self._table(data)
        table.forfeits.append(data["player"])
        losing = {table.side(s) for s in table.seats if s.player in table.forfeits}
        sides = {table.side(s) for s in table.seats}
        round_no = int(data["round"])
        table.outcome = Outcome(
            TableStatus.FORFEIT,
            f"forfeit-r{round_no}",
            dict.fromkeys(sides, 0),
            frozenset(sides - losing),
            data["reason"],
        )
        table.voided = table.not_played = False

    def _note(self, data: dict[str, Any]) -> None:
        key = (data["table"], data["game_id"])
        self.notes.setdefault(key, []).append(Note(data["at"], data["text"]))

    def games(self) -> list[tuple[int, TableRound, str]]:
        """Every game the event knows of, by round and table: (round, table, game_id)."""
        out = []
        for rnd in self.rounds:
            for seated in rnd.tables.values():
                game = seated.outcome.game_id if seated.outcome else seated.game_id
                if game:
                    out.append((rnd.number, seated, game))
        return out

    def game_of(self, table: str, game_id: str) -> tuple[int, TableRound] | None:
        """The round and seating of `game_id` at `table`: a game of the event played,
        counted or voided there (None: the event knows no such game)."""
        number = self.played.get((table, game_id))
        rnd = self.round(number) if number is not None else None
        if rnd is None or table not in rnd.tables:
            return None
        return rnd.number, rnd.tables[table]

    def _close(self, data: dict[str, Any]) -> None:
        rnd = self.round(int(data["round"]))
        assert rnd is not None
        rnd.closed = True
        for table in data["not_played"]:
            rnd.tables[table].not_played = True
