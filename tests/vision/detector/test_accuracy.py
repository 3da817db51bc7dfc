"""The accuracy bench: labels, matching by cell, figures, and its command."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from tests.fixtures.tiers import needs
from vision.detector.accuracy import (
    BenchDataError,
    Grid,
    LabelledTile,
    parse_cell,
    read_labels,
    score_photo,
    summarise,
)
from vision.detector.detect import Detection, FoundTile


def test_cells_are_row_then_column() -> None:
    assert parse_cell("8H") == (7, 7)
    assert parse_cell("15o") == (14, 14)
    assert parse_cell("1A") == (0, 0)
    with pytest.raises(ValueError, match="bad cell"):
        parse_cell("H8")


def test_grid_maps_pixels_to_cells() -> None:
    grid = Grid(0, 0, 150, 150, 15)
    assert grid.cell_of(5, 5) == (0, 0)
    assert grid.cell_of(145, 15) == (1, 14)
    assert grid.cell_of(151, 5) is None


def _tile(pips: tuple[int, int], a: tuple[float, float], b: tuple[float, float]) -> FoundTile:
    return FoundTile(pips, (a, b), 1.0)


def test_scoring_matches_by_cells_in_either_order() -> None:
    grid = Grid(0, 0, 150, 150, 15)
    labels = [
        LabelledTile((0, 0), 6, (0, 1), 1),
        LabelledTile((2, 2), 3, (3, 2), 3),
        LabelledTile((5, 5), 0, (5, 6), 4),
    ]
    det = Detection(
        tiles=(
            _tile((1, 6), (15, 5), (5, 5)),  # right, halves listed b first
            _tile((3, 2), (25, 25), (25, 35)),  # one half wrong
            _tile((2, 2), (105, 105), (115, 105)),  # nothing there
            _tile((5, 5), (400, 400), (410, 400)),  # off the grid: not counted
        ),
        ms=12.0,
    )
    s = score_photo("x.jpg", det, labels, grid)
    assert (s.labelled, s.detected, s.matched) == (3, 3, 2)
    assert (s.halves_right, s.tiles_right) == (3, 1)
    assert not s.all_right
    assert any(e.startswith("missed 0-4") for e in s.errors)
    assert any(e.startswith("extra 2-2") for e in s.errors)
    assert any(e.startswith("read 3-2 for 3-3") for e in s.errors)
    summary = summarise([s])
    assert summary.half_accuracy == pytest.approx(0.5)
    assert summary.recall == pytest.approx(2 / 3)
    assert summary.precision == pytest.approx(2 / 3)
    assert summary.ms_median == 12.0


@pytest.mark.photos
def test_labels_of_ddd_a(shared_dir: Path) -> None:
    labels = read_labels(shared_dir / "data" / "vision" / "ddd-a")
    assert len(labels) == 60
    assert sum(len(v) for v in labels.values()) == 630
    assert labels["1_01.jpg"] == [LabelledTile((7, 7), 6, (7, 8), 1)]


def test_missing_labels_are_an_error(tmp_path: Path) -> None:
    with pytest.raises(BenchDataError, match=r"board_state_per_image\.csv"):
        read_labels(tmp_path)


@pytest.fixture
@needs("photos")
def small_set(shared_dir: Path, tmp_path: Path) -> Path:
    """Three ddd-a photos linked (not copied) into a bench folder of their own."""
    source = shared_dir / "data" / "vision" / "ddd-a"
    names = ["1_05.jpg", "2_04.jpg", "3_10.jpg"]
    (tmp_path / "images").mkdir()
    for n in names:
        (tmp_path / "images" / n).symlink_to(source / "images" / n)
    with (source / "board_state_per_image.csv").open(newline="") as src:
        rows = list(csv.reader(src))
    with (tmp_path / "board_state_per_image.csv").open("w", newline="") as dst:
        csv.writer(dst).writerows([rows[0], *[r for r in rows[1:] if r[0] in names]])
    return tmp_path


def test_bench_command_prints_the_figures(small_set: Path) -> None:
    result = CliRunner().invoke(cli, ["vision", "bench", str(small_set), "--errors"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "photos            3" in out
    assert "per-half accuracy 100.00%" in out
    assert "per-tile accuracy 100.00%" in out
    assert "tile recall       100.00%" in out
    assert "tile precision    100.00%" in out
    assert "photos all right  100.00%" in out
    assert "ms per photo      median" in out


def test_bench_command_on_a_folder_without_labels(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["vision", "bench", str(tmp_path)])
    assert result.exit_code == 1
    assert "board_state_per_image.csv" in result.output
