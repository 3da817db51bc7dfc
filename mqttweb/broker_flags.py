"""The broker's flags of `domino-table display` and `domino-table tournament`: where the
broker is, who connects (the password from a file, never on the command line) and the
TLS flags (`mqttweb.client.tls_options`), read back as the settings' `mqtt_*` fields."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypedDict, TypeVar

import click

from mqttweb.client import MqttTls, tls_from_flags, tls_options
from mqttweb.secret_file import password_from_file

F = TypeVar("F", bound=Callable[..., Any])


class Broker(TypedDict):
    """The settings' broker fields (`DisplayServerSettings(**broker, ...)`, `DeskSettings`)."""

    mqtt_host: str
    mqtt_port: int
    mqtt_username: str | None
    mqtt_password: str | None
    mqtt_tls: MqttTls | None


def broker_options(who: str, host_help: str | None = None) -> Callable[[F], F]:
    """Add the broker's flags to a click command (read back with `broker_from_flags`);
    `who` is whose own MQTT user `--mqtt-username` is."""

    def add(command: F) -> F:
        command = tls_options(command)
        options = [
            click.option("--mqtt-host", default="localhost", show_default=True, help=host_help),
            click.option("--mqtt-port", default=1883, show_default=True, type=int),
            click.option("--mqtt-username", default=None, help=f"The {who}'s own MQTT user."),
            click.option(
                "--mqtt-password-file",
                type=click.Path(dir_okay=False, path_type=Path),
                default=None,
                help="A file holding the MQTT password (never given on the command line).",
            ),
        ]
        for option in reversed(options):
            command = option(command)
        return command

    return add


def broker_from_flags(
    *,
    mqtt_host: str,
    mqtt_port: int,
    mqtt_username: str | None,
    mqtt_password_file: Path | None,
    **tls_flags: Any,
) -> Broker:
    """The broker's settings from its flags; a click error naming a flag whose file is
    wrong (TLS first, then the password)."""
    tls = tls_from_flags(**tls_flags)
    return Broker(
        mqtt_host=mqtt_host,
        mqtt_port=mqtt_port,
        mqtt_username=mqtt_username,
        mqtt_password=password_from_file(mqtt_password_file),
        mqtt_tls=tls,
    )
