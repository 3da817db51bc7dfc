"""Straight lines that meet, split where they meet (`vision.tiles.meeting_lines`)."""

from __future__ import annotations

import random

import cv2
import numpy as np

from vision.tiles.dark_marks import Blobs, find_blobs
from vision.tiles.meeting_lines import _laid, split_junctions

PIP = 8.0  # the frame's pip diameter, px


def _blobs(mask: np.ndarray) -> tuple[Blobs, np.ndarray, np.ndarray]:
    grey = np.where(mask > 0, 30, 220).astype(np.uint8)
    bright = np.full_like(grey, 220)
    return find_blobs(mask, grey, bright, max_area=50_000), grey, bright


def _tee(mask: np.ndarray, x: int, y: int) -> None:
    """A divider (40 px, down) that runs into a gap across its end (60 px): a T."""
    cv2.line(mask, (x - 30, y), (x + 30, y), 1, 3)
    cv2.line(mask, (x, y), (x, y + 40), 1, 3)


def _pieces(blobs: Blobs | None, x0: int, y0: int, x1: int, y1: int) -> set[tuple[int, ...]]:
    """The measured pieces (area, centre to a pixel) of the marks inside a box."""
    assert blobs is not None
    inside = (blobs.cx >= x0) & (blobs.cx < x1) & (blobs.cy >= y0) & (blobs.cy < y1)
    keep = np.flatnonzero(inside & (blobs.area > 0))
    return {(int(blobs.area[i]), round(blobs.cx[i]), round(blobs.cy[i])) for i in keep}


def test_a_tee_splits_the_same_among_other_marks_of_every_size() -> None:
    alone = np.zeros((700, 900), np.uint8)
    _tee(alone, 100, 100)
    crowded = alone.copy()
    # a long straight line as tall as the frame, a crossing (+), and many short marks:
    # the marks are laid out together for the openings; none may change another's cut
    cv2.line(crowded, (850, 20), (850, 680), 1, 3)
    cv2.line(crowded, (600, 500), (700, 500), 1, 3)
    cv2.line(crowded, (650, 450), (650, 550), 1, 3)
    rng = random.Random(5)
    for _ in range(60):
        x, y = rng.randrange(250, 800), rng.randrange(20, 400)
        cv2.line(crowded, (x, y), (x + rng.randrange(20, 40), y + rng.randrange(-6, 6)), 1, 3)
    b, grey, bright = _blobs(alone)
    split_alone = split_junctions(b, PIP, grey, bright, 50_000)
    b, grey, bright = _blobs(crowded)
    split_crowded = split_junctions(b, PIP, grey, bright, 50_000)
    tee = _pieces(split_alone, 0, 0, 200, 200)
    assert len(tee) == 2  # the gap and the divider, apart
    assert _pieces(split_crowded, 0, 0, 200, 200) == tee
    # the crossing stays one mark, the long line too
    assert split_crowded is not None
    assert len(_pieces(split_crowded, 590, 440, 710, 560)) == 1
    assert len(_pieces(split_crowded, 840, 0, 860, 700)) == 1


def test_boxes_are_laid_apart_within_the_image() -> None:
    rng = random.Random(3)
    for n in (1, 2, 7, 60):
        sizes = [(rng.randrange(1, 80), rng.randrange(1, 80)) for _ in range(n)]
        sizes[0] = (5, 900)  # one tall mark among short ones
        gap = 11
        places, (h, w) = _laid(sizes, gap)
        boxes = [(x, y, x + bw, y + bh) for (x, y), (bw, bh) in zip(places, sizes, strict=True)]
        assert all(x1 <= w and y1 <= h and x0 >= 0 and y0 >= 0 for x0, y0, x1, y1 in boxes)
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                apart_x = a[2] + gap <= b[0] or b[2] + gap <= a[0]
                apart_y = a[3] + gap <= b[1] or b[3] + gap <= a[1]
                assert apart_x or apart_y
        # far smaller than one row of them all (as tall as the tallest, as wide as all)
        if n == 60:
            assert h * w < 0.25 * 900 * sum(bw + gap for bw, _ in sizes)
