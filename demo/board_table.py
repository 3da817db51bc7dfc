"""`domino-table demo` (the default, `--source board`): simulated players lay their tiles
on an emulated instrumented board and say over MQTT what it cannot see; the table
service referees them, the display shows the game."""

from __future__ import annotations

import logging
from contextlib import ExitStack

from demo.options import DemoOptions
from demo.players import SimulatedPlayers
from demo.running import TABLE, open_table, stop_on_signals, workdir
from firmware_bridge.emulator import BoardEmulator

__all__ = ["play"]

log = logging.getLogger(__name__)


def play(options: DemoOptions) -> None:
    """Until Ctrl-C, or `--games` games."""
    with workdir(options.state_dir) as folder, ExitStack() as stack:
        board = stack.enter_context(BoardEmulator(link=folder / "board"))
        table = open_table(options, stack, folder, {"serial": str(folder / "board")})
        stop = stop_on_signals()
        players = stack.enter_context(
            SimulatedPlayers(
                board, table.mqtt_host, table.mqtt_port, table=TABLE, rules=options.rules_name,
                seats=options.players, seed=options.seed, pace=options.pace,
                target=options.target, surface=options.surface,
            )
        )  # fmt: skip
        players.run(stop, options.games)
        log.info("demo: %d games played; stopping (table %s)", options.games or 0, TABLE)
