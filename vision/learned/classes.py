"""What the learned part marks in a frame: one class per pixel."""

from __future__ import annotations

from enum import IntEnum


class PixelClass(IntEnum):
    """The class of a pixel, the net's output channel of its probability."""

    TABLE = 0  # everything that is not a face-up tile's face: table, backs, hands
    FACE = 1  # a face-up tile's face
    DIVIDER = 2  # the line across a tile's middle, and a spinner pin on it
    PIP = 3  # a pip
