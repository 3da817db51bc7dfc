"""Accuracy of `detect` on a labelled folder of photos (the layout of ddd-a).

A folder holds `images/*.jpg` and `board_state_per_image.csv` (one row per tile:
`image, image_present, tile_placed_at_move, cell_a, pips_a, cell_b, pips_b, is_new`).
Cells are `8H` = row 8, column H on a grid of `cells` x `cells` squares spanning
`grid` pixels. The grid is used here only for scoring: each detected half centre is
mapped to the cell it falls in and compared with the labels; the detector never
sees it. The play area handed to the detector is a plain rectangle (by default the
grid's outline).
"""

from __future__ import annotations

import csv
import logging
import statistics
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.detector.detect import Detection, FoundTile, detect
from vision.detector.play_area import PlayArea
from vision.errors import VisionError

logger = logging.getLogger(__name__)

DDD_A_GRID = (389.0, 606.0, 1216.0, 1438.0)
DDD_A_CELLS = 15
Cell = tuple[int, int]  # (row, column), 0-based


class BenchDataError(VisionError, FileNotFoundError):
    """A labelled folder that is missing or malformed."""


@dataclass(frozen=True, slots=True)
class Grid:
    """Where the labelled cells are in the photos (for scoring only)."""

    x0: float = DDD_A_GRID[0]
    y0: float = DDD_A_GRID[1]
    x1: float = DDD_A_GRID[2]
    y1: float = DDD_A_GRID[3]
    cells: int = DDD_A_CELLS

    def cell_of(self, x: float, y: float) -> Cell | None:
        col = int(np.floor((x - self.x0) / (self.x1 - self.x0) * self.cells))
        row = int(np.floor((y - self.y0) / (self.y1 - self.y0) * self.cells))
        if 0 <= row < self.cells and 0 <= col < self.cells:
            return (row, col)
        return None


def parse_cell(text: str) -> Cell:
    """`8H` -> (7, 7): row 1-15 then column letter A-O, both 0-based."""
    text = text.strip().upper()
    if len(text) < 2 or not text[:-1].isdigit() or not text[-1].isalpha():
        raise ValueError(f"bad cell {text!r}: expected a row number and a column letter")
    return (int(text[:-1]) - 1, ord(text[-1]) - ord("A"))


@dataclass(frozen=True, slots=True)
class LabelledTile:
    cell_a: Cell
    pips_a: int
    cell_b: Cell
    pips_b: int


def read_labels(folder: Path) -> dict[str, list[LabelledTile]]:
    """Image name -> its labelled tiles, from board_state_per_image.csv."""
    path = folder / "board_state_per_image.csv"
    if not path.is_file():
        raise BenchDataError(f"{path} is missing: a bench folder needs the labels CSV")
    out: dict[str, list[LabelledTile]] = {}
    with path.open(newline="") as fh:
        for row in csv.DictReader(fh):
            if row.get("image_present", "1").strip() == "0":
                continue
            tile = LabelledTile(
                parse_cell(row["cell_a"]),
                int(row["pips_a"]),
                parse_cell(row["cell_b"]),
                int(row["pips_b"]),
            )
            out.setdefault(row["image"].strip(), []).append(tile)
    return out


@dataclass(frozen=True, slots=True)
class PhotoScore:
    """How one photo went."""

    image: str
    labelled: int  # tiles
    detected: int  # tiles found inside the grid
    matched: int  # detections on a labelled tile's two cells
    halves_right: int  # of 2 * labelled
    tiles_right: int
    ms: float
    errors: tuple[str, ...]

    @property
    def all_right(self) -> bool:
        return self.tiles_right == self.labelled and self.detected == self.labelled


