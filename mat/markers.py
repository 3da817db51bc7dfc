"""The markers' black and white modules, from OpenCV's ArUco dictionary (DICT_4X4_50,
the one `vision.calibration` finds): what the PDF prints and the renderer draws."""

from __future__ import annotations

from functools import cache
from typing import Final

import cv2
import numpy as np

from mat.layout import DICTIONARY_SIZE

__all__ = ["MODULES", "modules"]

MODULES: Final = 6  # a 4x4 marker is 6 modules wide with its black border


@cache
def modules(marker_id: int) -> tuple[tuple[bool, ...], ...]:
    """The marker's modules row by row from its top, True where black (border included)."""
    if not 0 <= marker_id < DICTIONARY_SIZE:
        raise ValueError(
            f"marker id {marker_id}: the dictionary has ids 0 to {DICTIONARY_SIZE - 1}"
        )
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    image = np.asarray(cv2.aruco.generateImageMarker(dictionary, marker_id, MODULES))
    return tuple(tuple(bool(v < 128) for v in row) for row in image)
