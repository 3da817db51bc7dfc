"""`domino-table demo --tournament N`: a whole event on one machine, every part real.

- a central Mosquitto, and per table its own Mosquitto bridged to it with the
  `connection` section of `config/mosquitto/table-bridge.conf` (as on each table's Pi);
- per table a board emulator on a pseudo-terminal, the table service (`TableService`,
  as `domino-table run`) on it and its local broker, its display, and simulated players
  (`demo.seated_players.SeatedPlayers`) who play the games the desk seats, stop when
  the table ends one (the round's clock), clear the board and confirm the result;
- the desk (`domino-table tournament --event`) on the central broker, with an event
  file made for these tables, and its pages (director, big screen, phone);
- the director: this module starts each round once the last one's tables have reported
  and their players have confirmed, closes it, and prints the standings.

Everything lives in one folder (`state_dir`, else a temporary one): `event.toml`,
`director.password`, `central/`, `desk/` (the desk's journal), and per table `<id>/`
(its broker, board link and journal).
"""

from __future__ import annotations

import asyncio
import importlib.resources
import logging
import secrets
import threading
from collections.abc import Callable, Coroutine
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from demo.broker import LocalBroker
from demo.hall_watch import HallError, HallWatch, describe_standings
from mqttweb.client import new_client

log = logging.getLogger(__name__)

EVENT_NAME = "Demo Open"
NAMES = ("Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu",
         "Mo", "Ned", "Oli", "Pia", "Quin", "Rui", "Sol", "Tea")  # fmt: skip
ROUND_TIMEOUT_S = 3600.0
LISTEN_TIMEOUT_S = 60.0  # a hang guard for the pages' start on a loaded machine


@dataclass(frozen=True)
class HallOptions:
    """What `domino-table demo --tournament N` was asked for."""

    tables: int
    format: str = "individual"
    rules: str = "walnut"
    target: int | None = None
    rounds: int = 3
    time_limit_min: float | None = None
    pace: float = 1.0
    seed: int = 1
    http_host: str = "127.0.0.1"
    http_port: int = 8080  # the desk's pages; the displays on the next ports (0: the system's)


@dataclass
class _Table:
    id: str
    display_port: int
    players: Any = None  # SeatedPlayers, once started
    seated: int = 0  # rounds this table was seated in


@dataclass
class HallPorts:
    desk: int
    displays: list[int] = field(default_factory=list)


def seats_at_a_table(format_name: str) -> int:
    return 2 if format_name == "singles" else 4


def event_body(options: HallOptions) -> dict[str, Any]:
    """The event file's keys: every player seated every round (a full table each)."""
    count = seats_at_a_table(options.format) * options.tables
    players = [{"id": f"p{n + 1}", "name": _name(n)} for n in range(count)]
    body: dict[str, Any] = {
        "name": EVENT_NAME, "format": options.format, "rules": options.rules,
        "rounds": options.rounds, "tables": [f"t{n + 1}" for n in range(options.tables)],
        "seed": options.seed, "players": players,
    }  # fmt: skip
    if options.target is not None:
        body["target"] = options.target
    if options.time_limit_min is not None:
        body["time_limit_min"] = options.time_limit_min
    if options.format == "pairs":
        body["pairs"] = [{"id": f"A{n // 2 + 1}", "players": [f"p{n + 1}", f"p{n + 2}"]}
                         for n in range(0, count, 2)]  # fmt: skip
    return body


def _name(n: int) -> str:
    return NAMES[n % len(NAMES)] + ("" if n < len(NAMES) else f" {n // len(NAMES) + 1}")


def event_toml(body: dict[str, Any]) -> str:
    """TOML for `event_body`'s dict (strings, numbers, lists; tables of players and pairs)."""
    lines = [f"{k} = {_toml(v)}" for k, v in body.items() if k not in ("players", "pairs")]
    for table in ("players", "pairs"):
        for row in body.get(table, []):
            lines += ["", f"[[{table}]]", *(f"{k} = {_toml(v)}" for k, v in row.items())]
    return "\n".join(lines) + "\n"


def _toml(value: Any) -> str:
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)


def bridge_section(table: str, host: str, port: int) -> str:
    """The shipped table-bridge.conf's bridge, for `table`, to the central broker."""
    text = (importlib.resources.files("config.mosquitto") / "table-bridge.conf").read_text()
    section = text[text.index("\nconnection ") :]
    return section.replace("kitchen", table).replace("central.local:1883", f"{host}:{port}")


