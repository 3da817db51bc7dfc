"""`domino-table demo`'s options: the click flags (`demo_options`), read back as one frozen
`DemoOptions`, and what some of them set in the table's settings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import click

from service.flags import parse_surface

__all__ = ["DEMO_SETS", "PREVIEWED", "DemoOptions", "demo_options"]

F = TypeVar("F", bound=Callable[..., Any])

# The sets `tablesim.render.TileStyle` names (a test in tests/tablesim keeps the two
# the same); the renderer is imported only when the demo runs (it loads OpenCV).
DEMO_SETS = (
    "ivory", "black", "wood", "coloured", "ivory-nine", "ivory-twelve",
    "pink-yellow", "red-white", "green-white", "blue-white", "yellow-black",
    "black-wood", "black-ringed",
)  # fmt: skip

PREVIEWED = ("awtrix_demo", "wled/demo")
"""The clock and the strip `demo --outputs-preview` drives on its broker without devices."""


@dataclass(frozen=True)
class DemoOptions:
    """What `domino-table demo` was asked for (its flags, by their parameter names)."""

    rules_name: str = "walnut"
    players: int = 4
    seed: int | None = None
    pace: float = 1.0
    games: int | None = None
    target: int | None = None
    http_host: str = "127.0.0.1"
    http_port: int = 8080
    no_pin: bool = False
    mqtt_host: str | None = None
    mqtt_port: int = 1883
    source: str = "board"
    state_dir: Path | None = None
    tournament_tables: int | None = None
    event_format: str = "individual"
    rounds: int = 3
    time_limit: float | None = None
    keep_open: bool = False
    set_name: str = "auto"
    surface: tuple[int, int] = (900, 600)
    awtrix: str | None = None
    wled: str | None = None
    voice: bool = False
    outputs_preview: bool = False

    @property
    def lights(self) -> tuple[str | None, str | None]:
        """The clock's prefix and the strip's topic the table drives (with
        `--outputs-preview` and neither given: the previewed pair)."""
        if self.awtrix or self.wled or not self.outputs_preview:
            return self.awtrix, self.wled
        return PREVIEWED

    def outputs(self) -> dict[str, object]:
        """The settings of the demo's outputs (dotted keys): a clock, a strip of 30 LEDs a
        seat, a voice."""
        awtrix, wled = self.lights
        out: dict[str, object] = {}
        if awtrix is not None:
            out["outputs.awtrix.prefix"] = awtrix
        if wled is not None:
            out["outputs.wled.topic"] = wled
            out["outputs.wled.seats"] = [[30 * s, 30 * s + 30] for s in range(self.players)]
        if self.voice:
            out["outputs.voice.volume"] = 100
        return out


OUTPUT_FLAGS = {
    "outputs.awtrix.prefix": "--awtrix",
    "outputs.wled.topic": "--wled",
    "outputs.wled.seats": "--wled",
    "outputs.voice.volume": "--voice",
    "table.target": "--target",
}
"""The flags the demo's own settings keys come from (for the settings' errors)."""


_OPTIONS = [
    click.option("--rules", "rules_name", default="walnut", show_default=True),
    click.option("--players", type=click.IntRange(2, 10), default=4, show_default=True),
    click.option("--seed", type=int, default=None, help="Same seed, same games."),
    click.option("--pace", type=float, default=1.0, show_default=True, help="Seconds per turn."),
    click.option("--games", type=click.IntRange(1, 1000), default=None, help="Stop after N games."),
    click.option(
        "--target",
        type=click.IntRange(1, 100000),
        default=None,
        help="Play to this score instead of the rules' target.",
    ),
    click.option("--http-host", default="127.0.0.1", show_default=True, help="Display address."),
    click.option(
        "--http-port",
        type=click.IntRange(0, 65535),
        default=8080,
        show_default=True,
        help="The display's port (0: one the system chooses; the demo prints it).",
    ),
    click.option(
        "--no-pin",
        is_flag=True,
        help="The display's buttons without a PIN  [default: a new PIN, shown at the start].",
    ),
    click.option("--mqtt-host", default=None, help="Use this broker instead of starting one."),
    click.option("--mqtt-port", type=click.IntRange(1, 65535), default=1883, show_default=True),
    click.option(
        "--source",
        type=click.Choice(["board", "camera"]),
        default="board",
        show_default=True,
        help="How the table sees the tiles: the board emulator, or rendered camera frames.",
    ),
    click.option(
        "--state-dir",
        type=click.Path(path_type=Path, file_okay=False),
        default=None,
        help="Keep the demo's files (journals, broker logs) here instead of a temporary folder.",
    ),
    click.option(
        "--tournament",
        "tournament_tables",
        type=click.IntRange(1, 20),
        default=None,
        metavar="N",
        help="Run a whole event instead: N simulated tables, each on its own broker bridged "
        "to a central one, a tournament desk and its pages (seats per table by --format).",
    ),
    click.option(
        "--format",
        "event_format",
        type=click.Choice(["individual", "pairs", "singles"]),
        default="individual",
        show_default=True,
        help="With --tournament: the event's format (singles: 2 seats a table, else 4).",
    ),
    click.option(
        "--rounds",
        type=click.IntRange(1, 50),
        default=3,
        show_default=True,
        help="With --tournament: rounds to play.",
    ),
    click.option(
        "--time-limit",
        type=click.FloatRange(0, 600, min_open=True),
        default=None,
        help="With --tournament: each round's clock, in minutes (default: none).",
    ),
    click.option(
        "--keep-open",
        is_flag=True,
        help="With --tournament: keep the pages up after the last round (until Ctrl-C).",
    ),
    click.option(
        "--set",
        "set_name",
        default="auto",
        show_default=True,
        help=(
            "The set the camera sees (--source camera): auto, or one of "
            + ", ".join(DEMO_SETS)
            + ". auto is ivory for double-six games, ivory-nine for double-nine and "
            "ivory-twelve (56 x 28 mm, a colour per number) for double-twelve ones (walnut "
            "with 5 or more players)."
        ),
    ),
    click.option(
        "--surface",
        "surface",
        callback=lambda ctx, param, value: parse_surface(ctx, param, value) or (900, 600),
        metavar="WxH",
        help="The play surface in mm (default 900x600).",
    ),
    click.option("--awtrix", metavar="PREFIX", help="Drive this AWTRIX 3 clock (its MQTT prefix)."),
    click.option("--wled", metavar="TOPIC", help="Drive this WLED strip (its MQTT device topic)."),
    click.option("--voice", is_flag=True, help="Speak the scores (espeak-ng)."),
    click.option(
        "--outputs-preview",
        is_flag=True,
        help="Show at /outputs what a clock and a strip would show (without --awtrix or "
        "--wled: a clock awtrix_demo and a strip wled/demo).",
    ),
]


def demo_options(command: F) -> F:
    """Add the demo's flags to a click command (read back as `DemoOptions(**flags)`)."""
    for option in reversed(_OPTIONS):
        command = option(command)
    return command
