"""The learned part of the camera (issue 26): a small net marks, per pixel, table, a
tile's face, its divider and its pips; geometry reads tiles from those marks.

Trained by `training/train.py` on the project's own renders only (never on photos),
its weights (`tiles.onnx`, package data) run by OpenCV's `dnn` on the CPU:

- `pixel_masks(frame, hint_width_px=None)`: the net's marks of a frame, at a scale
  where its tiles are about 36 px wide (`Masks`; `Masks.width_px` the tiles' width it
  found in the frame);
- `Masks.tile_scores(tiles)`, `Masks.evidence(px)`: what the net sees of candidate
  tiles given by their half centres (`Evidence`: tile material over the rectangle, a
  divider across its middle, the pips per half; `score` 0..1);
- `read_tiles(frame)`: the tiles the learned part reads alone (`Reading`).
"""

from __future__ import annotations

from vision.learned.classes import PixelClass
from vision.learned.evidence import Evidence
from vision.learned.look import pixel_masks
from vision.learned.masks import Masks
from vision.learned.net import LearnedError, probabilities
from vision.learned.reading import Reading, read_masks, read_tiles

__all__ = [
    "Evidence",
    "LearnedError",
    "Masks",
    "PixelClass",
    "Reading",
    "pixel_masks",
    "probabilities",
    "read_masks",
    "read_tiles",
]