def wait_bridged(central: LocalBroker, table: str, timeout: float = 20.0) -> None:
    """Until Mosquitto says the table's bridge is connected (`$SYS/...bridge-<id>/state`)."""
    up = threading.Event()
    client = new_client()
    client.on_message = lambda c, u, msg: up.set() if msg.payload == b"1" else None
    client.connect(central.host, central.port)
    client.subscribe(f"$SYS/broker/connection/bridge-{table}/state", 1)
    client.loop_start()
    try:
        if not up.wait(timeout):
            raise HallError(f"the bridge of {table} did not connect in {timeout:.0f} s")
    finally:
        client.disconnect()
        client.loop_stop()


Listening = Callable[[int], None]


class LoopThread:
    """An asyncio server (the desk's, a display's) in its own thread until `stop()`;
    `main(listening)` tells `listening` the port it listens on, which `port()` returns."""

    def __init__(self, name: str, main: Callable[[Listening], Coroutine[Any, Any, None]]) -> None:
        self.main = main
        self.loop = asyncio.new_event_loop()
        self.task: asyncio.Task[None] | None = None
        self._port: int | None = None
        self._error: Exception | None = None
        self._told = threading.Event()  # the port is known, or the server ended
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.task = self.loop.create_task(self.main(self._listening))
        try:
            self.loop.run_until_complete(self.task)
        except asyncio.CancelledError:
            pass
        except Exception as exc:
            self._error = exc
            if self._port is not None or not isinstance(exc, OSError):  # else port() says it
                log.exception("demo: %s stopped", self.thread.name)
        finally:
            self._told.set()
            self.loop.close()

    def _listening(self, port: int) -> None:
        self._port = port
        self._told.set()

    def port(self) -> int:
        """The port it listens on (the system's choice for port 0), once it does."""
        if not self._told.wait(LISTEN_TIMEOUT_S):
            raise HallError(f"the {self.thread.name} did not listen in {LISTEN_TIMEOUT_S:.0f} s")
        if self._port is None:
            raise HallError(f"the {self.thread.name} did not start: {self._error}")
        return self._port

    def stop(self) -> None:
        if self.task is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.task.cancel)
        self.thread.join(10)


