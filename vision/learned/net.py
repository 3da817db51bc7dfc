"""The learned veto's networks, run by OpenCV's `dnn` on the CPU.

The nets `vision/learned/models.toml` records (`vision.learned.manifest`: today
`veto_a.onnx` and `veto_b.onnx`, package data next to this module, trained by
`training/` on the project's own renders, never on photos, the second with more
lookalike frames) are small convolutional nets of the same shape: for each candidate
tile's patch (`vision.learned.patches`), the logit that it is a tile. A candidate's
probability is the larger of the nets': a tile is vetoed only when every net, each
trained apart, rejects it (one run's blind spot costs no tile). Each file is run only
when its sha256 is the one the manifest records. They are read once per thread (an
OpenCV `Net` is not safe to share between threads) and nothing is downloaded.
"""

from __future__ import annotations

import threading

import cv2
import numpy as np
import numpy.typing as npt

from vision.learned.manifest import FOLDER, LearnedError, Net, checked_bytes, nets
from vision.learned.patches import ACROSS, LONG, Image, net_input

_local = threading.local()


def _net(net: Net) -> cv2.dnn.Net:
    if (net.width, net.height) != (LONG, ACROSS):
        raise LearnedError(
            f"{FOLDER}/{net.file} takes patches of {net.width} x {net.height} pixels, "
            f"this package cuts {LONG} x {ACROSS}: reinstall domino-table"
        )
    data = np.frombuffer(checked_bytes(net), dtype=np.uint8)
    try:
        return cv2.dnn.readNetFromONNX(data)
    except cv2.error as exc:
        raise LearnedError(f"{FOLDER}/{net.file} cannot be read by OpenCV: {exc}") from exc


def _nets() -> list[cv2.dnn.Net]:
    loaded: list[cv2.dnn.Net] | None = getattr(_local, "nets", None)
    if loaded is None:
        loaded = [_net(net) for net in nets()]
        _local.nets = loaded
    return loaded


def tile_odds(stack: Image) -> npt.NDArray[np.float32]:
    """For each patch of `stack` (n, ACROSS, LONG, 3) BGR, the probability 0..1 that it
    shows a tile (the larger of the nets'): (n,) float32."""
    if stack.ndim != 4 or stack.shape[1:] != (ACROSS, LONG, 3):
        raise LearnedError(f"patches (n, {ACROSS}, {LONG}, 3) are needed, not {stack.shape}")
    if len(stack) == 0:
        return np.zeros(0, dtype=np.float32)
    x = net_input(stack)
    logits = np.full(len(stack), -np.inf, dtype=np.float32)
    for net in _nets():
        net.setInput(x)
        logits = np.maximum(logits, np.asarray(net.forward(), dtype=np.float32).reshape(-1))
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(logits, -30, 30))), dtype=np.float32)
