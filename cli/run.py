"""`domino-table demo` and `domino-table run`: the table service."""

from __future__ import annotations

import itertools
import json
import logging
import random
import signal
import tempfile
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import paho.mqtt.client as mqtt

from config.errors import SettingsError
from config.loader import load_settings
from config.settings import Settings
from mqttweb.client import new_client
from service.app import TableService
from service.core.table import SIDES
from service.mqtt.client import MqttLinkError
from service.store.journal import JournalError

# The sets `tablesim.render.TileStyle` names (a test in tests/tablesim keeps the two
# the same); the renderer is imported only when the demo runs (it loads OpenCV).
DEMO_SETS = (
    "ivory", "black", "wood", "coloured", "ivory-nine", "ivory-twelve",
    "pink-yellow", "red-white", "green-white", "blue-white", "yellow-black",
)  # fmt: skip


@click.command()
@click.option("--rules", "rules_name", default="walnut", show_default=True)
@click.option("--players", type=click.IntRange(2, 10), default=4, show_default=True)
@click.option("--seed", type=int, default=None, help="Same seed, same games.")
@click.option("--pace", type=float, default=1.0, show_default=True, help="Seconds per turn.")
@click.option("--games", type=click.IntRange(1, 1000), default=None, help="Stop after N games.")
@click.option(
    "--target",
    type=click.IntRange(1, 100000),
    default=None,
    help="Play to this score instead of the rules' target.",
)
@click.option("--http-host", default="127.0.0.1", show_default=True, help="Display address.")
@click.option("--http-port", type=click.IntRange(0, 65535), default=8080, show_default=True)
@click.option(
    "--no-pin",
    is_flag=True,
    help="The display's buttons without a PIN  [default: a new PIN, shown at the start].",
)
@click.option("--mqtt-host", default=None, help="Use this broker instead of starting one.")
@click.option("--mqtt-port", type=click.IntRange(1, 65535), default=1883, show_default=True)
@click.option(
    "--source",
    type=click.Choice(["board", "camera"]),
    default="board",
    show_default=True,
    help="How the table sees the tiles: the board emulator, or rendered camera frames.",
)
@click.option(
    "--state-dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Keep the demo's files (journals, broker logs) here instead of a temporary folder.",
)
@click.option(
    "--tournament",
    "tournament_tables",
    type=click.IntRange(1, 20),
    default=None,
    metavar="N",
    help="Run a whole event instead: N simulated tables, each on its own broker bridged "
    "to a central one, a tournament desk and its pages (seats per table by --format).",
)
@click.option(
    "--format",
    "event_format",
    type=click.Choice(["individual", "pairs", "singles"]),
    default="individual",
    show_default=True,
    help="With --tournament: the event's format (singles: 2 seats a table, else 4).",
)
@click.option(
    "--rounds", type=click.IntRange(1, 50), default=3, show_default=True,
    help="With --tournament: rounds to play.",
)  # fmt: skip
@click.option(
    "--time-limit",
    type=click.FloatRange(0, 600, min_open=True),
    default=None,
    help="With --tournament: each round's clock, in minutes (default: none).",
)
@click.option(
    "--keep-open",
    is_flag=True,
    help="With --tournament: keep the pages up after the last round (until Ctrl-C).",
)
@click.option(
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
)
@click.option(
    "--surface",
    "surface",
    callback=lambda ctx, param, value: _surface(ctx, param, value) or (900, 600),
    metavar="WxH",
    help="The play surface in mm (default 900x600).",
)
@click.option("--awtrix", metavar="PREFIX", help="Drive this AWTRIX 3 clock (its MQTT prefix).")
@click.option("--wled", metavar="TOPIC", help="Drive this WLED strip (its MQTT device topic).")
@click.option("--voice", is_flag=True, help="Speak the scores (espeak-ng).")
@click.option(
    "--outputs-preview",
    is_flag=True,
    help="Show at /outputs what a clock and a strip would show (without --awtrix or "
    "--wled: a clock awtrix_demo and a strip wled/demo).",
)
def demo(
    rules_name: str,
    players: int,
    seed: int | None,
    pace: float,
    games: int | None,
    target: int | None,
    http_host: str,
    http_port: int,
    no_pin: bool,
    mqtt_host: str | None,
    mqtt_port: int,
    source: str,
    state_dir: Path | None,
    tournament_tables: int | None,
    event_format: str,
    rounds: int,
    time_limit: float | None,
    keep_open: bool,
    set_name: str,
    surface: tuple[int, int],
    awtrix: str | None,
    wled: str | None,
    voice: bool,
    outputs_preview: bool,
) -> None:
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
    the table drives a clock, a strip (30 LEDs a seat) and a voice (docs/outputs.md);
    `--outputs-preview` shows what they show at /outputs.
    """
    if tournament_tables is not None:
        from cli.hall import HallOptions  # noqa: PLC0415 - the desk only for this demo

        options = HallOptions(
            tables=tournament_tables, format=event_format, rules=rules_name, target=target,
            rounds=rounds, time_limit_min=time_limit, pace=pace,
            seed=seed if seed is not None else random.randrange(2**31),
            http_host=http_host, http_port=http_port,
        )  # fmt: skip
        _tournament_demo(options, state_dir, keep_open)
        return
    # The demo's parts are imported here, not at the top: `run` shares this module, and
    # the display's web server alone costs a Pi a good part of a second at every start.
    from demo.broker import LocalBroker  # noqa: PLC0415
    from demo.players import SimulatedPlayers  # noqa: PLC0415
    from display.pin import new_pin  # noqa: PLC0415
    from display.settings import DisplaySettings  # noqa: PLC0415
    from firmware_bridge.emulator import BoardEmulator  # noqa: PLC0415

    root = logging.getLogger()
    if root.level == logging.INFO:  # the printed events are the demo's view; logs: warnings
        root.setLevel(logging.WARNING)
    with _workdir(state_dir) as workdir, ExitStack() as stack:
        if mqtt_host is None:
            broker = stack.enter_context(LocalBroker(workdir / "mosquitto", avoid={http_port}))
            mqtt_host, mqtt_port = broker.host, broker.port
        awtrix, wled = (awtrix, wled) if awtrix or wled or not outputs_preview else PREVIEWED
        # The display listens first, before the demo's MQTT clients take their own
        # (outgoing) ports: one of them could be --http-port.
        pin = None if no_pin else new_pin()
        display = DisplaySettings(
            table="demo", mqtt_host=mqtt_host, mqtt_port=mqtt_port,
            http_host=http_host, http_port=http_port, command_pin=pin, awtrix=awtrix, wled=wled,
        )  # fmt: skip
        http_port = _start_display(display)  # the port it listens on (0: the system's choice)
        look = demo_look(rules_name, players, set_name)
        flags: dict[str, Any] = {"camera": "sim", "fps": 10, "target": target} | look.flags
        flags["zones"] = seat_zones(players, surface)  # counted by the camera
        board = None
        if source == "board":
            board = stack.enter_context(BoardEmulator(link=workdir / "board"))
            flags = {"serial": str(workdir / "board"), "target": target}
        flags["surface"] = surface
        settings = settings_from_flags(
            None,
            flags
            | {
                "mqtt_host": mqtt_host,
                "mqtt_port": mqtt_port,
                "table": "demo",
                "rules": rules_name,
                "seats": players,
                "state_dir": workdir / "state",
                "outputs": demo_outputs(awtrix, wled, voice, players),
            },
        )
        camera_frames = None
        if board is None:  # rendered whole games: the table's rules, seats and target
            from demo.sim_camera import SimOptions, frames  # noqa: PLC0415 - OpenCV

            first = seed if seed is not None else random.randrange(2**31)
            camera_frames = frames(
                SimOptions(
                    first,
                    pace,
                    whole_game=True,
                    games=games or 1,
                    style=look.style(),
                    resolution=look.resolution,
                )
            )
        service = stack.enter_context(TableService(settings, camera_frames=camera_frames))
        # On the way out the demo's own broker stops before the display's thread does:
        # that is no lost broker to warn about.
        stack.callback(logging.getLogger("display.mqtt_link").setLevel, logging.ERROR)
        click.echo(_addresses(display, http_port, pin, outputs_preview))
        printer = _EventPrinter(mqtt_host, mqtt_port, "demo")
        stack.callback(printer.close)
        stop = threading.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stop.set())
        if board is None:  # the camera's simulated players play by themselves
            _watch_camera(service, stop, games, pace)
            return
        table = stack.enter_context(
            SimulatedPlayers(board, mqtt_host, mqtt_port, table="demo", rules=rules_name,
                             seats=players, seed=seed, pace=pace, target=target,
                             surface=surface)
        )  # fmt: skip
        table.run(stop, games)
        log.info(
            "demo: %d games played; stopping (table %s)", games or 0, service.settings.table.id
        )


def _start_display(display: Any, timeout: float = 60.0) -> int:
    """The display (`display.settings.DisplaySettings`) served from its own thread; back
    once it listens, with the port it listens on, so the address the demo prints works
    (under load it took longer than the first plays: a page asked for then was refused)."""
    import asyncio  # noqa: PLC0415

    from display.server import serve  # noqa: PLC0415

    serving = threading.Event()
    failed: list[BaseException] = []
    ports: list[int] = []

    async def main() -> None:
        ready = asyncio.Event()
        server = asyncio.create_task(serve(display, ready=ready, listening=ports.append))
        listening = asyncio.create_task(ready.wait())
        await asyncio.wait({server, listening}, return_when=asyncio.FIRST_COMPLETED)
        if server.done() and server.exception() is not None:
            failed.append(server.exception())  # type: ignore[arg-type]
        serving.set()
        await server

    def run() -> None:
        try:
            asyncio.run(main())
        except Exception:  # said by `failed` when it failed to start
            serving.set()

    threading.Thread(target=run, name="display", daemon=True).start()
    if not serving.wait(timeout):
        raise click.ClickException(f"the display did not start in {timeout:g} s")
    if failed or not ports:
        raise click.ClickException(f"the display could not start: {failed[0] if failed else '?'}")
    return ports[0]


@contextmanager
def _workdir(state_dir: Path | None) -> Iterator[Path]:
    """The demo's folder: `--state-dir` (kept), else a temporary one (removed after)."""
    if state_dir is not None:
        state_dir.mkdir(parents=True, exist_ok=True)
        yield state_dir
        return
    with tempfile.TemporaryDirectory(prefix="domino-demo-") as tmp:
        yield Path(tmp)


