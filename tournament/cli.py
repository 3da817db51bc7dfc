"""`domino-table tournament`: the tournament desk and its pages."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from typing import Any

import click

from config.settings import default_state_dir
from mqttweb.broker_flags import broker_from_flags, broker_options
from mqttweb.secret_file import password_from_file
from tournament.errors import EventFileError, TournamentError
from tournament.event import load
from tournament.server import serve
from tournament.settings import DeskSettings

log = logging.getLogger(__name__)
FILE = click.Path(dir_okay=False, path_type=Path)


@click.command()
@click.option(
    "--event",
    "event_file",
    type=FILE,
    default=None,
    help="Run this event (TOML: roster, rounds, tables); without it, standings only.",
)
@click.option(
    "--director-password-file",
    type=FILE,
    default=None,
    help="A file holding the director's page password (needed with --event).",
)
@broker_options("desk", host_help="The central broker.")
@click.option("--http-host", default="0.0.0.0", show_default=True)
@click.option("--http-port", default=8090, show_default=True, type=int)
@click.option(
    "--state-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where the desk keeps its journal and seq  [default: <the state folder>/tournament].",
)
@click.option(
    "--publish-interval",
    default=0.25,
    show_default=True,
    type=float,
    help="Least seconds between two standings publications (with --event: a game's outcome "
    "goes out at once, the tables' rows at most this often).",
)
@click.option(
    "--resend-interval",
    default=3.0,
    show_default=True,
    type=float,
    help="Seconds between two sendings of a new_game a table has not answered.",
)
def tournament(
    *,
    event_file: Path | None,
    director_password_file: Path | None,
    http_host: str,
    http_port: int,
    state_dir: Path | None,
    publish_interval: float,
    resend_interval: float,
    **broker_flags: Any,
) -> None:
    """Keep the tournament's standings from every table's finished games on the central
    broker, or with --event run a whole event: roster, rounds, seating, results."""
    broker = broker_from_flags(**broker_flags)
    if event_file is not None:
        if director_password_file is None:
            raise click.UsageError("--event needs --director-password-file (the director's page)")
        try:
            load(event_file)  # every problem now, before anything connects
        except EventFileError as exc:
            raise click.BadParameter(str(exc), param_hint="'--event'") from exc
    try:
        settings = DeskSettings(
            state_dir=state_dir or default_state_dir() / "tournament",
            **broker,
            http_host=http_host,
            http_port=http_port,
            publish_interval_s=publish_interval,
            resend_s=resend_interval,
            event_file=event_file,
            director_password=password_from_file(
                director_password_file, "--director-password-file"
            ),
        )
    except TournamentError as exc:
        raise click.UsageError(str(exc)) from exc
    log.info("desk: %s", settings)
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve(settings))
    except TournamentError as exc:
        raise click.ClickException(str(exc)) from exc
