"""Drawing a detection over its frame, for people checking what was found."""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.detector.detect import Detection
from vision.detector.play_area import PlayArea

GREEN = (60, 200, 60)
AMBER = (0, 170, 255)
RED = (40, 40, 230)
BLUE = (230, 120, 30)


def draw(
    frame: NDArray[np.uint8], det: Detection, area: PlayArea | None = None
) -> NDArray[np.uint8]:
    """A copy of `frame` with the play area, the tiles read and the unsure places drawn."""
    out = frame.copy() if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    width = det.tile_width_px or 40.0
    thick = max(1, int(width / 25))
    if area is not None:
        pts = np.rint(np.asarray(area.corners)).astype(np.int32)
        cv2.polylines(out, [pts], isClosed=True, color=BLUE, thickness=thick)
    for tile in det.tiles:
        colour = GREEN if tile.confidence >= 0.9 else AMBER
        (xa, ya), (xb, yb) = tile.px
        a = (round(xa), round(ya))
        b = (round(xb), round(yb))
        cv2.line(out, a, b, colour, thick)
        for (x, y), pips in zip((a, b), tile.pips, strict=True):
            cv2.circle(out, (x, y), int(width * 0.42), colour, thick)
            cv2.putText(
                out,
                str(pips),
                (x - int(width * 0.15), y + int(width * 0.15)),
                cv2.FONT_HERSHEY_SIMPLEX,
                width / 60.0,
                colour,
                thick,
                cv2.LINE_AA,
            )
    for u in det.unsure:
        c = (round(u.x), round(u.y))
        r = int(width * 0.4)
        cv2.line(out, (c[0] - r, c[1] - r), (c[0] + r, c[1] + r), RED, thick)
        cv2.line(out, (c[0] - r, c[1] + r), (c[0] + r, c[1] - r), RED, thick)
    return np.asarray(out, dtype=np.uint8)
