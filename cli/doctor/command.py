"""`domino-table doctor`: every check in turn, their findings printed, the exit code."""

from __future__ import annotations

import importlib.metadata
import logging
from pathlib import Path

import click

from cli.doctor.board import check_serial
from cli.doctor.broker import check_broker
from cli.doctor.camera import check_camera, check_camera_status
from cli.doctor.findings import Check, Finding, Status, problem
from cli.doctor.gpio import check_gpio
from cli.doctor.host import check_clock, check_disk
from cli.doctor.voice import check_voice
from config.errors import SettingsError
from config.loader import load_settings
from config.settings import Settings

log = logging.getLogger(__name__)

SYSTEM_SETTINGS = Path("/etc/domino-table/settings.toml")


CHECKS: tuple[Check, ...] = (
    check_camera,
    check_camera_status,
    check_serial,
    check_gpio,
    check_broker,
    check_disk,
    check_clock,
    check_voice,
)


def run_checks(settings: Settings, timeout: float) -> list[Finding]:
    """Every check; one that crashes is reported as a problem, not raised."""
    findings: list[Finding] = []
    for check in CHECKS:
        part = check.__name__.removeprefix("check_")
        try:
            findings.extend(check(settings, timeout))
        except Exception as exc:
            log.debug("doctor: %s check failed", part, exc_info=True)
            findings.append(
                problem(part, f"the check itself failed: {exc!r}", "report this as a bug")
            )
    return findings


def _settings(settings_file: Path | None) -> tuple[Settings | None, str, list[str]]:
    if settings_file is None and SYSTEM_SETTINGS.exists():
        settings_file = SYSTEM_SETTINGS
    label = str(settings_file) if settings_file is not None else "the built-in defaults"
    try:
        return load_settings(settings_file), label, []
    except SettingsError as exc:
        return None, label, list(exc.problems)


def _installed_version() -> str:
    """This program's version, from the installed package's metadata (pyproject.toml's
    `version`, the one place it is written)."""
    try:
        return importlib.metadata.version("domino-table")
    except importlib.metadata.PackageNotFoundError:
        return "(not installed)"


@click.command()
@click.option(
    "--settings",
    "settings_file",
    type=click.Path(path_type=Path, dir_okay=False),
    help=f"Settings file to check [default: {SYSTEM_SETTINGS} if it exists, else the defaults].",
)
@click.option(
    "--timeout",
    type=click.FloatRange(0.2, 30),
    default=3.0,
    show_default=True,
    help="Seconds each check may wait (broker, board handshake, camera).",
)
def doctor(settings_file: Path | None, timeout: float) -> None:
    """Check the camera, board, GPIO, broker, disk, clock and voice; say how to fix each problem.

    Exits with 1 when any problem was found.
    """
    root = logging.getLogger()
    if root.level > logging.DEBUG:  # the report says it all; the parts' info logs are noise
        root.setLevel(logging.WARNING)
    settings, label, errors = _settings(settings_file)
    click.echo(f"domino-table {_installed_version()} doctor: checking {label}")
    if settings is None:
        click.echo(f"{Status.PROBLEM.value:8} {'settings':7} the settings are not valid:")
        for line in errors:
            click.echo(f"{'':8} {'':7}   {line}")
        click.echo(
            f"{'':8} {'':7} fix: correct them (docs/guide/settings.md), then run doctor again"
        )
        raise SystemExit(1)
    findings = run_checks(settings, timeout)
    for finding in findings:
        for line in finding.lines():
            click.echo(line)
    problems = sum(f.status is Status.PROBLEM for f in findings)
    click.echo(f"{problems} problem{'s' if problems != 1 else ''}" if problems else "all good")
    raise SystemExit(1 if problems else 0)
