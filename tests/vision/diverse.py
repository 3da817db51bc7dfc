"""The real photos of `../shared/data/vision/diverse-dev`, read at run time (never copied):
one photo by name, and its labelled tiles.

Every photo's reading is pinned by the photo table (`tests/vision/photo_table.toml`);
these helpers serve the tests that look at one photo more closely (the learned veto's);
the whole set is scored by `benchmarks/vision.py`.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.detector.results import Detection


def folder(shared_dir: Path) -> Path:
    where = shared_dir / "data" / "vision" / "diverse-dev"
    if not (where / "labels.json").is_file():
        pytest.fail(f"{where} is missing its labels: these tests read the diverse-dev photos")
    return where


def photo(shared_dir: Path, name: str) -> NDArray[np.uint8]:
    """The photo `name` (BGR)."""
    image = cv2.imread(str(folder(shared_dir) / "images" / name), cv2.IMREAD_COLOR)
    if image is None:
        pytest.fail(f"{name}: not readable in {folder(shared_dir)}")
    return np.asarray(image, dtype=np.uint8)


def labelled(shared_dir: Path, name: str) -> Counter[tuple[int, int]]:
    """The face-up tiles labelled on photo `name`, each as (low, high)."""
    entry = json.loads((folder(shared_dir) / "labels.json").read_text())["images"][name]
    return Counter((min(a, b), max(a, b)) for a, b in entry["tiles"])


def read(det: Detection) -> Counter[tuple[int, int]]:
    """The tiles a detection read, each as (low, high)."""
    return Counter((min(t.pips), max(t.pips)) for t in det.tiles)
