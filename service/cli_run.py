"""`domino-table demo` and `domino-table run`: the table service."""

from __future__ import annotations

import random
import time

import click

from engine import rulesets
from engine.events import GameEvent, HandEvent, PlayEvent
from engine.game import Game, Mode, Phase
from engine.players import GreedyPlayer, RandomPlayer, play_turn


@click.command()
@click.option("--rules", "rules_name", default="walnut", show_default=True)
@click.option("--players", type=click.IntRange(2, 10), default=4, show_default=True)
@click.option("--seed", type=int, default=None)
@click.option("--pace", type=float, default=0.3, show_default=True, help="Seconds per turn.")
def demo(rules_name: str, players: int, seed: int | None, pace: float) -> None:
    """A simulated table playing a game, printed as it is scored."""
    rules = rulesets.load(rules_name)
    rng = random.Random(seed)
    game = Game(rules, players, mode=Mode.FULL, seed=rng.randrange(2**32))
    seats = [GreedyPlayer(rng) if s % 2 == 0 else RandomPlayer(rng) for s in range(players)]
    game.start()
    click.echo(f"{rules.title}: {players} players")
    while game.phase is not Phase.OVER:
        if game.phase is Phase.HAND_OVER:
            game.next_hand()
        seat = game.turn
        assert seat is not None
        for event in play_turn(game, seats[seat]).events:
            if isinstance(event, PlayEvent):
                extra = f"  scores {event.points}" if event.points else ""
                click.echo(
                    f"{game.names[seat]:9} plays {event.tile}  ends {event.ends_total}{extra}"
                )
            elif isinstance(event, HandEvent):
                click.echo(f"hand {event.hand}: {event.result.value}; scores {list(event.scores)}")
            elif isinstance(event, GameEvent):
                click.echo(f"game over: scores {list(event.scores)}")
        time.sleep(pace)
