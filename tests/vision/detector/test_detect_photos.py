"""Detection on the real labelled photos of ddd-a, read from ../shared at run time.

The thresholds sit at (or just below) what the detector achieves; the labels come
from the set's CSV, the cell grid is used only to score. Each photo's reading, cell by
cell, is pinned by the photo table (`tests/vision/photo_table.toml`).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision import photo_table
from vision.detector.accuracy import (
    DDD_A_GRID,
    Grid,
    PhotoScore,
    read_labels,
    score_photo,
    summarise,
)
from vision.detector.detect import detect

pytestmark = pytest.mark.photos


@pytest.fixture(scope="module")
def ddd_a(shared_dir: Path) -> Path:
    folder = shared_dir / "data" / "vision" / "ddd-a"
    if not (folder / "board_state_per_image.csv").is_file():
        pytest.fail(f"{folder} is missing its labels: the photo tests need ../shared")
    return folder


@pytest.fixture(scope="module")
def all_scores(ddd_a: Path) -> list[PhotoScore]:
    """Every photo scored, as the table's test reads it (read once in a worker)."""
    labels = read_labels(ddd_a)
    return [
        score_photo(name, photo_table.detection("ddd-a", name, ddd_a.parent), labels[name], Grid())
        for name in sorted(labels)
    ]


def test_accuracy_on_all_sixty_photos(all_scores: list[PhotoScore]) -> None:
    s = summarise(all_scores)
    assert s.photos == 60
    assert s.tiles == 630
    errors = [f"{p.image}: {e}" for p in all_scores for e in p.errors]
    assert s.half_accuracy >= 0.998, errors
    assert s.tile_accuracy >= 0.995, errors
    assert s.recall >= 0.995, errors
    assert s.precision >= 0.995, errors
    assert s.all_right_share >= 0.95, errors


def test_score_track_outside_the_play_area_is_ignored(ddd_a: Path) -> None:
    """The printed dominoes on the score track are found without a play area only."""
    image = np.asarray(cv2.imread(str(ddd_a / "images" / "1_01.jpg")), np.uint8)
    inside = photo_table.detection("ddd-a", "1_01.jpg", ddd_a.parent)  # in the grid's outline
    assert len(inside.tiles) == 1
    x0, y0, x1, y1 = DDD_A_GRID
    for t in inside.tiles:
        for x, y in t.px:
            assert x0 <= x <= x1 and y0 <= y <= y1
    everywhere = detect(image)
    outside = [
        t for t in everywhere.tiles if not all(x0 <= x <= x1 and y0 <= y <= y1 for x, y in t.px)
    ]
    assert len(outside) >= 20  # the printed track is full of domino pictures
