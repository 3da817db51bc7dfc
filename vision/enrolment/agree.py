"""One reading from several still frames of the same view, tile by tile.

A still scene read twice can read a tile two ways: a pip's highlight, the sensor's
noise, a blur that lands on one frame and not the next (a pink double-six's 6-6 read
as 7-6 in some frames and not others). The enrolment must not depend on which still
frame the timing picked: each frame is read, the tiles are matched by place (both
half centres within a third of a half's length, either way round), and a place
holds a tile when most frames read one there, with the value most of them read.
A value the set has not (a 7 in a double-six) is never a reading: it votes for no
value, and the place is read by the other frames or not at all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from engine.tiles import DominoSet
from vision.detector.results import Detection, FoundTile

NEAR = 1.0 / 3.0  # half centres this share of a half's length apart are one place


def in_set(tile: FoundTile, domino_set: DominoSet) -> bool:
    """Whether `tile` reads numbers `domino_set` has."""
    return max(tile.pips) <= domino_set.max_pip and min(tile.pips) >= 0


def _same_place(a: FoundTile, b: FoundTile) -> bool:
    (a0, a1), (b0, b1) = np.asarray(a.px), np.asarray(b.px)
    near = NEAR * float(np.linalg.norm(a1 - a0))
    straight = max(np.linalg.norm(a0 - b0), np.linalg.norm(a1 - b1))
    turned = max(np.linalg.norm(a0 - b1), np.linalg.norm(a1 - b0))
    return bool(min(straight, turned) <= near)


def agreed(detections: Sequence[Detection], domino_set: DominoSet) -> Detection:
    """The tiles most of `detections` (several still frames of one view) read at each
    place, each with the value most of them read that `domino_set` has; the first
    frame's face-down count and unsure places. One detection is returned as it is
    (with nothing to agree with, what it read, a set's number or not, is what the
    check reports: a 7-6 in a double-six is a misread 6-6)."""
    if not detections:
        return Detection(())
    if len(detections) == 1:
        return detections[0]
    places: list[list[FoundTile]] = []
    for det in detections:
        for tile in det.tiles:
            for members in places:
                if _same_place(members[0], tile):
                    members.append(tile)
                    break
            else:
                places.append([tile])
    need = len(detections) // 2 + 1
    tiles: list[FoundTile] = []
    for members in places:
        votes = Counter(
            (min(t.pips), max(t.pips)) for t in members if in_set(t, domino_set)
        ).most_common(1)
        if votes and votes[0][1] >= need:
            value = votes[0][0]
            tiles.append(next(t for t in members if (min(t.pips), max(t.pips)) == value))
    first = detections[0]
    return Detection(tuple(tiles), first.facedown, first.unsure, first.ms, first.tile_width_px)
