"""Shipped nets on validation patches, run as the package runs them (OpenCV's `dnn`).

    .venv/bin/python -m training.evaluate vision/learned/veto_a.onnx [MORE.onnx ...] \\
        --val /tmp/veto/val.npz

For each ONNX file, then (given several) for the larger of their scores, as
`vision.learned` combines them: per threshold, the share of each kind of validation
patch it gets right (`training.figures`), the figures `vision/learned/models.toml`
records. Needs no PyTorch.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from training.figures import load, report
from vision.learned.patches import Image, net_input


def logits(model: Path, patches: Image) -> npt.NDArray[np.float32]:
    """The logit of each patch of `patches` by the ONNX file `model` (OpenCV `dnn`)."""
    net = cv2.dnn.readNetFromONNX(str(model))
    out = []
    for k in range(0, len(patches), 512):
        net.setInput(net_input(patches[k : k + 512]))
        out.append(np.asarray(net.forward(), dtype=np.float32).reshape(-1))
    return np.concatenate(out) if out else np.zeros(0, dtype=np.float32)


def odds(x: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """Logits as probabilities, as `vision.learned.net.tile_odds` makes them."""
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(x.astype(np.float64), -30, 30))))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", type=Path, nargs="+", help="ONNX files")
    parser.add_argument("--val", type=Path, required=True, help="validation patches (.npz)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    patches, labels, kinds = load([args.val])
    print(f"{len(patches)} validation patches of {args.val}")
    every = []
    for model in args.models:
        got = logits(model, patches)
        every.append(got)
        print(f"{model}:")
        for line in report(odds(got), labels, kinds):
            print(f"  {line}")
    if len(every) > 1:
        print("the larger score of " + ", ".join(m.name for m in args.models) + ":")
        for line in report(odds(np.max(np.stack(every), axis=0)), labels, kinds):
            print(f"  {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
