"""The learned veto's patches on disk and the figures a net earns on them (no PyTorch).

`training.veto_data` writes patches to `.npz` files; `training.train` reports a net it
trained on validation patches, and `training.evaluate` reports a shipped ONNX file on
them through OpenCV's `dnn`, both with `shares`: per threshold, the share of each kind
of patch (`KINDS`, as `training.veto_data` labels them) the net gets right (a tile kept, a not-tile
dropped). `vision/learned/models.toml` records these figures for each shipped net.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

THRESHOLDS: Final = (0.02, 0.05, 0.1, 0.2, 0.3, 0.5)
KINDS: Final = ("drawn", "found", "false", "wrong place", "anywhere")
TILE_KINDS: Final = frozenset({"drawn", "found"})  # the kinds whose patches show a tile

Data = tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.uint8]]


class DataError(ValueError):
    """A patches file that is not what `training.veto_data` writes."""


def load(paths: list[Path]) -> Data:
    """The patches, labels and kinds of every `.npz` in `paths`, joined."""
    patches, labels, kinds = [], [], []
    for path in paths:
        try:
            with np.load(path) as data:
                patches.append(data["patches"])
                labels.append(data["labels"])
                kinds.append(data["kinds"])
        except (OSError, KeyError, ValueError) as exc:
            raise DataError(f"{path}: not a patches file of training.veto_data ({exc})") from exc
    if not patches:
        raise DataError("no patches file given")
    return np.concatenate(patches), np.concatenate(labels), np.concatenate(kinds)


def counts(kinds: npt.NDArray[np.uint8]) -> dict[str, int]:
    """How many patches of each kind (`KINDS`)."""
    per = np.bincount(kinds.astype(np.int64), minlength=len(KINDS))
    return {name: int(n) for name, n in zip(KINDS, per, strict=True)}


def shares(
    p: npt.NDArray[np.float64], labels: npt.NDArray[np.uint8], kinds: npt.NDArray[np.uint8]
) -> dict[float, dict[str, float]]:
    """Per threshold, per kind present: the share of its patches the net gets right, a
    tile scored at the threshold or more (kept), a not-tile below it (dropped)."""
    out: dict[float, dict[str, float]] = {}
    for t in THRESHOLDS:
        row: dict[str, float] = {}
        for k, name in enumerate(KINDS):
            mine = kinds == k
            if not mine.any():
                continue
            tile = bool(labels[mine][0])
            row[name] = float(np.mean(p[mine] >= t) if tile else np.mean(p[mine] < t))
        out[t] = row
    return out


def report(
    p: npt.NDArray[np.float64], labels: npt.NDArray[np.uint8], kinds: npt.NDArray[np.uint8]
) -> list[str]:
    """`shares` in words, one line per threshold."""
    n = counts(kinds)
    lines = []
    for t, row in shares(p, labels, kinds).items():
        parts = [
            f"{name} {'kept' if name in TILE_KINDS else 'dropped'} {share:.1%} of {n[name]}"
            for name, share in row.items()
        ]
        lines.append(f"threshold {t}: " + ", ".join(parts))
    return lines
