"""The table service's command-line flags (`domino-table run`, and the demo's tables):
`service_options` adds them to a click command; `settings_from_flags` lays them over the
settings file (or the defaults), an invalid value a usage error naming its flag."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from config.errors import SettingsError
from config.loader import load_settings
from config.settings import Settings

__all__ = ["parse_surface", "service_options", "settings_from_flags"]

# flag name -> dotted settings key
_FLAGS = {
    "serial": "serial.port",
    "mqtt_host": "mqtt.host",
    "mqtt_port": "mqtt.port",
    "table": "table.id",
    "rules": "table.rules",
    "seats": "table.seats",
    "state_dir": "state.dir",
}
_NAMES = {key: "--" + flag.replace("_", "-") for flag, key in _FLAGS.items()} | {
    "serial.enabled": "--serial",
    "camera.enabled": "--camera",
    "camera.source": "--camera",
    "camera.fps": "--fps",
    "table.surface.width_mm": "--surface",
    "table.surface.height_mm": "--surface",
}


def settings_from_flags(
    settings_file: Path | None,
    flags: Mapping[str, Any],
    *,
    more: Mapping[str, Any] | None = None,
    names: Mapping[str, str] | None = None,
) -> Settings:
    """The settings file (or the defaults) with the flags given on top (a flag left None
    is not given); `more`: other dotted keys a caller sets, `names` the flags they come
    from (for the errors). A usage error naming the flags when they are not valid."""
    overrides = {_FLAGS[k]: v for k, v in flags.items() if v is not None and k in _FLAGS}
    if flags.get("serial") is not None:
        overrides["serial.enabled"] = True
    camera = flags.get("camera")
    if camera is not None:
        overrides["camera.enabled"] = True
        overrides["camera.source"] = int(camera) if str(camera).isdigit() else camera
    if flags.get("fps") is not None:
        overrides["camera.fps"] = flags["fps"]
    if flags.get("surface") is not None:
        overrides["table.surface.width_mm"], overrides["table.surface.height_mm"] = flags["surface"]
    try:
        return load_settings(
            settings_file, overrides | dict(more or {}), flags=_NAMES | dict(names or {})
        )
    except SettingsError as exc:
        lines = "\n  ".join(exc.problems)
        raise click.UsageError(f"the settings are not valid:\n  {lines}") from None


def parse_surface(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    """`--surface WxH` (mm) as (width, height); None when not given."""
    if value is None:
        return None
    width, sep, height = value.lower().partition("x")
    if not sep or not width.isdigit() or not height.isdigit():
        raise click.BadParameter(f"{value!r}: give the surface as WIDTHxHEIGHT in mm, e.g. 900x600")
    return int(width), int(height)


def service_options(f: Any) -> Any:
    """Add the table service's flags to a click command (read back by `settings_from_flags`)."""
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
            callback=parse_surface,
            metavar="WxH",
            help="The play surface in mm, e.g. 900x600.",
        ),
    ]
    for option in reversed(options):
        f = option(f)
    return f
