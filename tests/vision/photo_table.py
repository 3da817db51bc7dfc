"""The table of what the detector reads on every labelled photo (`photo_table.toml`).

The photos and their labels stay in `../shared/data/vision/` (read at run time, never
copied). The table names each photo and how today's detector's reading differs from its
labels: no difference is a photo read exactly, every tile and nothing more. One test
(`test_photo_table.py`) reads every photo and compares.

Each source is read as the benchmark reads it (`benchmarks/vision_sets.py`):
- `ddd-a`: all 60 photos of one ivory set on a printed board, inside the board's grid,
  tone light (the service's default); scored cell by cell: a tile is right when it is
  read right on its two labelled cells. No photo shows a face-down tile, and printed
  figures on the board are never pips: none is reported as an unsure place of stray pips.
- `diverse-dev`: the `certain`, `overhead` photos of other sets, read whole with the
  tone unknown (`Settings(tone=None)`, as `vision detect` reads them); scored as
  multisets of tiles, since their labels give no places.

A change to the detector that moves any photo changes the table in the same commit:

    .venv/bin/python -m tests.vision.photo_table           # the photos whose reading moved
    .venv/bin/python -m tests.vision.photo_table --write   # write today's readings into it

then read the diff: a line lost is a photo now read better, a line gained a tile lost.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.detector.accuracy import DDD_A_GRID, Grid, read_labels
from vision.detector.detect import Detection, Settings, detect
from vision.detector.play_area import PlayArea
from vision.detector.results import UnsureReason

TABLE = Path(__file__).with_name("photo_table.toml")
DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "vision"
SOURCES = ("ddd-a", "diverse-dev")


@dataclass(frozen=True)
class Row:
    """One photo of the table: what its reading must differ from its labels by."""

    source: str
    name: str
    differs: tuple[str, ...] = ()
    why: str = ""
    width: tuple[float, float] | None = None  # the frame's tile width, px, within

    @property
    def id(self) -> str:
        return f"{self.source}/{self.name}"


@dataclass(frozen=True)
class Reading:
    """How a photo was read against its labels."""

    differs: tuple[str, ...]
    width: float
    facedown: int
    unsure: tuple[UnsureReason, ...] = field(default=())


def rows(table: Path = TABLE) -> list[Row]:
    """The table's rows, source by source, in its order."""
    data = tomllib.loads(table.read_text())
    unknown = set(data) - set(SOURCES)
    if unknown:
        raise ValueError(f"{table}: unknown sources {sorted(unknown)} (known: {SOURCES})")
    out = []
    for source in SOURCES:
        for name, entry in data.get(source, {}).items():
            width = entry.get("width")
            out.append(
                Row(
                    source,
                    name,
                    tuple(entry.get("differs", ())),
                    entry.get("why", ""),
                    (float(width[0]), float(width[1])) if width else None,
                )
            )
    return out


def labelled_names(data: Path = DATA) -> dict[str, list[str]]:
    """Every photo the table must name, by source: all of ddd-a, and diverse-dev's
    `certain`, `overhead` ones."""
    diverse = json.loads((data / "diverse-dev" / "labels.json").read_text())["images"]
    return {
        "ddd-a": sorted(read_labels(data / "ddd-a")),
        "diverse-dev": sorted(
            n for n, e in diverse.items() if e["certain"] and e["view"] == "overhead"
        ),
    }


def _image(path: Path) -> NDArray[np.uint8]:
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise FileNotFoundError(f"{path}: not a readable image (the labelled photos are needed)")
    return np.asarray(image, dtype=np.uint8)


@functools.cache
def detection(source: str, name: str, data: Path = DATA) -> Detection:
    """The detector's reading of one photo, as its source is read (kept for the session:
    the table's test and the ddd-a figures read each photo once)."""
    if source == "ddd-a":
        return detect(_image(data / "ddd-a" / "images" / name), PlayArea.rect(*DDD_A_GRID))
    return detect(_image(data / source / "images" / name), settings=Settings(tone=None))


@functools.cache
def _diverse_labels(data: Path) -> dict[str, Any]:
    images: dict[str, Any] = json.loads((data / "diverse-dev" / "labels.json").read_text())[
        "images"
    ]
    return images


def _cell(cell: tuple[int, int]) -> str:
    return f"{cell[0] + 1}{chr(ord('A') + cell[1])}"


