"""`domino-table settings`: check a settings file and print it, secrets redacted."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from config.errors import SettingsError
from config.loader import load_settings


@click.command("settings")
@click.option(
    "--settings",
    "settings_file",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Settings file (TOML); default: the built-in defaults.",
)
def settings(settings_file: Path | None) -> None:
    """Check the settings and print them as JSON (secrets shown as ***)."""
    try:
        loaded = load_settings(settings_file, {})
    except SettingsError as exc:
        click.echo("the settings are not valid:", err=True)
        for line in exc.problems:
            click.echo(f"  {line}", err=True)
        sys.exit(2)
    click.echo(json.dumps(loaded.redacted(), indent=2, ensure_ascii=False))
