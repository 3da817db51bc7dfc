"""`domino-table history`: the games a table kept, from its state directory.

    domino-table history --state-dir DIR                 the games kept, newest first
    domino-table history --state-dir DIR GAME_ID         one game, hand by hand
    domino-table history --state-dir DIR GAME_ID --html OUT.html
                                                         one page, its frames inside
    domino-table history --state-dir DIR GAME_ID --inputs
                                                         its inputs, for `domino-table replay`

Reads the record while the table runs (read-only) or from a copy of the folder.
`last` names the newest game.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from service.history.export import html_page
from service.history.store import GameRecord, GameSummary, HistoryError, HistoryStore
from service.history.words import hands, line, local_time, words

__all__ = ["history"]


@click.command("history")
@click.option(
    "--state-dir",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="The table's state directory (its [state] dir).",
)
@click.argument("game_id", required=False)
@click.option(
    "--html",
    "html_out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the game as one page, its frames inside: it opens with no network.",
)
@click.option("--inputs", is_flag=True, help="Print the game's inputs, one JSON line each.")
def history(state_dir: Path, game_id: str | None, html_out: Path | None, inputs: bool) -> None:
    """The games a table kept: listed, or one told hand by hand (GAME_ID, or `last`)."""
    try:
        store = HistoryStore(state_dir, read_only=True)
    except HistoryError as exc:
        raise click.ClickException(str(exc)) from None
    with store:
        if game_id is None:
            if html_out is not None or inputs:
                raise click.UsageError("name the game (GAME_ID, or last) for --html or --inputs")
            _list(store.games())
            return
        if game_id == "last":
            game_id = store.last_game() or ""
        record = store.record(game_id)
        if record is None:
            kept = ", ".join(g.game_id for g in store.games()[:5]) or "none"
            raise click.ClickException(
                f"no game {game_id!r} is kept in {state_dir}: the newest are {kept} "
                "(domino-table history --state-dir DIR lists them all)"
            )
        if inputs:
            for item in record.inputs:
                sys.stdout.write(json.dumps(item["input"], separators=(",", ":")) + "\n")
            return
        if html_out is not None:
            page = html_page(record, store)
            try:
                html_out.write_text(page, encoding="utf-8")
            except OSError as exc:
                raise click.ClickException(f"cannot write {html_out}: {exc}") from None
            click.echo(f"{html_out}: {record.summary.game_id}, {len(record.frames)} frames inside")
            return
        _tell(record)


def _list(games: list[GameSummary]) -> None:
    if not games:
        click.echo("No game is kept yet.")
        return
    for g in games:
        when = local_time(g.started, with_date=True) or "?"
        state = f"ended {local_time(g.ended)}" if g.ended else "not over"
        scores = " ".join(f"{n} {s}" for n, s in zip(g.names, g.scores, strict=False))
        click.echo(
            f"{g.game_id}  {when}  {g.rules or '?'}  {state}  {g.hands} hands  "
            f"{scores}  {g.frames} frames"
        )


def _tell(record: GameRecord) -> None:
    s = record.summary
    language = _language(record)
    w = words(language)
    framed = set(record.frames)
    click.echo(f"Game {s.game_id}: {s.rules}, {', '.join(s.names)}")
    for hand in hands(record.events):
        click.echo(w["hand"].format(n=hand.number) if hand.number else w["before"])
        for event in hand.events:
            mark = f"  [{w['frame']}]" if event["seq"] in framed else ""
            said = line(event, s.names, language)
            click.echo(f"  #{event['seq']:<5} {local_time(event.get('ts'))}  {said}{mark}")


def _language(record: GameRecord) -> str:
    first = record.inputs[0]["input"] if record.inputs else {}
    language = first.get("language") if isinstance(first, dict) else None
    return str(language) if language in ("en", "es") else "en"
