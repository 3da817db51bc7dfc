"""A journal written before `engine.inputs` is converted when it is opened (issue 23 point 2).

`golden/journal-before-inputs.sql` is a journal the table core wrote at commit 09fe51b,
before the inputs had one notation (its schema 1: each input the core's own dict), dumped
as text: a walnut table for two with draws before the lead, plays seen on the board, a
leader named, a correction, an undo, a rename, counts by seat and from the seat zones, a
redeal and a tournament game whose clock ran out (`golden/README.md` says how it was
made). `golden/state-before-inputs.json` is the state that core published at its end.
Opened now, every input is in its `engine.inputs` form, and the game rebuilt from them is
the same game.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from engine import Edge, OpenEnd, Tile, rulesets
from engine.events import Coords
from engine.inputs import CallTime, Confirm, Count, Draw, NewGame, Play, read
from service.core.table import TableConfig, TableCore
from service.store.journal import FILE_NAME, Journal, JournalError

GOLDEN = Path(__file__).parent / "golden"
ZONES = ((0, (0, 500, 450, 600)), (1, (450, 500, 900, 600)))


def written_before(state_dir: Path, sql: str | None = None) -> Path:
    """The golden journal (or `sql`) as a file in `state_dir`, as it was left."""
    state_dir.mkdir()
    path = state_dir / FILE_NAME
    db = sqlite3.connect(path)
    db.executescript(sql or (GOLDEN / "journal-before-inputs.sql").read_text())
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()
    return path


def test_the_golden_journal_is_the_old_notation() -> None:
    sql = (GOLDEN / "journal-before-inputs.sql").read_text()
    assert '{"input":"play","tile":"6-4","node":0,"edge":2,"pip":6,"coords":[474,300' in sql


def test_an_old_journal_is_converted_and_plays_the_same_game(tmp_path: Path) -> None:
    path = written_before(tmp_path / "state")
    journal = Journal(tmp_path / "state", "t1")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        assert db.execute("PRAGMA user_version").fetchone()[0] == 2
        bodies = [json.loads(b) for (b,) in db.execute("SELECT body FROM inputs ORDER BY id")]
        db.close()
        told = [i.told for i in journal.inputs()]
        assert [t.to_json() for t in told] == bodies  # each in its one JSON form
        assert [read(b) for b in bodies] == told
        assert isinstance(told[0], NewGame) and told[0].rules == "walnut"
        assert told[1:3] == [Draw(seat=0), Draw(seat=1)]  # extra draws before the lead
        assert told[5] == Play(
            Tile(6, 4), OpenEnd(0, Edge.SIDE0, 6), coords=Coords(474, 300, 498, 300)
        )
        assert Count(0, tiles=tuple(map(Tile.parse, ["0-0", "2-0", "3-0", "4-0", "5-0",
                     "2-2", "3-2", "4-2", "5-2", "3-3"]))) in told  # fmt: skip
        (confirm,) = [t for t in told if isinstance(t, Confirm)]
        assert confirm.tiles is not None and len(confirm.tiles) == 2  # the zones' tiles
        assert told[-1] == CallTime("2026-11-01T20:31:00.000Z")
        core = TableCore(
            TableConfig(table="t1", rules="walnut", seats=2, zones=ZONES), journal, rulesets.load
        )
        core.start()
        expected = json.loads((GOLDEN / "state-before-inputs.json").read_text())
        assert core.state() == expected
    finally:
        journal.close()


def test_an_old_input_that_is_no_input_leaves_the_journal_as_it_was(tmp_path: Path) -> None:
    sql = (GOLDEN / "journal-before-inputs.sql").read_text()
    broken = sql.replace('{"seat":0,"input":"pass"}', '{"seat":"zero","input":"pass"}')
    assert broken != sql
    path = written_before(tmp_path / "state", broken)
    with pytest.raises(JournalError, match="written by an older domino-table"):
        Journal(tmp_path / "state", "t1")
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    assert db.execute("SELECT count(*) FROM inputs WHERE body LIKE '%\"input\"%'").fetchone()[0]
    db.close()
