"""The `domino-table` command line: the root of every sub-command.

Each sub-command is imported only when it is run, so `domino-table --help` and the
service start quickly on a Raspberry Pi. The table's own commands live in this package
(`cli.engine`, `cli.settings_check`), and `doctor`, which checks every part
(`cli.doctor`); every other lives next to the code it drives: `run` in `service.cli`,
`demo` in `demo.cli`, the board emulator's, the camera's, the display's and the desk's.
"""

from __future__ import annotations

import faulthandler
import importlib
import importlib.util
import logging
import signal
import sys

import click

# name -> "module:attribute" of a click command; a command whose module is not
# present in this build is not listed.
COMMANDS: dict[str, str] = {
    "rules": "cli.engine:rules",
    "simulate": "cli.engine:simulate",
    "replay": "cli.engine:replay",
    "run": "service.cli:run",
    "history": "service.history.cli:history",
    "demo": "demo.cli:demo",
    "board-emulator": "firmware_bridge.cli:board_emulator",
    "vision": "vision.cli:vision",
    "display": "display.cli:display",
    "tournament": "tournament.cli:tournament",
    "doctor": "cli.doctor.command:doctor",
    "settings": "cli.settings_check:settings",
}


def _available(target: str) -> bool:
    module = target.split(":", 1)[0]
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


class LazyGroup(click.Group):
    """A click group whose sub-commands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(name for name, target in COMMANDS.items() if _available(target))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None or not _available(target):
            return None
        module_name, attr = target.split(":", 1)
        command = getattr(importlib.import_module(module_name), attr)
        if not isinstance(command, click.Command):
            raise TypeError(f"{target} is not a click command")
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--log-level",
    type=click.Choice(["debug", "info", "warning", "error"], case_sensitive=False),
    default="info",
    show_default=True,
    help="How much the program logs (to standard error, or the journal under systemd).",
)
@click.version_option(package_name="domino-table")
def cli(log_level: str) -> None:
    """Referee, scorekeeper and display hub of a smart domino table."""
    logging.basicConfig(
        level=getattr(logging, log_level.upper()),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    dump_stacks_on_sigusr1()


def dump_stacks_on_sigusr1() -> None:
    """`kill -USR1 PID` prints every thread's stack to standard error (the journal
    under systemd) and the program goes on: what a table that does not answer, or
    does not stop, is doing."""
    if not hasattr(signal, "SIGUSR1"):
        return
    try:
        sys.stderr.fileno()
    except (AttributeError, ValueError, OSError):
        return  # standard error is no file (a test's runner captures it): nothing to print to
    faulthandler.register(signal.SIGUSR1, all_threads=True, chain=False)


def main() -> None:
    cli(prog_name="domino-table")