def _tournament_demo(options: Any, state_dir: Path | None, keep_open: bool) -> None:
    """`demo --tournament N`: see `cli.hall`."""
    from cli.hall import DemoHall  # noqa: PLC0415
    from cli.hall_watch import HallError  # noqa: PLC0415
    from tournament.errors import EventFileError  # noqa: PLC0415

    root = logging.getLogger()
    if root.level == logging.INFO:  # the printed lines are the demo's view; logs: warnings
        root.setLevel(logging.WARNING)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    with _workdir(state_dir) as workdir, ExitStack() as stack:
        hall = DemoHall(workdir, options, click.echo)
        try:
            hall.open(stack)
            for line in hall.addresses():
                click.echo(line)
            hall.run(stop)
            if keep_open and not stop.is_set():
                click.echo("The pages stay up: stop with Ctrl-C.")
                stop.wait()
        except EventFileError as exc:
            raise click.UsageError(str(exc)) from None
        except HallError as exc:
            raise click.ClickException(str(exc)) from None
        finally:
            stop.set()  # the players stop before their tables and brokers do


def _watch_camera(
    service: TableService, stop: threading.Event, games: int | None, pace: float
) -> None:
    """The camera demo's players play by themselves: wait until they have played their
    games (then stop if `--games` was given, else keep the display up) or Ctrl-C."""
    click.echo("Camera: rendered games are read through the camera path.")
    camera = service.camera
    while not stop.wait(0.5):
        if camera is not None and camera.join(0):  # played out, the table cleared
            if games is not None:
                stop.wait(pace * 4)  # the result on the display a moment
                return
            click.echo("Camera: the game is over; the display shows it (Ctrl-C stops).")
            stop.wait()


