"""Detection on the real labelled photos of ddd-a, read from ../shared at run time.

The thresholds sit at (or just below) what the detector achieves; the labels come
from the set's CSV, the cell grid is used only to score.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detector.accuracy import DDD_A_GRID, Grid, PhotoScore, read_labels, run, summarise
from vision.detector.detect import detect
from vision.detector.play_area import PlayArea
from vision.detector.results import UnsureReason

# Photos that once broke the detector, checked tile by tile:
HARD = {
    "1_01.jpg": "a lone tile touching the printed 'Double' lettering",
    "1_06.jpg": "a patch of table enclosed by tiles and stars",
    "2_04.jpg": "a double touching tiles on both long sides",
    "2_01.jpg": "a tile whose divider competes with gold script",
    "1_20.jpg": "twenty tiles in touching rows",
    "3_20.jpg": "twenty tiles, doubles in line",
}


@pytest.fixture(scope="module")
def ddd_a(shared_dir: Path) -> Path:
    folder = shared_dir / "data" / "vision" / "ddd-a"
    if not (folder / "board_state_per_image.csv").is_file():
        pytest.fail(f"{folder} is missing its labels: the photo tests need ../shared")
    return folder


@pytest.fixture(scope="module")
def all_scores(ddd_a: Path) -> list[PhotoScore]:
    return list(run(ddd_a))


@pytest.mark.slow
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


@pytest.mark.parametrize("name", sorted(HARD))
def test_hard_photo_tile_by_tile(ddd_a: Path, name: str) -> None:
    labels = read_labels(ddd_a)[name]
    image = cv2.imread(str(ddd_a / "images" / name))
    assert image is not None, name
    grid = Grid()
    det = detect(np.asarray(image, np.uint8), PlayArea.rect(*DDD_A_GRID))
    seen = {}
    for t in det.tiles:
        ca, cb = grid.cell_of(*t.px[0]), grid.cell_of(*t.px[1])
        assert ca is not None and cb is not None, f"{name} ({HARD[name]}): {t} off the grid"
        seen[frozenset((ca, cb))] = {ca: t.pips[0], cb: t.pips[1]}
    want = {
        frozenset((lab.cell_a, lab.cell_b)): {lab.cell_a: lab.pips_a, lab.cell_b: lab.pips_b}
        for lab in labels
    }
    assert seen == want, f"{name} ({HARD[name]})"
    assert det.facedown == 0


def test_score_track_outside_the_play_area_is_ignored(ddd_a: Path) -> None:
    """The printed dominoes on the score track are found without a play area only."""
    image = np.asarray(cv2.imread(str(ddd_a / "images" / "1_01.jpg")), np.uint8)
    inside = detect(image, PlayArea.rect(*DDD_A_GRID))
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


@pytest.mark.parametrize("name", ["1_09.jpg", "2_13.jpg", "2_18.jpg", "3_17.jpg"])
def test_printed_figures_on_the_board_are_no_stray_pips(ddd_a: Path, name: str) -> None:
    """Round printed digits on the board's stars are pip-sized marks on light
    material outside every tile; they are much paler than pips, and a table that
    saw them as the pips of an unread tile would never judge a play there."""
    image = np.asarray(cv2.imread(str(ddd_a / "images" / name)), np.uint8)
    det = detect(image, PlayArea.rect(*DDD_A_GRID))
    assert len(det.tiles) == len(read_labels(ddd_a)[name])
    assert [u for u in det.unsure if u.reason == UnsureReason.STRAY_PIPS] == []
