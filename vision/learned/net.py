"""The learned veto's networks, run by OpenCV's `dnn` on the CPU.

`veto_a.onnx` and `veto_b.onnx` (package data, next to this module; trained by
`training/train.py` on the project's own renders, never on photos, the second with
more lookalike frames) are two small convolutional nets of the same shape: for each
candidate tile's patch (`vision.learned.patches`), the logit that it is a tile. A
candidate's probability is the larger of the two: a tile is vetoed only when both
nets, trained apart, reject it (one run's blind spot costs no tile). They are read
once per thread (an OpenCV `Net` is not safe to share between threads) and nothing is
downloaded.
"""

from __future__ import annotations

import threading
from importlib import resources
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import VisionError
from vision.learned.patches import ACROSS, LONG, Image, net_input

MODELS: Final = ("veto_a.onnx", "veto_b.onnx")

_local = threading.local()


class LearnedError(VisionError):
    """The learned part's model is missing or unreadable, or its input is wrong."""


def model_bytes(name: str) -> bytes:
    """The ONNX model `name` shipped with the package."""
    try:
        return resources.files("vision.learned").joinpath(name).read_bytes()
    except OSError as exc:
        raise LearnedError(
            f"vision/learned/{name} is missing from the installed package ({exc}): "
            "reinstall domino-table"
        ) from exc


def _nets() -> list[cv2.dnn.Net]:
    nets: list[cv2.dnn.Net] | None = getattr(_local, "nets", None)
    if nets is None:
        nets = []
        for name in MODELS:
            data = np.frombuffer(model_bytes(name), dtype=np.uint8)
            try:
                nets.append(cv2.dnn.readNetFromONNX(data))
            except cv2.error as exc:
                raise LearnedError(
                    f"vision/learned/{name} cannot be read by OpenCV: {exc}"
                ) from exc
        _local.nets = nets
    return nets


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
