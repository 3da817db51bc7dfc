"""The learned veto's network, run by OpenCV's `dnn` on the CPU.

`veto.onnx` (package data, next to this module; trained by `training/veto_train.py` on
the project's own renders, never on photos) is a small convolutional net: for each
candidate tile's patch (`vision.learned.patches`), the logit that it is a tile. It is
read once per thread (an OpenCV `Net` is not safe to share between threads) and
nothing is downloaded.
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

MODEL: Final = "veto.onnx"

_local = threading.local()


class LearnedError(VisionError):
    """The learned part's model is missing or unreadable, or its input is wrong."""


def model_bytes() -> bytes:
    """The ONNX model shipped with the package."""
    try:
        return resources.files("vision.learned").joinpath(MODEL).read_bytes()
    except OSError as exc:
        raise LearnedError(
            f"vision/learned/{MODEL} is missing from the installed package ({exc}): "
            "reinstall domino-table"
        ) from exc


def _net() -> cv2.dnn.Net:
    net: cv2.dnn.Net | None = getattr(_local, "net", None)
    if net is None:
        data = np.frombuffer(model_bytes(), dtype=np.uint8)
        try:
            net = cv2.dnn.readNetFromONNX(data)
        except cv2.error as exc:
            raise LearnedError(f"vision/learned/{MODEL} cannot be read by OpenCV: {exc}") from exc
        _local.net = net
    return net


def tile_odds(stack: Image) -> npt.NDArray[np.float32]:
    """For each patch of `stack` (n, ACROSS, LONG, 3) BGR, the probability 0..1 that it
    shows a tile: (n,) float32."""
    if stack.ndim != 4 or stack.shape[1:] != (ACROSS, LONG, 3):
        raise LearnedError(f"patches (n, {ACROSS}, {LONG}, 3) are needed, not {stack.shape}")
    if len(stack) == 0:
        return np.zeros(0, dtype=np.float32)
    net = _net()
    net.setInput(net_input(stack))
    logits = np.asarray(net.forward(), dtype=np.float32).reshape(len(stack))
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(logits, -30, 30))), dtype=np.float32)
