"""The learned part's network, run by OpenCV's `dnn` on the CPU.

`tiles.onnx` (package data, next to this module; trained by `training/train.py` on the
project's own renders, never on photos) is a small fully convolutional net: for each
pixel of a BGR image, the probability of each `PixelClass` (table, face, divider, pip).
It is read once per thread (an OpenCV `Net` is not safe to share between threads) and
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

MODEL: Final = "tiles.onnx"
STRIDE: Final = 16  # the net's input sides must be multiples of this

Image = npt.NDArray[np.uint8]
Probabilities = npt.NDArray[np.float32]

_local = threading.local()


class LearnedError(VisionError):
    """The learned part's model is missing or unreadable: reinstall the package."""


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


def probabilities(image: Image) -> Probabilities:
    """Each class's probability at every pixel of a BGR `image`: (4, h, w) float32.

    The image is padded (by its edge's reflection) to a multiple of 16 on each side for
    the net, whose half-size output is scaled back up bilinearly and cropped."""
    if image.ndim != 3 or image.shape[2] != 3:
        raise LearnedError(f"a BGR image (h, w, 3) is needed, not shape {image.shape}")
    h, w = image.shape[:2]
    ph, pw = -h % STRIDE, -w % STRIDE
    padded = cv2.copyMakeBorder(image, 0, ph, 0, pw, cv2.BORDER_REFLECT_101) if ph or pw else image
    blob = np.asarray(padded, dtype=np.float32).transpose(2, 0, 1)[None] / np.float32(127.5) - 1
    net = _net()
    net.setInput(np.ascontiguousarray(blob, dtype=np.float32))
    logits = np.asarray(net.forward(), dtype=np.float32)[0]  # (4, H/2, W/2)
    logits -= logits.max(axis=0, keepdims=True)
    odds = np.exp(logits)
    half = odds / odds.sum(axis=0, keepdims=True)
    size = (w + pw, h + ph)
    full = np.stack([cv2.resize(c, size, interpolation=cv2.INTER_LINEAR) for c in half])
    return np.ascontiguousarray(full[:, :h, :w], dtype=np.float32)