log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DemoLook:
    """The camera demo's set: its name, the settings it implies (the tile's size, the
    detector's tone) and the simulated camera's resolution (a double-twelve set's small
    pips need the Pi HQ camera's 2028 x 1520 mode; others 1280 x 960)."""

    name: str
    flags: dict[str, Any]
    resolution: tuple[int, int] = (1280, 960)

    def style(self) -> Any:
        """The frames' look (a `tablesim.render.RenderStyle`)."""
        from tablesim.render import RenderStyle, TileStyle  # noqa: PLC0415 - OpenCV

        return RenderStyle(tiles=TileStyle(self.name))


def demo_look(rules_name: str, players: int, set_name: str) -> DemoLook:
    """The set the camera demo renders: `set_name`, or for `auto` the usual set of the
    game's size (ivory double-six, ivory double-nine, big ivory double-twelve with a
    colour per number), and the tile size and detector tone that go with it."""
    from engine import rulesets  # noqa: PLC0415
    from tablesim.render.sets import SETS, TileStyle  # noqa: PLC0415 - OpenCV

    if set_name == "auto":
        try:
            highest = int(rulesets.load(rules_name).domino_set(players))
        except (OSError, ValueError) as exc:
            raise click.UsageError(f"--rules {rules_name}: {exc}") from None
        set_name = {9: "ivory-nine", 12: "ivory-twelve"}.get(highest, "ivory")
    if set_name not in DEMO_SETS:
        raise click.BadParameter(
            f"{set_name!r}: give auto or one of {', '.join(DEMO_SETS)}", param_hint="--set"
        )
    look = SETS[TileStyle(set_name)]
    length, width = look.size_mm
    b, g, r = look.face
    grey = 0.114 * b + 0.587 * g + 0.299 * r
    tone = {"black": "dark", "wood": "grey"}.get(set_name, "light" if grey > 170 else "auto")
    resolution = (2028, 1520) if look.highest > 9 else (1280, 960)
    flags = {"tile_mm": (round(length), round(width)), "tone": tone}
    return DemoLook(set_name, flags, resolution)


