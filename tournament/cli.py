"""`domino-table tournament`: the tournament desk and its standings page."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from typing import Any

import click

from config.settings import default_state_dir
from mqttweb.client import tls_from_flags, tls_options
from mqttweb.secret_file import password_from_file
from tournament.errors import TournamentError
from tournament.server import serve
from tournament.settings import DeskSettings

log = logging.getLogger(__name__)


@click.command()
@click.option("--mqtt-host", default="localhost", show_default=True, help="The central broker.")
@click.option("--mqtt-port", default=1883, show_default=True, type=int)
@click.option("--mqtt-username", default=None, help="The desk's own MQTT user.")
@click.option(
    "--mqtt-password-file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="A file holding the MQTT password (never given on the command line).",
)
@tls_options
@click.option("--http-host", default="0.0.0.0", show_default=True)
@click.option("--http-port", default=8090, show_default=True, type=int)
@click.option(
    "--state-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where the desk keeps its standings seq  [default: <the state folder>/tournament].",
)
@click.option(
    "--publish-interval",
    default=0.25,
    show_default=True,
    type=float,
    help="Least seconds between two standings publications.",
)
def tournament(
    *,
    mqtt_host: str,
    mqtt_port: int,
    mqtt_username: str | None,
    mqtt_password_file: Path | None,
    http_host: str,
    http_port: int,
    state_dir: Path | None,
    publish_interval: float,
    **tls_flags: Any,
) -> None:
    """Keep the tournament's standings from every table's finished games on the central
    broker; publish them on domino/tournament/standings and serve them as a page."""
    tls = tls_from_flags(**tls_flags)
    try:
        settings = DeskSettings(
            state_dir=state_dir or default_state_dir() / "tournament",
            mqtt_host=mqtt_host,
            mqtt_port=mqtt_port,
            mqtt_username=mqtt_username,
            mqtt_password=password_from_file(mqtt_password_file),
            http_host=http_host,
            http_port=http_port,
            publish_interval_s=publish_interval,
            mqtt_tls=tls,
        )
    except TournamentError as exc:
        raise click.UsageError(str(exc)) from exc
    log.info("desk: %s", settings)
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve(settings))
    except TournamentError as exc:
        raise click.ClickException(str(exc)) from exc
