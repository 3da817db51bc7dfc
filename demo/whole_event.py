"""`domino-table demo --tournament N`: a whole event on one machine (`demo.hall`): N tables,
a desk, its rounds played, confirmed and closed, the standings printed after each."""

from __future__ import annotations

import random
from contextlib import ExitStack

import click

from demo.hall import DemoHall, HallOptions
from demo.hall_watch import HallError
from demo.options import DemoOptions
from demo.running import stop_on_signals, workdir

__all__ = ["play"]


def play(options: DemoOptions) -> None:
    """Every round, then stop (`--keep-open`: the pages stay up until Ctrl-C)."""
    from tournament.errors import EventFileError  # noqa: PLC0415 - the desk only here

    assert options.tournament_tables is not None
    hall_options = HallOptions(
        tables=options.tournament_tables, format=options.event_format,
        rules=options.rules_name, target=options.target, rounds=options.rounds,
        time_limit_min=options.time_limit, pace=options.pace,
        seed=options.seed if options.seed is not None else random.randrange(2**31),
        http_host=options.http_host, http_port=options.http_port,
    )  # fmt: skip
    stop = stop_on_signals()
    with workdir(options.state_dir) as folder, ExitStack() as stack:
        hall = DemoHall(folder, hall_options, click.echo)
        try:
            hall.open(stack)
            for line in hall.addresses():
                click.echo(line)
            hall.run(stop)
            if options.keep_open and not stop.is_set():
                click.echo("The pages stay up: stop with Ctrl-C.")
                stop.wait()
        except EventFileError as exc:
            raise click.UsageError(str(exc)) from None
        except HallError as exc:
            raise click.ClickException(str(exc)) from None
        finally:
            stop.set()  # the players stop before their tables and brokers do
