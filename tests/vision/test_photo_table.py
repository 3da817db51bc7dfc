"""Every labelled photo is read as `photo_table.toml` says: its labelled tiles, but for
the differences the table lists (read from `../shared` at run time; how each source is
read and how the table is rewritten after a change: `photo_table.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.vision import photo_table
from tests.vision.photo_table import Row
from vision.detector.results import UnsureReason

pytestmark = pytest.mark.photos

ROWS = photo_table.rows()


def test_the_table_names_every_labelled_photo_once(shared_dir: Path) -> None:
    named = [row.id for row in ROWS]
    assert len(named) == len(set(named)), "a photo named twice"
    labelled = photo_table.labelled_names(shared_dir / "data" / "vision")
    assert len(labelled["ddd-a"]) == 60
    want = {f"{source}/{name}" for source, names in labelled.items() for name in names}
    assert set(named) == want, (
        f"not in the table: {sorted(want - set(named))}; "
        f"not labelled: {sorted(set(named) - want)} "
        "(python -m tests.vision.photo_table --write adds and drops rows)"
    )


@pytest.mark.parametrize("row", ROWS, ids=[row.id for row in ROWS])
def test_each_photo_is_read_as_the_table_says(row: Row, shared_dir: Path) -> None:
    reading = photo_table.read(row.source, row.name, shared_dir / "data" / "vision")
    why = f" ({row.why})" if row.why else ""
    assert reading.differs == row.differs, f"{row.id}{why}"
    if row.width is not None:
        low, high = row.width
        assert low < reading.width < high, f"{row.id}: read at {reading.width} px wide{why}"
    if row.source == "ddd-a":
        # no tile lies face down on the board, and its printed figures are never pips
        assert reading.facedown == 0, f"{row.id}{why}"
        assert UnsureReason.STRAY_PIPS not in reading.unsure, f"{row.id}{why}"
