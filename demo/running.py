"""What every run of `domino-table demo` shares: its folder, its logs kept to warnings,
Ctrl-C, and one table opened whole (`open_table`: a private broker unless one is given,
the display listening first, the table service, the printed events)."""

from __future__ import annotations

import asyncio
import logging
import signal
import tempfile
import threading
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from demo.broker import LocalBroker
from demo.options import OUTPUT_FLAGS, DemoOptions
from demo.printer import EventPrinter
from service.app import TableService
from service.flags import settings_from_flags

if TYPE_CHECKING:
    from display.settings import DisplayServerSettings
    from service.camera.frame_sources import MakeFrames

__all__ = ["OpenTable", "open_table", "quiet_logs", "start_display", "stop_on_signals", "workdir"]

TABLE = "demo"


@contextmanager
def workdir(state_dir: Path | None) -> Iterator[Path]:
    """The demo's folder: `--state-dir` (kept), else a temporary one (removed after)."""
    if state_dir is not None:
        state_dir.mkdir(parents=True, exist_ok=True)
        yield state_dir
        return
    with tempfile.TemporaryDirectory(prefix="domino-demo-") as tmp:
        yield Path(tmp)


def quiet_logs() -> None:
    """The printed lines are the demo's view: its logs say only warnings (unless asked)."""
    root = logging.getLogger()
    if root.level == logging.INFO:
        root.setLevel(logging.WARNING)


def stop_on_signals() -> threading.Event:
    """An event set by SIGTERM or Ctrl-C."""
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    return stop


def start_display(display: DisplayServerSettings, timeout: float = 60.0) -> int:
    """The display served from its own thread; back once it listens, with the port it
    listens on, so the address the demo prints works (under load it took longer than the
    first plays: a page asked for then was refused)."""
    from display.server import serve  # noqa: PLC0415 - aiohttp only where a display runs

    serving = threading.Event()
    failed: list[BaseException] = []
    ports: list[int] = []

    async def main() -> None:
        ready = asyncio.Event()
        server = asyncio.create_task(serve(display, ready=ready, listening=ports.append))
        listening = asyncio.create_task(ready.wait())
        await asyncio.wait({server, listening}, return_when=asyncio.FIRST_COMPLETED)
        if server.done() and (problem := server.exception()) is not None:
            failed.append(problem)
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


@dataclass(frozen=True)
class OpenTable:
    """One demo table, open: its service and where its broker and display are."""

    service: TableService
    mqtt_host: str
    mqtt_port: int
    http_port: int  # the display's (the one it listens on)


def open_table(
    options: DemoOptions,
    stack: ExitStack,
    folder: Path,
    source: Mapping[str, Any],
    *,
    more: Mapping[str, Any] | None = None,
    names: Mapping[str, str] | None = None,
    camera_frames: MakeFrames | None = None,
) -> OpenTable:
    """The broker (the demo's own unless `--mqtt-host`), the display, the table service
    on `source`'s flags (`serial`, or `camera` and `fps`) with `more` settings, and the
    printed events; every part closed by `stack`."""
    from display.pin import new_pin  # noqa: PLC0415
    from display.settings import DisplayServerSettings  # noqa: PLC0415

    mqtt_host, mqtt_port = options.mqtt_host, options.mqtt_port
    if mqtt_host is None:
        broker = LocalBroker(folder / "mosquitto", avoid={options.http_port})
        stack.enter_context(broker)
        mqtt_host, mqtt_port = broker.host, broker.port
    # The display listens first, before the demo's MQTT clients take their own
    # (outgoing) ports: one of them could be --http-port.
    pin = None if options.no_pin else new_pin()
    awtrix, wled = options.lights
    display = DisplayServerSettings(
        table=TABLE, mqtt_host=mqtt_host, mqtt_port=mqtt_port, http_host=options.http_host,
        http_port=options.http_port, command_pin=pin, awtrix=awtrix, wled=wled,
    )  # fmt: skip
    http_port = start_display(display)
    target = {"table.target": options.target} if options.target is not None else {}
    settings = settings_from_flags(
        None,
        {**source, "mqtt_host": mqtt_host, "mqtt_port": mqtt_port, "table": TABLE,
         "rules": options.rules_name, "seats": options.players, "state_dir": folder / "state",
         "surface": options.surface},
        more={**target, **options.outputs(), **(more or {})},
        names={**OUTPUT_FLAGS, **(names or {})},
    )  # fmt: skip
    service = stack.enter_context(TableService(settings, camera_frames=camera_frames))
    # On the way out the demo's own broker stops before the display's thread does:
    # that is no lost broker to warn about.
    stack.callback(logging.getLogger("display.mqtt_link").setLevel, logging.ERROR)
    click.echo(addresses(display, http_port, pin, options.outputs_preview))
    printer = EventPrinter(mqtt_host, mqtt_port, TABLE, click.echo)
    stack.callback(printer.close)
    return OpenTable(service, mqtt_host, mqtt_port, http_port)


def addresses(display: DisplayServerSettings, port: int, pin: str | None, preview: bool) -> str:
    """Where to follow the demo: the display, its PIN, the broker, the lights."""
    lines = [
        f"Display: open http://{display.http_host}:{port}/ to follow the game.",
        f"Display: its buttons ask for the command PIN {pin}."
        if pin is not None
        else "Display: its buttons are open to anyone who can reach the page (--no-pin).",
        f"MQTT: mosquitto_sub -h {display.mqtt_host} -p {display.mqtt_port} -t 'domino/demo/#' -v",
    ]
    if preview:
        lines.append(
            f"Outputs: open http://{display.http_host}:{port}/outputs "
            "to see what the clock and the strip show."
        )
    return "\n".join(lines)
