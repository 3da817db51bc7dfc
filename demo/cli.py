"""`domino-table demo`: one of the demo's three runs, as its options say: a table on the
board emulator (`board_table`), a table read through a simulated camera
(`camera_table`), or a whole event at several tables (`whole_event`)."""

from __future__ import annotations

import importlib
from typing import Any

import click

from demo.options import DemoOptions, demo_options
from demo.running import quiet_logs

__all__ = ["demo"]


@click.command()
@demo_options
def demo(**flags: Any) -> None:
    """A simulated table playing live: board emulator, broker, service and display.

    Simulated players lay their tiles on an emulated instrumented board (or, with
    `--source camera`, their games are rendered as camera frames and read by the camera
    path); the table service referees and scores them and publishes over MQTT; the
    display shows the game in a browser. Stop with Ctrl-C.

    With `--tournament N`: a whole event of `--rounds` rounds on N such tables, each on
    its own Mosquitto bridged to a central one, seated by a tournament desk (with its
    director's page, big screen and phone page); the players confirm each result; the
    demo ends after the last round (`--keep-open`: the pages stay up).

    With `--awtrix PREFIX`, `--wled TOPIC` (on your broker: `--mqtt-host`) and `--voice`,
    the table drives a clock, a strip (30 LEDs a seat) and a voice (docs/design/outputs.md);
    `--outputs-preview` shows what they show at /outputs.
    """
    options = DemoOptions(**flags)
    quiet_logs()
    # Each run is imported when it runs: the renderer loads OpenCV, the desk aiohttp.
    if options.tournament_tables is not None:
        run = "demo.whole_event"
    else:
        run = "demo.camera_table" if options.source == "camera" else "demo.board_table"
    importlib.import_module(run).play(options)