PREVIEWED = ("awtrix_demo", "wled/demo")
"""The clock and the strip `demo --outputs-preview` drives on its broker without devices."""


def _addresses(display: Any, port: int, pin: str | None, outputs_preview: bool) -> str:
    """Where to follow the demo: the display, its PIN, the broker, the lights."""
    lines = [
        f"Display: open http://{display.http_host}:{port}/ to follow the game.",
        f"Display: its buttons ask for the command PIN {pin}."
        if pin is not None
        else "Display: its buttons are open to anyone who can reach the page (--no-pin).",
        f"MQTT: mosquitto_sub -h {display.mqtt_host} -p {display.mqtt_port} -t 'domino/demo/#' -v",
    ]
    if outputs_preview:
        lines.append(
            f"Outputs: open http://{display.http_host}:{port}/outputs "
            "to see what the clock and the strip show."
        )
    return "\n".join(lines)


def demo_outputs(
    awtrix: str | None, wled: str | None, voice: bool, seats: int
) -> dict[str, object]:
    """The settings of the demo's outputs (dotted keys): a clock, a strip of 30 LEDs a seat."""
    out: dict[str, object] = {}
    if awtrix is not None:
        out["outputs.awtrix.prefix"] = awtrix
    if wled is not None:
        out["outputs.wled.topic"] = wled
        out["outputs.wled.seats"] = [[30 * seat, 30 * seat + 30] for seat in range(seats)]
    if voice:
        out["outputs.voice.volume"] = 100
    return out


# flag name -> dotted settings key
_FLAGS = {
    "serial": "serial.port",
    "mqtt_host": "mqtt.host",
    "mqtt_port": "mqtt.port",
    "table": "table.id",
    "rules": "table.rules",
    "seats": "table.seats",
    "state_dir": "state.dir",
    "target": "table.target",
    "tone": "camera.tone",
}


def settings_from_flags(settings_file: Path | None, flags: dict[str, Any]) -> Settings:
    """The settings file (or the defaults) with the flags given on top; exits on errors."""
    overrides = {_FLAGS[k]: v for k, v in flags.items() if v is not None and k in _FLAGS}
    if flags.get("serial") is not None:
        overrides["serial.enabled"] = True
    camera = flags.get("camera")
    if camera is not None:
        overrides["camera.enabled"] = True
        overrides["camera.source"] = int(camera) if str(camera).isdigit() else camera
    if flags.get("fps") is not None:
        overrides["camera.fps"] = flags["fps"]
    if flags.get("zones"):
        overrides["zones"] = {str(seat): list(rect) for seat, rect in flags["zones"].items()}
    if flags.get("surface") is not None:
        overrides["table.surface.width_mm"], overrides["table.surface.height_mm"] = flags["surface"]
    if flags.get("tile_mm") is not None:
        overrides["table.tile_mm.length"], overrides["table.tile_mm.width"] = flags["tile_mm"]
    overrides |= flags.get("outputs") or {}
    names = {_FLAGS[k]: "--" + k.replace("_", "-") for k in _FLAGS} | {
        "camera.source": "--camera",
        "camera.fps": "--fps",
        "table.surface.width_mm": "--surface",
        "table.surface.height_mm": "--surface",
        "table.tile_mm.length": "--set",
        "table.tile_mm.width": "--set",
        "camera.tone": "--set",
        "outputs.awtrix.prefix": "--awtrix",
        "outputs.wled.topic": "--wled",
        "outputs.wled.seats": "--wled",
        "outputs.voice.volume": "--voice",
    }
    try:
        return load_settings(settings_file, overrides, flags=names)
    except SettingsError as exc:
        lines = "\n  ".join(exc.problems)
        raise click.UsageError(f"the settings are not valid:\n  {lines}") from None