class DemoHall:
    """Open with `open()` inside an ExitStack (which closes everything), then `run(stop)`."""

    def __init__(self, workdir: Path, options: HallOptions, echo: Callable[[str], None]) -> None:
        self.workdir = workdir
        self.options = options
        self.echo = echo
        self.password = secrets.token_urlsafe(9)
        ports = _ports(options)
        self.desk_port = ports.desk
        self.tables = [_Table(f"t{n + 1}", port) for n, port in enumerate(ports.displays)]
        self.pages = {ports.desk, *ports.displays} - {0}  # the brokers never take these ports
        self.central: LocalBroker | None = None
        self.watch: HallWatch | None = None

    # --- starting ------------------------------------------------------------------------

    def open(self, stack: ExitStack) -> None:
        from tournament.event import parse  # noqa: PLC0415 - the desk only for this demo

        body = event_body(self.options)
        event_file = self.workdir / "event.toml"
        event_file.write_text(event_toml(body))
        parse(body, str(event_file))  # HallError-worthy problems surface as EventFileError
        (self.workdir / "director.password").write_text(self.password + "\n")
        self.central = stack.enter_context(LocalBroker(self.workdir / "central", avoid=self.pages))
        self.watch = HallWatch(self.central.host, self.central.port, self.echo)
        stack.callback(self.watch.close)
        self._start_desk(stack, event_file)
        for table in self.tables:
            self._start_table(stack, table)

    def _start_desk(self, stack: ExitStack, event_file: Path) -> None:
        from tournament.server import serve  # noqa: PLC0415
        from tournament.settings import DeskSettings  # noqa: PLC0415

        assert self.central is not None
        settings = DeskSettings(
            state_dir=self.workdir / "desk", mqtt_host=self.central.host,
            mqtt_port=self.central.port, http_host=self.options.http_host,
            http_port=self.desk_port, event_file=event_file, director_password=self.password,
            resend_s=1.0,
        )  # fmt: skip
        desk = LoopThread("desk", lambda listening: serve(settings, listening=listening))
        stack.callback(desk.stop)
        self.desk_port = desk.port()

    def _start_table(self, stack: ExitStack, table: _Table) -> None:
        from demo.seated_players import SeatedPlayers  # noqa: PLC0415
        from firmware_bridge.emulator import BoardEmulator  # noqa: PLC0415
        from service.app import TableService  # noqa: PLC0415
        from service.flags import settings_from_flags  # noqa: PLC0415

        assert self.central is not None
        home = self.workdir / table.id
        bridge = bridge_section(table.id, self.central.host, self.central.port)
        local = stack.enter_context(LocalBroker(home / "broker", extra=bridge, avoid=self.pages))
        wait_bridged(self.central, table.id)
        board = stack.enter_context(BoardEmulator(link=home / "board"))
        settings = settings_from_flags(None, {
            "serial": str(home / "board"), "mqtt_host": local.host, "mqtt_port": local.port,
            "table": table.id, "rules": self.options.rules,
            "seats": seats_at_a_table(self.options.format), "state_dir": home / "state",
        })  # fmt: skip
        stack.enter_context(TableService(settings))
        self._start_display(stack, table, local)
        table.players = stack.enter_context(
            SeatedPlayers(board, local.host, local.port, table=table.id, rules=self.options.rules,
                          seats=seats_at_a_table(self.options.format),
                          seed=self.options.seed * 100 + int(table.id[1:]), pace=self.options.pace)
        )  # fmt: skip

    def _start_display(self, stack: ExitStack, table: _Table, local: LocalBroker) -> None:
        from display.server import serve  # noqa: PLC0415
        from display.settings import DisplayServerSettings  # noqa: PLC0415

        settings = DisplayServerSettings(
            table=table.id, mqtt_host=local.host, mqtt_port=local.port,
            http_host=self.options.http_host, http_port=table.display_port,
        )  # fmt: skip
        display = LoopThread(
            f"display of {table.id}", lambda listening: serve(settings, listening=listening)
        )
        stack.callback(display.stop)
        table.display_port = display.port()

    # --- running -------------------------------------------------------------------------

    def run(self, stop: threading.Event) -> None:
        """Play every round: players at every table, the director between rounds."""
        assert self.watch is not None
        threads = [
            threading.Thread(target=t.players.run, args=(stop,), name=f"players-{t.id}",
                             daemon=True)
            for t in self.tables
        ]  # fmt: skip
        for thread in threads:
            thread.start()
        for number in range(1, self.options.rounds + 1):
            if stop.is_set():
                return
            self._play_round(number, stop)
        if not stop.is_set():
            self.echo(f"{EVENT_NAME} is over: {self.options.rounds} rounds played.")

    def _play_round(self, number: int, stop: threading.Event) -> None:
        watch = self.watch
        assert watch is not None
        watch.command({"id": f"demo-start-r{number}", "action": "start_round"}, stop)
        watch.wait(lambda: watch.round_done(number), ROUND_TIMEOUT_S,
                   f"round {number}'s results", stop)  # fmt: skip
        assert watch.round is not None
        seated = {t["table"] for t in watch.round["tables"]}
        for table in self.tables:
            table.seated += table.id in seated
        for table in self.tables:  # the players cleared their board and confirmed
            self._wait_players(table, stop)
        watch.wait(lambda: watch.confirmed(number), 60, f"round {number}'s confirmations", stop)
        watch.command({"id": f"demo-close-r{number}", "action": "close_round"}, stop)
        watch.wait(lambda: (watch.standings or {}).get("round") == number, 60,
                   f"the standings of round {number}", stop)  # fmt: skip
        if watch.standings is not None and not stop.is_set():
            for line in describe_standings(watch.standings):
                self.echo(line)

    def _wait_players(self, table: _Table, stop: threading.Event) -> None:
        players = table.players
        with players.done:
            while players.games_done < table.seated and not stop.is_set():
                players.done.wait(0.5)

    def addresses(self) -> list[str]:
        host, central = self.options.http_host, self.central
        lines = [
            f"Desk: http://{host}:{self.desk_port}/director (password {self.password}), "
            f"big screen http://{host}:{self.desk_port}/screen, "
            f"phones http://{host}:{self.desk_port}/find",
            "Tables: " + ", ".join(f"{t.id} http://{host}:{t.display_port}/" for t in self.tables),
        ]
        if central is not None:
            lines.append(f"MQTT: mosquitto_sub -h {central.host} -p {central.port} "
                         "-t 'domino/#' -v   (the central broker)")  # fmt: skip
        return lines


def _ports(options: HallOptions) -> HallPorts:
    """The desk's port and one per display: consecutive from `http_port`, or 0 for each
    (the system chooses as each binds: a port picked free here could be taken by another
    program before the page server binds it)."""
    if options.http_port == 0:
        return HallPorts(0, [0] * options.tables)
    base = options.http_port
    return HallPorts(base, [base + 1 + n for n in range(options.tables)])