def ddd_a_differences(det: Detection, name: str, data: Path = DATA) -> list[str]:
    """A ddd-a reading against its labels, cell by cell."""
    grid = Grid()
    want = {frozenset((t.cell_a, t.cell_b)): t for t in read_labels(data / "ddd-a")[name]}
    out: list[str] = []
    seen: set[frozenset[tuple[int, int]]] = set()
    for t in det.tiles:
        ca, cb = grid.cell_of(*t.px[0]), grid.cell_of(*t.px[1])
        if ca is None or cb is None:
            out.append(f"off the grid {t.pips[0]}-{t.pips[1]}")
            continue
        key, at = frozenset((ca, cb)), f"{_cell(ca)}-{_cell(cb)}"
        label = want.get(key)
        if label is None or key in seen:
            out.append(f"extra {t.pips[0]}-{t.pips[1]} at {at}")
            continue
        seen.add(key)
        got = {ca: t.pips[0], cb: t.pips[1]}
        if (got[label.cell_a], got[label.cell_b]) != (label.pips_a, label.pips_b):
            out.append(
                f"read {got[label.cell_a]}-{got[label.cell_b]} for {label.pips_a}-{label.pips_b}"
                f" at {_cell(label.cell_a)}-{_cell(label.cell_b)}"
            )
    for key, label in want.items():
        if key not in seen:
            at = f"{_cell(label.cell_a)}-{_cell(label.cell_b)}"
            out.append(f"missed {label.pips_a}-{label.pips_b} at {at}")
    return sorted(out)


def multiset_differences(det: Detection, tiles: list[list[int]]) -> list[str]:
    """A reading against a photo's tiles, as multisets (no places known)."""
    want = Counter((min(a, b), max(a, b)) for a, b in tiles)
    got = Counter((min(t.pips), max(t.pips)) for t in det.tiles)
    out = [f"missed {a}-{b}" for (a, b), n in (want - got).items() for _ in range(n)]
    out += [f"extra {a}-{b}" for (a, b), n in (got - want).items() for _ in range(n)]
    return sorted(out)


def read(source: str, name: str, data: Path = DATA) -> Reading:
    """One photo read and compared with its labels."""
    det = detection(source, name, data)
    if source == "ddd-a":
        differs = ddd_a_differences(det, name, data)
    else:
        differs = multiset_differences(det, _diverse_labels(data)[name]["tiles"])
    unsure = tuple(u.reason for u in det.unsure)
    return Reading(tuple(differs), det.tile_width_px, det.facedown, unsure)


def write(table: Path = TABLE, data: Path = DATA) -> list[str]:
    """Write today's readings into the table (keeping each row's `why` and `width`, and
    the comments above the sources), adding rows for photos new to the labels; the ids
    of the rows that changed."""
    known = {row.id: row for row in rows(table)}
    head = table.read_text().split("\n[", 1)[0].rstrip("\n")
    changed = []
    lines = [head, ""]
    for source, names in labelled_names(data).items():
        lines.append(f"[{source}]")
        for name in names:
            row = known.get(f"{source}/{name}", Row(source, name))
            differs = read(source, name, data).differs
            if differs != row.differs or row.id not in known:
                changed.append(row.id)
            fields = []
            if row.why:
                fields.append(f"why = {json.dumps(row.why)}")
            if row.width:
                fields.append(f"width = [{row.width[0]:g}, {row.width[1]:g}]")
            if differs:
                fields.append(f"differs = {json.dumps(list(differs))}")
            lines.append(f"{json.dumps(name)} = {{ {', '.join(fields)} }}".replace("{  }", "{}"))
        lines.append("")
    table.write_text("\n".join(lines))
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.vision.photo_table")
    parser.add_argument("--write", action="store_true", help="write today's readings in")
    args = parser.parse_args(argv)
    if args.write:
        for row_id in write():
            print(f"changed: {row_id}")
        return 0
    moved = 0
    for row in rows():
        now = read(row.source, row.name).differs
        if now != row.differs:
            moved += 1
            print(f"{row.id}: the table says {list(row.differs)}, read {list(now)}")
    print(f"{moved} photos read otherwise than the table says", file=sys.stderr)
    return 1 if moved else 0


if __name__ == "__main__":
    raise SystemExit(main())
