"""`domino-table run`: the table service until it is stopped (SIGTERM or Ctrl-C)."""

from __future__ import annotations

import signal
import threading
from pathlib import Path
from typing import Any

import click

from service.app import TableService
from service.flags import service_options, settings_from_flags
from service.mqtt.client import MqttLinkError
from service.store.journal import JournalError


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
