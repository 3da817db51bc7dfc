"""`domino-table display`: serve the table display page for one table."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import click

from config.errors import SettingsError as ConfigSettingsError
from config.loader import load_settings
from display.errors import SettingsError
from display.https import https_context, https_options
from display.pin import default_pin_file, keep_new_pin
from display.server import serve
from display.settings import LANGUAGES, THEMES, DisplayServerSettings
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
    "--theme",
    type=click.Choice(THEMES),
    default=None,
    help="The page's look: sun (black on white and yellow, for daylight), dark, or auto "
    "(sun by day)  [default: --settings' [display] theme, else auto].",
)
@click.option(
    "--settings",
    "settings_file",
    type=click.Path(path_type=Path, dir_okay=False, exists=True),
    default=None,
    help="The table's settings file: its [display] theme, day_starts and day_ends, and "
    "its [outputs.awtrix] and [outputs.wled] for the /outputs page.",
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
    theme: str | None,
    settings_file: Path | None,
    **broker_flags: Any,
) -> None:
    """Serve the table display: a web page fed only from the table's MQTT topics."""
    broker = broker_from_flags(**broker_flags)
    https = https_context(https_cert_file, https_key_file)
    table_settings = _from_settings(settings_file, theme)
    try:
        settings = DisplayServerSettings(
            table=table,
            **broker,
            http_host=http_host,
            http_port=http_port,
            language=language,
            reply_timeout_s=reply_timeout,
            topic_prefix=topic_prefix,
            https=https,
            theme=table_settings.theme,
            day_starts=table_settings.day_starts,
            day_ends=table_settings.day_ends,
            awtrix=table_settings.awtrix,
            awtrix_app=table_settings.awtrix_app,
            wled=table_settings.wled,
        )
        settings = replace(settings, command_pin=_command_pin(table, command_pin_file, no_pin))
    except SettingsError as exc:
        raise click.UsageError(str(exc)) from exc
    log.info("display: %s", settings)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(settings))


@dataclass(frozen=True)
class _FromSettings:
    """What the display takes from the table's settings file: its look, its lights."""

    theme: str
    day_starts: str
    day_ends: str
    awtrix: str | None
    awtrix_app: str
    wled: str | None


def _from_settings(settings_file: Path | None, theme: str | None) -> _FromSettings:
    """The page's theme (`--theme`, else [display] theme) and day hours, and the table's
    clock and strip for /outputs, from the settings file (the built-in defaults without)."""
    try:
        settings = load_settings(settings_file)
    except ConfigSettingsError as exc:
        lines = "\n  ".join(exc.problems)
        raise click.UsageError(f"--settings: the settings are not valid:\n  {lines}") from exc
    shown, outputs = settings.display, settings.outputs
    return _FromSettings(
        theme=theme or str(shown.theme),
        day_starts=shown.day_starts,
        day_ends=shown.day_ends,
        awtrix=outputs.awtrix.prefix if outputs.awtrix else None,
        awtrix_app=outputs.awtrix.app if outputs.awtrix else "domino",
        wled=outputs.wled.topic if outputs.wled else None,
    )


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
