"""Coloured faces: a tile-bright image made from the colour of the tiles' faces.

The three tones (`vision.tiles.dark_marks.tone_image`) suit faces that are light, dark or
coloured like wood against a table of another tone. A red, green, blue or pink
plastic set is neither lighter nor darker than a felt or a wooden table in any of
them. Its faces share one colour that the table does not have: `face_colours`
finds such colours in the frame (a few large clusters of saturated colour that are
not the table's), and `face_image` makes each pixel as bright as it is close to one
of them. The faces are then the bright material, and pips of any other colour
(white, yellow, black) and the table are dark.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.tiles.settings import FACE_COLOURS, FaceColourSettings

U8 = NDArray[np.uint8]
Colour = tuple[float, float, float]


def face_colours(bgr: U8, cfg: FaceColourSettings = FACE_COLOURS) -> list[Colour]:
    """Saturated colours that cover a tile-like share of the frame and are not the
    table's (its largest cluster), most common first."""
    h, w = bgr.shape[:2]
    f = max(1, max(h, w) // cfg.look_px)
    small = cv2.resize(bgr, (max(1, w // f), max(1, h // f)), interpolation=cv2.INTER_AREA)
    pts = small.reshape(-1, 3).astype(np.float32)
    if pts.shape[0] < cfg.clusters:
        return []
    cv2.setRNGSeed(13)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    start = np.zeros((pts.shape[0], 1), np.int32)
    _, found, middles = cv2.kmeans(pts, cfg.clusters, start, criteria, 2, cv2.KMEANS_PP_CENTERS)
    labels = np.asarray(found, dtype=np.int64).ravel()
    centres = np.asarray(middles, dtype=np.float64)
    share = np.bincount(labels, minlength=cfg.clusters) / float(pts.shape[0])
    table = centres[int(np.argmax(share))]
    out: list[tuple[float, Colour]] = []
    for c, s in zip(centres, share, strict=True):
        chroma = float(c.max() - c.min())
        apart = float(np.linalg.norm(c - table))
        if (
            cfg.min_share <= s <= cfg.max_share
            and chroma >= cfg.min_chroma
            and apart >= cfg.min_apart
        ):
            out.append((float(s), (float(c[0]), float(c[1]), float(c[2]))))
    out.sort(key=lambda x: -x[0])
    return [c for _, c in out[: cfg.faces]]


def face_image(bgr: U8, face: Colour, cfg: FaceColourSettings = FACE_COLOURS) -> U8:
    """255 on the face's colour, darker the farther a pixel's colour lies from it
    (0 at `FaceColourSettings.reach`). A face in shade keeps its hue and is still near."""
    diff = bgr.astype(np.float32) - np.asarray(face, dtype=np.float32)
    dist = np.sqrt((diff * diff).sum(axis=2))
    return np.asarray(np.clip(255.0 - dist * (255.0 / cfg.reach), 0, 255), dtype=np.uint8)
