"""What the table core kept beside a journal before each owner held its state in one value
is read back by today's code (issue 30 point 1).

`tests/service/store/golden/journal-before-one-value.sql` is a journal the core wrote at
commit f7ccee3, when what it knew beyond the game was written by hand codecs in
`service/core/table_memory.py`; `kept-before-one-value.json` the value it kept under the
journal's `kv` key `table` after each step of that game; `restart-before-one-value.json`
what a fresh core of that commit did on a copy of the journal: its state after start, then
after each of four snapshots (`golden/README.md` says how they were made). Today's core
restarted on that journal publishes the same state and events and keeps the same value.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from engine import Tile, rulesets
from engine.geometry import Placer
from engine.surface import SeenTile, Snapshot
from service.core import table_memory as memo
from service.core.alerts import StandingAlerts
from service.core.table import TableConfig, TableCore
from service.core.table_events import Recorded
from service.store.journal import FILE_NAME, Journal

GOLDEN = Path(__file__).parents[1] / "store" / "golden"
ZONES = ((0, (0, 500, 450, 600)), (1, (450, 500, 900, 600)))
CONFIG = TableConfig(table="t1", rules="walnut", seats=2, zones=ZONES)


def golden(name: str) -> Any:
    return json.loads((GOLDEN / name).read_text())


def bare(value: Any) -> Any:
    """`value` without its timestamps (each run stamps its own)."""
    if isinstance(value, dict):
        return {k: bare(v) for k, v in value.items() if k != "ts"}
    if isinstance(value, list):
        return [bare(v) for v in value]
    return value


def journal_before(state_dir: Path) -> Journal:
    """The golden journal as a file in `state_dir`, opened."""
    state_dir.mkdir()
    db = sqlite3.connect(state_dir / FILE_NAME)
    db.executescript((GOLDEN / "journal-before-one-value.sql").read_text())
    db.execute("PRAGMA user_version=2")
    db.commit()
    db.close()
    return Journal(state_dir, "t1")


def seen(values: list[float]) -> SeenTile:
    a, b, xa, ya, xb, yb, confidence = values
    return SeenTile(int(a), int(b), xa, ya, xb, yb, confidence)


def test_the_golden_values_are_the_old_codecs() -> None:
    """The golden values hold every field the old codecs wrote, each of them non-empty
    at some step, so reading them back tests each."""
    kept = [step["kept"] for step in golden("kept-before-one-value.json")]
    assert [step["step"] for step in golden("kept-before-one-value.json")][:3] == [
        "camera offline",
        "lay 6-6",
        "lead",
    ]
    assert set(kept[-1]) == {"game_id", "standing", "sources", "zone_counts", "reconciler"}
    assert set(kept[-1]["reconciler"]) == {
        "standing", "hand", "counts", "cleared", "known", "ignored", "aliases", "looks",
        "first_seen", "surface",
    }  # fmt: skip
    for name in ("standing", "sources", "zone_counts"):
        assert any(k[name] for k in kept), name
    for name in ("standing", "counts", "known", "ignored", "aliases", "first_seen", "surface"):
        assert any(k["reconciler"][name] for k in kept), name
    assert kept[-1]["standing"] == [["source:camera", 2], ["NOT_TOUCHING:6-2", 17]]
    assert kept[-1]["reconciler"]["ignored"] == [[3, 3, 522, 288, 522, 312, 1.0]]


def test_every_value_kept_before_reads_back_and_is_written_the_same(tmp_path: Path) -> None:
    """Each owner reads its part of each value the old codecs wrote, and writes it the
    same: the standing alerts found again in the journal by their seqs."""
    journal = journal_before(tmp_path / "state")
    try:
        steps = golden("kept-before-one-value.json")
        assert len(steps) == 18
        for step in steps:
            kept = step["kept"]
            core, standing, reconciler = memo.read_kept(kept)
            alerts = StandingAlerts(lambda: 0)
            alerts.recall(standing, journal.event)
            assert len(alerts.value) == len(standing)
            moment = memo.Moment(core, alerts.value, reconciler, {})
            assert memo.kept(moment) == kept, step["step"]
        last = memo.read_kept(steps[-1]["kept"])
        assert last[0].sources == {"camera": False, "board": True}
        assert last[2] is not None and last[2].standing is not None
        assert last[2].standing.key == "NOT_TOUCHING:6-2"
    finally:
        journal.close()


def test_a_core_restarted_on_a_journal_kept_before_goes_on_as_the_old_one_did(
    tmp_path: Path,
) -> None:
    expected = golden("restart-before-one-value.json")
    journal = journal_before(tmp_path / "state")
    now = [500.0]
    try:
        core = TableCore(CONFIG, journal, rulesets.load, clock=lambda: now[0])
        heard: list[Recorded] = []
        core.bus.subscribe(Recorded, heard.append)
        core.start()
        first = expected[0]
        assert bare(core.state()) == first["state"]
        assert journal.get("table") == first["kept"]
        assert [a["code"] for a in core.state()["alerts"]] == ["CAMERA_OFFLINE", "NOT_TOUCHING"]
        surface = [seen(v) for v in first["kept"]["reconciler"]["surface"]]
        assert [s.tile.text for s in surface] == ["5-5", "5-3", "3-3", "6-2"]

        def after(tiles: list[SeenTile]) -> dict[str, Any]:
            heard.clear()
            now[0] += 0.2
            core.observe(Snapshot(tuple(tiles)))
            now[0] += 2.0
            core.tick()
            events = [e.payload for r in heard for e in r.events]
            out: dict[str, Any] = bare(
                {"events": events, "state": core.state(), "kept": journal.get("table")}
            )
            return out

        def step(n: int) -> dict[str, Any]:
            return {k: v for k, v in expected[n].items() if k != "step"}

        assert after(surface) == step(1)  # the standing alert stands, nothing else
        stray, left = surface.pop(), surface.pop()
        assert (stray.tile.text, left.tile.text) == ("6-2", "3-3")
        surface.append(left)
        assert after(surface) == step(2)  # the stray lifted: its alert resolved
        surface.remove(left)
        assert after(surface) == step(3)  # the tile taken back lifted: no longer left alone
        game = core.game
        assert game is not None and core.reconciler is not None
        coords = [p for p in core.reconciler.placed() if p is not None]
        end = next(e for e in game.layout.ends if e.pip == 3)
        surface.append(Placer(900, 600).place(game.layout, coords, Tile.parse("3-3"), end))
        assert after(surface) == step(4)  # laid again on its end: played
        assert [e.get("tile") for e in step(4)["events"]] == ["3-3"]
    finally:
        journal.close()
