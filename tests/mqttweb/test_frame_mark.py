"""A history frame names its game and event inside the image, where viewers ignore it."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from mqttweb.frame_mark import mark_image, read_mark


def picture(ext: str) -> tuple[bytes, Any]:
    image = np.zeros((40, 60, 3), np.uint8)
    cv2.circle(image, (30, 20), 12, (40, 200, 90), -1)
    ok, data = cv2.imencode(ext, image)
    assert ok
    pixels = cv2.imdecode(data, cv2.IMREAD_COLOR)
    assert pixels is not None
    return bytes(data.tobytes()), pixels


@pytest.mark.parametrize("ext", [".jpg", ".png"])
def test_a_marked_picture_names_its_event_and_shows_the_same(ext: str) -> None:
    data, pixels = picture(ext)
    marked = mark_image(data, "20261122T041400123Z", 1234)
    assert read_mark(marked) == {"game_id": "20261122T041400123Z", "seq": 1234}
    again = cv2.imdecode(np.frombuffer(marked, np.uint8), cv2.IMREAD_COLOR)
    assert again is not None and np.array_equal(again, pixels)  # not one pixel changed
    assert read_mark(data) is None  # an unmarked picture names nothing
    odd = mark_image(data, 'a "quoted" ñame', 1)  # any game id survives JSON
    assert read_mark(odd) == {"game_id": 'a "quoted" ñame', "seq": 1}


def test_only_a_jpeg_or_a_png_can_be_marked() -> None:
    with pytest.raises(ValueError, match="not a JPEG or a PNG"):
        mark_image(b"GIF89a...", "g", 1)
    assert read_mark(b"GIF89a domino-table-history {}") is None
