"""`domino-table rules`, `simulate` and `replay`: the engine on the command line."""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

import click

from engine import rulesets
from engine.events import Event, GameEvent, HandEvent, PlayEvent
from engine.game import Game, Mode
from engine.players import PLAYERS, Player, play_game
from engine.rules import Rules, RulesError
from service.core.replay import replay as run_replay
from service.core.rulesets import find_rules


def _rules_or_exit(name: str) -> Rules:
    try:
        return find_rules(name)
    except RulesError as exc:
        raise click.BadParameter(str(exc), param_hint="--rules") from None


@click.group()
def rules() -> None:
    """The house rulesets the table referees."""


@rules.command("list")
def rules_list() -> None:
    """List the shipped rulesets."""
    for name in rulesets.names():
        r = rulesets.load(name)
        lo, hi = r.players
        click.echo(f"{name:16} {lo}-{hi} players  {r.title}")


@rules.command("show")
@click.argument("name")
def rules_show(name: str) -> None:
    """Print a ruleset: a shipped name, or a TOML file to check."""
    r = _rules_or_exit(name)
    if name in rulesets.names():
        click.echo(rulesets.text(name), nl=False)
        return
    click.echo(Path(name).read_text(encoding="utf-8"), nl=False)
    click.echo(f"# {r.name}: valid", err=True)


@click.command()
@click.option("--rules", "rules_name", required=True, help="Ruleset name or TOML file.")
@click.option("--players", type=click.IntRange(2, 10), required=True, help="Number of seats.")
@click.option("--games", type=click.IntRange(1, 100_000), default=1, show_default=True)
@click.option("--seed", type=int, default=None, help="Same seed, same games.")
@click.option(
    "--strategy",
    type=click.Choice(sorted(PLAYERS)),
    multiple=True,
    help="Per seat (repeat), default: greedy and random alternating.",
)
@click.option("--summary", is_flag=True, help="Only the totals, not each game.")
def simulate(
    rules_name: str,
    players: int,
    games: int,
    seed: int | None,
    strategy: tuple[str, ...],
    summary: bool,
) -> None:
    """Play simulated games with simple computer players and print them."""
    r = _rules_or_exit(rules_name)
    try:
        r.check_players(players)
    except RulesError as exc:
        raise click.BadParameter(str(exc), param_hint="--players") from None
    rng = random.Random(seed)
    kinds = list(strategy) or ["greedy" if s % 2 == 0 else "random" for s in range(players)]
    if len(kinds) != players:
        raise click.BadParameter(
            f"give {players} strategies, one per seat", param_hint="--strategy"
        )
    wins: Counter[str] = Counter()
    for number in range(1, games + 1):
        makers: list[Callable[[random.Random], Player]] = [PLAYERS[k] for k in kinds]
        seats = [make(rng) for make in makers]
        game = Game(r, players, mode=Mode.FULL, seed=rng.randrange(2**32))
        events = play_game(game, seats)
        over = events[-1]
        assert isinstance(over, GameEvent)
        winner = f"team {over.team}" if over.team is not None else game.names[over.winner or 0]
        wins[winner] += 1
        if not summary:
            _print_game(number, game, events)
    click.echo(
        f"{games} game(s) of {r.name}, {players} players: "
        + ", ".join(f"{who} won {n}" for who, n in wins.most_common())
    )


def _print_game(number: int, game: Game, events: Sequence[Event]) -> None:
    click.echo(f"== game {number}: {game.rules.name}, {game.seats} players")
    for event in events:
        if isinstance(event, PlayEvent):
            note = f"  +{event.points}" if event.points else ""
            click.echo(
                f"  hand {event.hand}  {game.names[event.seat or 0]:9} {event.tile:5}"
                f" ends {event.ends_total:3}{note}"
            )
        elif isinstance(event, HandEvent):
            who = game.names[event.winner] if event.winner is not None else "nobody"
            click.echo(
                f"  hand {event.hand} {event.result.value}: {who} +{event.points}; "
                f"pips {list(event.pips)}; scores {list(event.scores)}"
            )
        elif isinstance(event, GameEvent) and event.event == "over":
            click.echo(f"  game over: scores {list(event.scores)}")


def _clock(_ctx: click.Context, _param: click.Parameter, value: str | None) -> datetime | None:
    """`--clock`: an ISO 8601 time (UTC unless it says otherwise)."""
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(
            f"{value!r} is not a time: write it as 2025-01-31T20:00:00Z"
        ) from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@click.command()
@click.argument("source", type=click.File("r", encoding="utf-8"))
@click.option("--table", default="replay", show_default=True, help="Table id in the payloads.")
@click.option(
    "--clock",
    callback=_clock,
    metavar="TIME",
    help="Stamp every event with this time (ISO 8601): replays of one game print the same bytes.",
)
@click.option(
    "--lenient",
    is_flag=True,
    help="Exit 0 even when the game refused an input (a malformed line still exits 1).",
)
def replay(source: TextIO, table: str, clock: datetime | None, lenient: bool) -> None:
    """Judge a game told as JSON lines (FILE, or - for stdin); print one event per line.

    Exits 1 when a line is malformed or, unless --lenient, when the game refused an
    input (its alert is printed like any event).
    """
    errors = refused = 0
    for out in run_replay(source, table=table, find_rules=find_rules, now=clock):
        if out.error is not None:
            errors += 1
            click.echo(out.error, err=True)
            continue
        refused += out.refused
        sys.stdout.write(json.dumps(out.payload, separators=(",", ":")) + "\n")
    if errors or (refused and not lenient):
        raise SystemExit(1)
