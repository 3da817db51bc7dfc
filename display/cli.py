"""`domino-table display`: serve the table display page for one table."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from display.errors import SettingsError
from display.https import https_context, https_options
from display.pin import default_pin_file, keep_new_pin
from display.server import serve
from display.settings import LANGUAGES, DisplaySettings
from mqttweb.broker_flags import broker_from_flags, broker_options
from mqttweb.secret_file import password_from_file

log = logging.getLogger(__name__)


@click.command()
@click.option("--table", required=True, help="Table id: shows domino/<table>/...")
@broker_options("display")
@click.option("--http-host", default="0.0.0.0", show_default=True)
@click.option("--http-port", default=8080, show_default=True, type=int)
@https_options
@click.option(
    "--command-pin-file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="A file holding the PIN the page asks for before its first command  [default: "
    "display-<table>.pin in the state folder, made with a new PIN at the first start].",
)
@click.option(
    "--no-pin",
    is_flag=True,
    help="No command PIN: anyone who can reach the page can press its buttons.",
)
@click.option(
    "--language",
    type=click.Choice(LANGUAGES),
    default=None,
    help="Language of the page [default: the table's own (state.language), else en].",
)
@click.option(
    "--topic-prefix",
    default=None,
    help="The table's topic prefix when the controller uses another  [default: domino/<table>].",
)
@click.option(
    "--reply-timeout",
    default=5.0,
    show_default=True,
    type=float,
    help="Seconds to wait for the controller's reply to a command.",
)
def display(
    *,
    table: str,
    http_host: str,
    http_port: int,
    language: str | None,
    topic_prefix: str | None,
    reply_timeout: float,
    command_pin_file: Path | None,
    no_pin: bool,
    https_cert_file: Path | None,
    https_key_file: Path | None,
    **broker_flags: Any,
) -> None:
    """Serve the table display: a web page fed only from the table's MQTT topics."""
    broker = broker_from_flags(**broker_flags)
    https = https_context(https_cert_file, https_key_file)
    try:
        settings = DisplaySettings(
            table=table,
            **broker,
            http_host=http_host,
            http_port=http_port,
            language=language,
            reply_timeout_s=reply_timeout,
            topic_prefix=topic_prefix,
            https=https,
        )
        settings = replace(settings, command_pin=_command_pin(table, command_pin_file, no_pin))
    except SettingsError as exc:
        raise click.UsageError(str(exc)) from exc
    log.info("display: %s", settings)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(settings))


def _command_pin(table: str, pin_file: Path | None, no_pin: bool) -> str | None:
    """The PIN the page's commands need: from `--command-pin-file`, else the one kept in
    the state folder (made and printed at the first start); None with `--no-pin`."""
    if no_pin:
        if pin_file is not None:
            raise click.UsageError("give --command-pin-file or --no-pin, not both")
        return None
    if pin_file is None:
        pin_file = default_pin_file(table)
        if not pin_file.exists():
            try:
                made = keep_new_pin(pin_file)
            except OSError as exc:
                raise click.UsageError(
                    f"cannot keep a new command PIN in {pin_file} ({exc.strerror}): give "
                    "--command-pin-file FILE holding a PIN of your own, or --no-pin to leave "
                    "the page's buttons open to anyone who can reach it"
                ) from exc
            click.echo(
                f"display: the page's buttons ask for the command PIN {made} (kept in "
                f"{pin_file}; --command-pin-file names another file, --no-pin opens them)"
            )
            return made
    pin = password_from_file(pin_file, "--command-pin-file")
    if pin is not None and not pin:
        raise click.BadParameter(f"{pin_file} is empty", param_hint="'--command-pin-file'")
    return pin
