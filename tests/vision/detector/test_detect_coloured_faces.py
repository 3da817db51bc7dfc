"""Coloured plastic sets: faces of a saturated colour with white or yellow pips, on
tables no lighter or darker than them in any tone. Before `vision.tiles.face_colours`, none of
the tiles below was read (red, green, blue faces on felt, wood or a dark table;
pink faces with yellow pips on white paper), with `tone=auto`."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.drawn import Colour, Look, blur, draw, table
from vision.detector.detect import Settings, detect
from vision.tiles.face_colours import face_colours, face_image

VALUES = [(6, 6), (5, 6), (4, 6), (3, 6), (6, 2), (1, 6), (5, 5), (4, 5), (0, 3), (2, 5)]
ANGLES = [0.0, 90.0, 35.0, -20.0, 60.0]
RED, GREEN, BLUE, PINK = (40, 40, 200), (60, 170, 60), (200, 90, 30), (180, 150, 250)
WHITE, YELLOW = (240, 240, 240), (40, 220, 240)
FELT, WOOD, DARK, PAPER = (60, 120, 40), (60, 110, 170), (40, 40, 45), (235, 235, 235)


def _frame(face: Colour, pips: Colour, under: Colour) -> np.ndarray:
    img = table(560, 900, under)
    look = Look(face=face, pips=pips, divider=pips)
    for i, value in enumerate(VALUES):
        centre = (100.0 + (i % 5) * 170, 140.0 + (i // 5) * 260)
        draw(img, centre, value, ANGLES[i % 5], 48.0, look)
    return blur(img)


@pytest.mark.parametrize(
    ("face", "pips", "under"),
    [
        (RED, WHITE, FELT),
        (RED, WHITE, WOOD),
        (BLUE, WHITE, WOOD),
        (GREEN, WHITE, DARK),
        (PINK, YELLOW, PAPER),
    ],
)
def test_coloured_faces_are_read_with_the_tone_unknown(
    face: Colour, pips: Colour, under: Colour
) -> None:
    det = detect(_frame(face, pips, under), settings=Settings(tone=None))
    assert sorted(tuple(sorted(t.pips)) for t in det.tiles) == sorted(
        tuple(sorted(v)) for v in VALUES
    )


def test_the_faces_colour_is_found_and_made_the_bright_material() -> None:
    img = _frame(RED, WHITE, FELT)
    colours = face_colours(img)
    assert colours and np.linalg.norm(np.subtract(colours[0], RED)) < 40, colours
    bright = face_image(img, colours[0])
    # the 6-6 lies along x at (100, 140), 48 px wide: a pip of half a at (63.5, 127.5)
    face, pip, felt = bright[140, 70], bright[127, 64], bright[20, 20]
    assert face > 200 and pip < 100 and felt < 100
    assert face_colours(_frame((225, 235, 240), (20, 20, 20), FELT)) == []  # ivory: a tone
