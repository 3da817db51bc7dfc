"""A pip joined to a divider's end (`vision.tiles.meeting_lines.split_heads`): the
mark, neither a divider nor a pip as one, is split into a line measured alone and a
pip of its own. A pin at a line's middle, pips joined to each other, a line with a
pip at both ends and a plain line are left as they were.

(mf__domino's 4-6, in a hand standing on edge and seen at a slant: a blurred pip
of its 6 joined the end of its divider, one mark 36 px long and 14 px thick, and the
tile was not found; the photo table, `tests/vision/photo_table.toml`, pins its reading.)"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.tiles.dark_marks import Blobs, find_blobs
from vision.tiles.dividers import elongated
from vision.tiles.meeting_lines import split_heads

PIP = 10.0  # the frame's pip diameter, px


def _blobs(mask: np.ndarray) -> tuple[Blobs, np.ndarray, np.ndarray]:
    grey = np.where(mask > 0, 30, 220).astype(np.uint8)
    bright = np.full_like(grey, 220)
    return find_blobs(mask, grey, bright, max_area=5000), grey, bright


def _line(mask: np.ndarray, length: float, angle: float, thick: int = 3) -> tuple[float, float]:
    """A line `length` px long at `angle` degrees through (80, 80); its unit vector."""
    ux, uy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    h = length / 2
    cv2.line(
        mask,
        (round(80 - h * ux), round(80 - h * uy)),
        (round(80 + h * ux), round(80 + h * uy)),
        1,
        thick,
    )
    return ux, uy


def _pip(mask: np.ndarray, along: float, ux: float, uy: float, across: float = 0.0) -> None:
    """A pip `along` px from (80, 80) on the line, `across` px beside it."""
    x, y = 80 + along * ux - across * uy, 80 + along * uy + across * ux
    cv2.circle(mask, (round(x), round(y)), round(PIP / 2), 1, -1)


@pytest.mark.parametrize(
    ("angle", "along", "across"),
    # beside the line's last third, touching it (mf__domino's: 11 px from the middle
    # of a 35 px line, 8 px beside it; a line already thin with its pip is a divider)
    [
        (0.0, 11.0, 7.0),
        (90.0, 12.0, -7.0),
        (38.0, 10.0, 7.0),
        (140.0, 11.0, 6.0),
        (-20.0, 9.0, -7.0),
    ],
)
def test_a_pip_at_a_dividers_end_is_split_from_it(
    angle: float, along: float, across: float
) -> None:
    mask = np.zeros((160, 160), np.uint8)
    ux, uy = _line(mask, 30, angle)
    _pip(mask, along, ux, uy, across)
    blobs, grey, bright = _blobs(mask)
    assert len(blobs) == 2 and 1 not in elongated(blobs)  # one mark: no divider
    split = split_heads(blobs, PIP, grey, bright, 5000)
    assert split is not None
    lines = elongated(split)
    assert len(lines) == 1
    i = int(lines[0])
    assert split.length[i] == pytest.approx(31, abs=4.0)  # the line alone (30 px, its caps)
    assert split.thickness[i] < 5.5
    assert (split.cx[i], split.cy[i]) == pytest.approx((80, 80), abs=3.5)
    pips = [j for j in range(1, len(split)) if split.area[j] > 0 and j != i]
    assert len(pips) == 1  # the pip, a mark of its own
    assert split.area[pips[0]] == pytest.approx(math.pi * (PIP / 2) ** 2, rel=0.35)
    assert split.length[pips[0]] < 1.4 * split.thickness[pips[0]]  # round


@pytest.mark.parametrize(
    "shape", ["pin at the middle", "two pips joined", "three pips in a row", "pips at both ends"]
)
def test_other_marks_are_left_as_they_are(shape: str) -> None:
    mask = np.zeros((160, 160), np.uint8)
    if shape == "pin at the middle":  # a spinner pin (`dividers.with_pins`)
        ux, uy = _line(mask, 34, 0.0, 3)
        _pip(mask, 0.0, ux, uy)
    elif shape == "two pips joined":  # by a scratch a divider's length
        ux, uy = _line(mask, 30, 30.0, 3)
        _pip(mask, -15, ux, uy)
        _pip(mask, 15, ux, uy)
    elif shape == "three pips in a row":  # a 6's column merged
        for along in (-9.0, 0.0, 9.0):
            _pip(mask, along, 1.0, 0.0)
    else:  # a divider that two pips touch, one at each end
        ux, uy = _line(mask, 30, 60.0)
        _pip(mask, -15 - PIP / 2, ux, uy)
        _pip(mask, 15 + PIP / 2, ux, uy)
    blobs, grey, bright = _blobs(mask)
    assert len(blobs) == 2  # one mark
    assert split_heads(blobs, PIP, grey, bright, 5000) is None


def test_a_plain_divider_and_an_unknown_pip_size_split_nothing() -> None:
    mask = np.zeros((160, 160), np.uint8)
    _line(mask, 40, 20.0)
    blobs, grey, bright = _blobs(mask)
    assert 1 in elongated(blobs)
    assert split_heads(blobs, PIP, grey, bright, 5000) is None
    mask[:] = 0
    ux, uy = _line(mask, 30, 0.0)
    _pip(mask, 15 + PIP / 2, ux, uy)
    blobs, grey, bright = _blobs(mask)
    assert split_heads(blobs, 0.0, grey, bright, 5000) is None
