"""The learned part of the camera (issue 26): a veto on the detector's tiles.

Two small nets of one shape, trained apart by `training/` on the project's own renders
only (never on photos), look at each tile the hand-tuned detector found, turned and
scaled to a fixed patch (`vision.learned.patches`: the tile and half a width around
it), and say how sure they are that a tile lies there: a face over the rectangle, a
divider across its middle, table beyond its ends; the surer of the two counts, so a
tile is vetoed only when both reject it (`vision.detector.detect` drops the tiles
scored below `Settings.veto`). Their weights (`veto_a.onnx`, `veto_b.onnx`, package
data) run through OpenCV's `dnn` on the CPU, each only when its sha256 is the one
`models.toml` records beside it (`vision.learned.manifest`); nothing is downloaded.

- `tile_scores(frame, tiles)`: 0..1 for each candidate given by its half centres;
- `patch(frame, px)`, `patches(frame, tiles)`: the patches the nets see;
- `tile_odds(patches)`: the nets on patches already cut;
- `LearnedError`: a model missing, unreadable or not the recorded one, or bad input.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from vision.learned.manifest import LearnedError
from vision.learned.net import tile_odds
from vision.learned.patches import Candidate, Image, patch, patches

__all__ = ["LearnedError", "patch", "patches", "tile_odds", "tile_scores"]


def tile_scores(frame: Image, tiles: Sequence[Candidate]) -> npt.NDArray[np.float32]:
    """How sure the net is that each candidate (`FoundTile.px`: its half centres, frame
    pixels) is a tile: (n,) 0..1. `frame` is BGR (h, w, 3) uint8."""
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise LearnedError(
            f"a BGR uint8 frame (h, w, 3) is needed, not {frame.dtype} {frame.shape}"
        )
    return tile_odds(patches(frame, tiles))
