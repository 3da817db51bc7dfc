"""`domino-table demo` and `domino-table run`: the table service."""

from __future__ import annotations

import logging
import random
import signal
import threading
import time
from pathlib import Path
from typing import Any

import click

from config.errors import SettingsError
from config.loader import load_settings
from config.settings import Settings
from engine import rulesets
from engine.events import GameEvent, HandEvent, PlayEvent
from engine.game import Game, Mode, Phase
from engine.players import GreedyPlayer, RandomPlayer, play_turn
from service.app import TableService


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


log = logging.getLogger(__name__)

# flag name -> dotted settings key
_FLAGS = {
    "serial": "serial.port",
    "mqtt_host": "mqtt.host",
    "mqtt_port": "mqtt.port",
    "table": "table.id",
    "rules": "table.rules",
    "seats": "table.seats",
    "state_dir": "state.dir",
}


def settings_from_flags(settings_file: Path | None, flags: dict[str, Any]) -> Settings:
    """The settings file (or the defaults) with the flags given on top; exits on errors."""
    overrides = {_FLAGS[k]: v for k, v in flags.items() if v is not None and k in _FLAGS}
    if flags.get("serial") is not None:
        overrides["serial.enabled"] = True
    names = {_FLAGS[k]: "--" + k.replace("_", "-") for k in _FLAGS}
    try:
        return load_settings(settings_file, overrides, flags=names)
    except SettingsError as exc:
        lines = "\n  ".join(exc.problems)
        raise click.UsageError(f"the settings are not valid:\n  {lines}") from None


def service_options(f: Any) -> Any:
    options = [
        click.option(
            "--settings",
            "settings_file",
            type=click.Path(path_type=Path, dir_okay=False, exists=True),
            help="Settings file (TOML); default: the built-in defaults.",
        ),
        click.option("--serial", help="The board's serial port (a stable /dev/serial/by-id path)."),
        click.option("--mqtt-host", help="MQTT broker host."),
        click.option("--mqtt-port", type=click.IntRange(1, 65535), help="MQTT broker port."),
        click.option("--table", help="Table id: the topic prefix domino/<id>."),
        click.option("--rules", help="Ruleset name or TOML file."),
        click.option("--seats", type=click.IntRange(2, 10), help="Number of seats."),
        click.option(
            "--state-dir",
            type=click.Path(path_type=Path, file_okay=False),
            help="Where the game's journal lives.",
        ),
    ]
    for option in reversed(options):
        f = option(f)
    return f


@click.command()
@service_options
def run(settings_file: Path | None, **flags: Any) -> None:
    """Run the table service until stopped (SIGTERM or Ctrl-C)."""
    settings = settings_from_flags(settings_file, flags)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    service = TableService(settings)
    service.start()
    try:
        while not stop.wait(1.0):
            pass
    finally:
        service.stop()
