"""A divider broken by a spinner pin (`vision.tiles.dividers.with_pins`): a thin line
with a round head at its middle is measured by its arms; a cross, a corner, a pip
off a line's middle, two pips joined and a plain line are left as measured."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.tiles.dark_marks import Blobs, find_blobs
from vision.tiles.dividers import elongated, with_pins


def _blobs(mask: np.ndarray) -> Blobs:
    grey = np.where(mask > 0, 30, 220).astype(np.uint8)
    return find_blobs(mask, grey, np.full_like(grey, 220), max_area=5000)


def _pinned(length: int, head: int, angle: float = 0.0, at: float = 0.5) -> np.ndarray:
    """A 2 px line `length` long at `angle` degrees, a disc of radius `head` at share
    `at` of it, on a 160 px square."""
    mask = np.zeros((160, 160), np.uint8)
    ux, uy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    x0, y0 = 80 - length / 2 * ux, 80 - length / 2 * uy
    end = (round(x0 + length * ux), round(y0 + length * uy))
    cv2.line(mask, (round(x0), round(y0)), end, 1, 2)
    cv2.circle(mask, (round(x0 + at * length * ux), round(y0 + at * length * uy)), head, 1, -1)
    return mask


@pytest.mark.parametrize(
    ("length", "head", "angle"),
    # a domed pin 10-18 px across on a 2 px divider 30-60 px long (the far view of a
    # pinned set: dbu__1680906009527's pins are 9-12 px on 2-3 px dividers 30 px long)
    [(30, 5, 0.0), (30, 5, 90.0), (30, 5, 160.0), (60, 9, 30.0), (60, 9, 160.0)],
)
def test_a_line_with_a_domed_pin_at_its_middle_is_a_divider_as_long_as_its_arms(
    length: int, head: int, angle: float
) -> None:
    blobs = _blobs(_pinned(length, head, angle))
    assert 1 not in elongated(blobs)  # as one blob: too short and thick for a divider
    pinned = with_pins(blobs)
    assert 1 in elongated(pinned)
    assert pinned.length[1] == pytest.approx(length + 2, abs=2.5)  # the line's round caps
    assert pinned.thickness[1] < 3.0
    assert (pinned.cx[1], pinned.cy[1]) == pytest.approx((80, 80), abs=1.0)


def test_a_pin_a_little_off_the_middle_still_makes_a_divider() -> None:
    blobs = _blobs(_pinned(30, 5, at=0.42))
    assert 1 not in elongated(blobs)
    assert 1 in elongated(with_pins(blobs))


@pytest.mark.parametrize(
    "shape", ["cross", "corner", "pip off the middle", "two pips joined", "plain line"]
)
def test_other_marks_are_measured_as_they_are(shape: str) -> None:
    # each but the plain line is as short and thick as a pinned divider seen from
    # far (a candidate), and has no round head at its middle
    mask = np.zeros((160, 160), np.uint8)
    if shape == "cross":  # two lines crossing (a scratch over a divider)
        cv2.line(mask, (65, 80), (95, 80), 1, 2)
        cv2.line(mask, (80, 72), (80, 88), 1, 2)
    elif shape == "corner":  # an L with a blot at its corner (a printed square's)
        cv2.line(mask, (65, 80), (95, 80), 1, 2)
        cv2.line(mask, (65, 80), (65, 100), 1, 2)
        cv2.circle(mask, (65, 80), 5, 1, -1)
    elif shape == "pip off the middle":  # a pip touching a divider near its end
        cv2.line(mask, (65, 80), (95, 80), 1, 2)
        cv2.circle(mask, (88, 80), 6, 1, -1)
    elif shape == "two pips joined":  # two pips joined by a scratch
        cv2.circle(mask, (72, 80), 6, 1, -1)
        cv2.circle(mask, (88, 80), 6, 1, -1)
        cv2.line(mask, (72, 80), (88, 80), 1, 2)
    else:  # a plain divider
        cv2.line(mask, (50, 80), (110, 80), 1, 2)
    blobs = _blobs(mask)
    pinned = with_pins(blobs)
    assert pinned.length.tolist() == blobs.length.tolist()
    assert pinned.thickness.tolist() == blobs.thickness.tolist()
    assert pinned.cx.tolist() == blobs.cx.tolist()