def seat_zones(seats: int, surface: tuple[int, int], depth: int = 90) -> dict[int, list[int]]:
    """Seat zones along the table's sides, each seat's in front of it, `depth` mm deep
    and clear of the corner markers. Up to four seats, one side each (the display's
    sides: seat 0 at the bottom, then left, top, right); more seats share the sides
    (bottom, top, left, right in turn take one more), each side's strip split evenly,
    the seats going round the table the same way (clockwise on screen from the bottom)."""
    width, height = surface
    m = depth  # the corners hold the calibration markers
    strips = {
        "bottom": (m, height - depth, width - m, height),
        "top": (m, 0, width - m, depth),
        "left": (0, m, depth, height - m),
        "right": (width - depth, m, width, height - m),
    }
    if seats <= 4:
        return {seat: list(strips[side]) for seat, side in enumerate(SIDES.get(seats, ()))}
    shares = dict.fromkeys(strips, 0)
    for k in range(seats):
        shares[("bottom", "top", "left", "right")[k % 4]] += 1
    zones: list[list[int]] = []
    for side in ("bottom", "left", "top", "right"):  # clockwise on screen from the bottom
        zones.extend(_split(strips[side], shares[side], side))
    return dict(enumerate(zones))


def _split(strip: tuple[int, int, int, int], parts: int, side: str) -> list[list[int]]:
    """`strip` cut into `parts` zones along its length, in the order seats sit along
    that side going clockwise on screen (right to left at the bottom, upwards on the
    left, left to right at the top, downwards on the right)."""
    x0, y0, x1, y1 = strip
    along_x = side in ("bottom", "top")
    lo, hi = (x0, x1) if along_x else (y0, y1)
    cuts = [lo + (hi - lo) * k // parts for k in range(parts + 1)]
    pieces = [[a, y0, b, y1] if along_x else [x0, a, x1, b] for a, b in itertools.pairwise(cuts)]
    return pieces[::-1] if side in ("bottom", "left") else pieces


def _surface(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    if value is None:
        return None
    width, sep, height = value.lower().partition("x")
    if not sep or not width.isdigit() or not height.isdigit():
        raise click.BadParameter(f"{value!r}: give the surface as WIDTHxHEIGHT in mm, e.g. 900x600")
    return int(width), int(height)


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
        click.option(
            "--camera",
            metavar="SOURCE",
            help=(
                "Read the table with a camera: a device index or path (/dev/video0), "
                "picamera (the Pi camera module), a folder of frames, or sim."
            ),
        ),
        click.option("--fps", type=click.IntRange(1, 60), help="Camera frames per second."),
        click.option(
            "--surface",
            callback=_surface,
            metavar="WxH",
            help="The play surface in mm, e.g. 900x600.",
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
    try:
        service = TableService(settings)
    except (JournalError, MqttLinkError) as exc:  # one sentence: what happened, what to do
        raise click.ClickException(str(exc)) from None
    try:
        service.start()
        while not stop.wait(1.0):
            pass
    except JournalError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        service.stop()


class _EventPrinter:
    """Prints the table's events as they are published (the demo's terminal view)."""

    def __init__(self, host: str, port: int, table: str) -> None:
        self.prefix = f"domino/{table}"
        self.client = new_client()
        self.client.on_connect = lambda c, *a: c.subscribe(f"{self.prefix}/event/#", qos=1)
        self.client.on_message = self._on_message
        self.client.connect_async(host, port)
        self.client.loop_start()

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        event = json.loads(msg.payload)
        kind = msg.topic.rsplit("/", 1)[-1]
        click.echo(_describe(kind, event))

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def _describe(kind: str, e: dict[str, Any]) -> str:
    seat = e.get("seat")
    who = f"seat {seat}" if seat is not None else "?"
    if kind == "play":
        points = f"  +{e['points']} (score {e['score']})" if e["points"] else ""
        return f"hand {e['hand']}: {who} plays {e['tile']}, ends {e['ends_total']}{points}"
    if kind == "hand":
        winner = e["winner"] if e["winner"] is not None else "nobody"
        return f"hand {e['hand']} {e['result']}: {winner} +{e['points']}; scores {e['scores']}"
    if kind == "game":
        return f"game {e['event']}: scores {e['scores']}"
    if kind == "alert":
        state = "resolved" if e["resolved"] else e["severity"]
        return f"alert {e['code']} ({state}): {e['message']}"
    return f"{kind}: {who}"