def score_photo(image: str, det: Detection, labels: list[LabelledTile], grid: Grid) -> PhotoScore:
    """Match detections to labels by the cells their half centres fall in."""
    by_cells: dict[frozenset[Cell], LabelledTile] = {
        frozenset((t.cell_a, t.cell_b)): t for t in labels
    }
    used: set[frozenset[Cell]] = set()
    detected = matched = halves = tiles = 0
    errors: list[str] = []
    for found in det.tiles:
        ca, cb = grid.cell_of(*found.px[0]), grid.cell_of(*found.px[1])
        if ca is None or cb is None:
            continue
        detected += 1
        key = frozenset((ca, cb))
        label = by_cells.get(key)
        if label is None or key in used:
            errors.append(f"extra {_show(found)} at {_cell(ca)}-{_cell(cb)}")
            continue
        used.add(key)
        matched += 1
        got = {ca: found.pips[0], cb: found.pips[1]}
        right = (got[label.cell_a] == label.pips_a) + (got[label.cell_b] == label.pips_b)
        halves += right
        tiles += right == 2
        if right < 2:
            errors.append(
                f"read {got[label.cell_a]}-{got[label.cell_b]} for {label.pips_a}-{label.pips_b}"
                f" at {_cell(label.cell_a)}-{_cell(label.cell_b)} (conf {found.confidence})"
            )
    for key, label in by_cells.items():
        if key not in used:
            errors.append(
                f"missed {label.pips_a}-{label.pips_b} at "
                f"{_cell(label.cell_a)}-{_cell(label.cell_b)}"
            )
    return PhotoScore(image, len(labels), detected, matched, halves, tiles, det.ms, tuple(errors))


def _cell(c: Cell) -> str:
    return f"{c[0] + 1}{chr(ord('A') + c[1])}"


def _show(t: FoundTile) -> str:
    return f"{t.pips[0]}-{t.pips[1]}"


@dataclass(frozen=True, slots=True)
class Summary:
    """The bench's figures over all photos."""

    photos: int
    tiles: int
    half_accuracy: float
    tile_accuracy: float
    recall: float
    precision: float
    all_right_share: float
    ms_median: float
    ms_max: float

    def lines(self) -> list[str]:
        return [
            f"photos            {self.photos}",
            f"labelled tiles    {self.tiles}",
            f"per-half accuracy {self.half_accuracy:.2%}",
            f"per-tile accuracy {self.tile_accuracy:.2%}",
            f"tile recall       {self.recall:.2%}",
            f"tile precision    {self.precision:.2%}",
            f"photos all right  {self.all_right_share:.2%}",
            f"ms per photo      median {self.ms_median:.1f}, max {self.ms_max:.1f}",
        ]


def summarise(scores: list[PhotoScore]) -> Summary:
    labelled = sum(s.labelled for s in scores)
    detected = sum(s.detected for s in scores)
    matched = sum(s.matched for s in scores)
    ms = [s.ms for s in scores] or [0.0]
    return Summary(
        photos=len(scores),
        tiles=labelled,
        half_accuracy=sum(s.halves_right for s in scores) / max(2 * labelled, 1),
        tile_accuracy=sum(s.tiles_right for s in scores) / max(labelled, 1),
        recall=matched / max(labelled, 1),
        precision=matched / max(detected, 1),
        all_right_share=sum(s.all_right for s in scores) / max(len(scores), 1),
        ms_median=statistics.median(ms),
        ms_max=max(ms),
    )


Detector = Callable[[np.ndarray, PlayArea], Detection]


def _default_detector(image: np.ndarray, area: PlayArea) -> Detection:
    return detect(image, area)


def photos(folder: Path, names: Iterable[str] | None = None) -> list[str]:
    """The labelled photo names in `folder`, sorted (or the given subset)."""
    labels = read_labels(folder)
    chosen = sorted(labels) if names is None else list(names)
    missing = [n for n in chosen if not (folder / "images" / n).is_file()]
    if missing:
        raise BenchDataError(f"{folder / 'images'}: missing {', '.join(missing[:5])}")
    return chosen


def run(
    folder: Path,
    area: PlayArea | None = None,
    grid: Grid | None = None,
    names: Iterable[str] | None = None,
    detector: Detector = _default_detector,
) -> Iterator[PhotoScore]:
    """Detect and score every labelled photo (lazily, one at a time)."""
    grid = grid or Grid()
    area = area or PlayArea.rect(grid.x0, grid.y0, grid.x1, grid.y1)
    labels = read_labels(folder)
    for name in photos(folder, names):
        image = cv2.imread(str(folder / "images" / name), cv2.IMREAD_COLOR)
        if image is None:
            raise BenchDataError(f"{folder / 'images' / name} is not a readable image")
        det = detector(np.asarray(image, dtype=np.uint8), area)
        yield score_photo(name, det, labels[name], grid)
