"""The event file (`domino-table tournament --event FILE.toml`), validated once at start-up.

spec/mqtt.md, "Running an event", names the keys; a few more are the desk's own
(`display_url`, `check_in`, `auto_advance`, `seats`). Every problem is reported at once,
each line naming the file, the key and what is allowed:
`spring.toml: players[2].id: 'p1' is already the id of players[0]; give each player its own`.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine import RulesError, rulesets
from engine.rules import Partnerships, Rules
from tournament.errors import EventFileError

TABLE_ID = r"^[a-z0-9][a-z0-9_-]*$"
PLAYER_ID = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$"


class Format(StrEnum):
    """How players sit: fixed partnerships, each for themself, or two at a table."""

    PAIRS = "pairs"
    INDIVIDUAL = "individual"
    SINGLES = "singles"


class TieBreak(StrEnum):
    """What ranks players level on the ones before it (a seeded draw breaks the rest)."""

    WINS = "wins"
    WIN_PCT = "win_pct"
    MARGIN = "margin"
    POINTS = "points"
    AVG_POINTS = "avg_points"
    HEAD_TO_HEAD = "head_to_head"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class PlayerDef(_Strict):
    id: Annotated[str, Field(pattern=PLAYER_ID)]
    name: Annotated[str, Field(min_length=1, max_length=32)]  # a table's seat name: 32 at most


class PairDef(_Strict):
    id: Annotated[str, Field(pattern=PLAYER_ID)]
    players: Annotated[tuple[str, str], Field()]


class EventConfig(_Strict):
    """One event: who plays, where, under which rules, for how many rounds."""

    name: Annotated[str, Field(min_length=1, max_length=80)]
    format: Format
    rules: str
    target: Annotated[int, Field(gt=0)] | None = None
    rounds: Annotated[int, Field(ge=1, le=50)]
    time_limit_min: Annotated[float, Field(gt=0, le=600)] | None = None
    tables: Annotated[tuple[Annotated[str, Field(pattern=TABLE_ID)], ...], Field(min_length=1)]
    tie_breaks: tuple[TieBreak, ...] = (TieBreak.WINS, TieBreak.MARGIN, TieBreak.POINTS)
    seed: int
    players: tuple[PlayerDef, ...] = ()
    pairs: tuple[PairDef, ...] = ()
    display_url: str = "http://{table}.local:8080/"
    check_in: bool = False
    auto_advance: bool = False

    @property
    def seats(self) -> int:
        """Seats at every table: 2 in singles, 4 otherwise."""
        return 2 if self.format is Format.SINGLES else 4

    @property
    def partnered(self) -> bool:
        """Whether tables play as two teams (seats 0+2 against 1+3)."""
        if self.format is Format.PAIRS:
            return True
        if self.format is Format.SINGLES:
            return False
        return self.ruleset().partnerships is not Partnerships.NEVER

    def ruleset(self) -> Rules:
        return rulesets.load(self.rules)

    def teams(self) -> list[int] | None:
        """`new_game`'s `teams`: one team per seat, or None without partnerships."""
        return [0, 1, 0, 1] if self.partnered else None

    def table_url(self, table: str) -> str:
        return self.display_url.replace("{table}", table)


def _where(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _duplicates(label: str, ids: list[str], what: str) -> list[str]:
    seen: dict[str, int] = {}
    problems = []
    for n, ident in enumerate(ids):
        if ident in seen:
            problems.append(
                f"{label}[{n}].id: {ident!r} is already the id of {label}[{seen[ident]}]; "
                f"give each {what} its own"
            )
        seen.setdefault(ident, n)
    return problems


def _rules_problems(event: EventConfig) -> list[str]:
    try:
        rules = event.ruleset()
    except RulesError as exc:
        return [f"rules: {exc}"]
    lo, hi = rules.players
    if not lo <= event.seats <= hi:
        return [
            f"format: {event.format.value} seats {event.seats} at a table, but {rules.name} "
            f"is for {lo} to {hi} players; choose another format or ruleset"
        ]
    if event.format is Format.PAIRS and rules.partnerships is Partnerships.NEVER:
        return [f"format: pairs needs a partnership ruleset; {rules.name} has none"]
    return []


def _pair_problems(event: EventConfig) -> list[str]:
    if event.format is not Format.PAIRS:
        if event.pairs:
            return [f"pairs: only the pairs format has [[pairs]], not {event.format.value}"]
        return []
    known = {p.id for p in event.players}
    problems = _duplicates("pairs", [p.id for p in event.pairs], "pair")
    count = Counter(pid for pair in event.pairs for pid in pair.players)
    for n, pair in enumerate(event.pairs):
        for pid in pair.players:
            if pid not in known:
                problems.append(f"pairs[{n}].players: {pid!r} is not the id of any [[players]]")
            elif count[pid] > 1:
                problems.append(f"pairs[{n}].players: {pid!r} is in more than one pair")
    unpaired = sorted(known - set(count))
    if unpaired:
        problems.append(f"pairs: {', '.join(unpaired)} in no pair; put every player in one")
    return problems


def check(event: EventConfig) -> list[str]:
    """What is wrong beyond each key's own type: ids, pairs, the ruleset's seats."""
    problems = _rules_problems(event)
    problems += _duplicates("players", [p.id for p in event.players], "player")
    problems += _pair_problems(event)
    for n, table in enumerate(event.tables):
        if table == "tournament":
            problems.append(f"tables[{n}]: 'tournament' is the desk's own prefix; rename the table")
    if len(set(event.tables)) != len(event.tables):
        problems.append("tables: a table is listed twice; list each table id once")
    if len(set(event.tie_breaks)) != len(event.tie_breaks):
        problems.append("tie_breaks: a tie-break is listed twice; list each once")
    if "{table}" not in event.display_url:
        problems.append("display_url: must hold {table}, e.g. 'http://{table}.local:8080/'")
    return problems


def parse(data: dict[str, Any], label: str) -> EventConfig:
    """The event from parsed TOML; `EventFileError` listing every problem with its key."""
    try:
        event = EventConfig.model_validate(data)
    except ValidationError as exc:
        lines = [f"{label}: {_where(e['loc']) or '<file>'}: {e['msg']}" for e in exc.errors()]
        raise EventFileError(lines) from None
    problems = check(event)
    if problems:
        raise EventFileError([f"{label}: {p}" for p in problems])
    return event


def load(path: Path) -> EventConfig:
    """Read and validate an event file."""
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise EventFileError([f"{path}: no such event file; check the path"]) from None
    except OSError as exc:
        raise EventFileError([f"{path}: cannot read the event file ({exc.strerror})"]) from exc
    except tomllib.TOMLDecodeError as exc:
        raise EventFileError([f"{path}: not valid TOML: {exc}"]) from exc
    return parse(data, str(path))
