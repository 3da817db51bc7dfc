"""`domino-table board-emulator`: an emulated board on a pseudo-terminal."""

from __future__ import annotations

import logging
import signal
import threading
from pathlib import Path
from types import FrameType

import click

from firmware_bridge.emulator import BoardEmulator, FaultRates
from firmware_bridge.errors import FrameError, ScriptError
from firmware_bridge.messages import Hello, TileAt
from firmware_bridge.script import Fault, Step, load_script

log = logging.getLogger(__name__)

_rate = click.FloatRange(0.0, 1.0)


def _tiles(values: tuple[str, ...]) -> list[TileAt]:
    tiles = []
    for value in values:
        try:
            tiles.append(TileAt.from_fields(value.split(",")))
        except (FrameError, ValueError) as exc:
            raise click.BadParameter(f"{value!r}: write a tile as a,b,xa,ya,xb,yb ({exc})") from exc
    return tiles


@click.command("board-emulator")
@click.argument(
    "script", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option(
    "--link",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Keep a symlink here pointing at the pty, re-pointed at each replug (like udev).",
)
@click.option(
    "--speed",
    type=click.FloatRange(0.01, 1000),
    default=1.0,
    show_default=True,
    help="Pace: every wait and the debounce are divided by this.",
)
@click.option(
    "--hb-interval",
    type=click.FloatRange(0.05, 60),
    default=1.0,
    show_default=True,
    help="Seconds between heartbeats.",
)
@click.option(
    "--debounce",
    type=click.FloatRange(0, 5),
    default=0.15,
    show_default=True,
    help="Seconds a tile must lie still before it is reported.",
)
@click.option("--board-id", default="EMU1", show_default=True)
@click.option("--firmware", default="emulator-1.0", show_default=True)
@click.option("--proto", default="1", show_default=True, help="Protocol version in HELLO.")
@click.option("--width", type=click.IntRange(1, 10_000), default=900, show_default=True)
@click.option("--height", type=click.IntRange(1, 10_000), default=600, show_default=True)
@click.option("--max-pip", type=click.IntRange(0, 18), default=6, show_default=True)
@click.option(
    "--tile",
    "tiles",
    multiple=True,
    metavar="A,B,XA,YA,XB,YB",
    help="A tile already lying on the board at power-up (repeatable).",
)
@click.option("--bad-crc-rate", type=_rate, default=0.0, help="Chance a frame has a bad CRC.")
@click.option("--drop-rate", type=_rate, default=0.0, help="Chance a frame is never sent.")
@click.option("--dup-rate", type=_rate, default=0.0, help="Chance a frame is sent twice.")
@click.option(
    "--garbage-rate", type=_rate, default=0.0, help="Chance of garbage bytes before a frame."
)
@click.option("--seed", type=int, default=None, help="Seed of the random faults.")
@click.option("--exit-when-done", is_flag=True, help="Stop once the script has played out.")
def board_emulator(
    script: Path | None,
    link: Path | None,
    speed: float,
    hb_interval: float,
    debounce: float,
    board_id: str,
    firmware: str,
    proto: str,
    width: int,
    height: int,
    max_pip: int,
    tiles: tuple[str, ...],
    bad_crc_rate: float,
    drop_rate: float,
    dup_rate: float,
    garbage_rate: float,
    seed: int | None,
    exit_when_done: bool,
) -> None:
    """Play an instrumented board on a pseudo-terminal and print its device path.

    SCRIPT is a JSON-lines file of steps (docs/design/board.md). While it runs, SIGUSR1
    restarts the board and SIGUSR2 unplugs it for half a second and plugs it back in.
    """
    try:
        steps: list[Step] = load_script(script) if script is not None else []
        identity = Hello(proto, firmware, board_id, width, height, max_pip)
        Hello.from_fields(identity.fields())
    except (ScriptError, FrameError) as exc:
        raise click.ClickException(str(exc)) from exc
    emulator = BoardEmulator(
        steps,
        identity=identity,
        link=link,
        hb_interval=hb_interval,
        debounce=debounce,
        speed=speed,
        rates=FaultRates(bad_crc_rate, drop_rate, dup_rate, garbage_rate),
        seed=seed,
        tiles=_tiles(tiles),
    )
    done = threading.Event()

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        if signum == signal.SIGUSR1:
            emulator.inject(Fault.RESET)
        elif signum == signal.SIGUSR2:
            emulator.inject(Fault.REPLUG, seconds=0.5)
        else:
            done.set()

    for signum in (signal.SIGUSR1, signal.SIGUSR2, signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, on_signal)
    try:
        emulator.start()
    except OSError as exc:
        raise click.ClickException(f"cannot set up the pseudo-terminal or --link: {exc}") from exc
    with emulator:
        click.echo(emulator.path + (f" (linked from {link})" if link else ""))
        while not done.wait(0.1):
            if exit_when_done and emulator.idle():
                break
