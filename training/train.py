"""Train the learned part on the project's own renders and export it for OpenCV's `dnn`.

    nice -n 10 .venv/bin/python -m training.dataset /tmp/tiles/train0.npz --frames 2000 --start 0
    nice -n 10 .venv/bin/python -m training.dataset /tmp/tiles/train1.npz --frames 2000 --start 2000
    nice -n 10 .venv/bin/python -m training.dataset /tmp/tiles/val.npz --frames 300 --start 100000
    nice -n 10 .venv/bin/python -m training.train /tmp/tiles/train0.npz /tmp/tiles/train1.npz \\
        --val /tmp/tiles/val.npz --out vision/learned/tiles.onnx

Needs the `train` extra (`pip install -e ".[train]"`: PyTorch on the CPU, onnx). Every
random choice is seeded (`--seed`): the crops' augmentation, the batches, the weights'
start; torch runs on `--threads` threads (the shared machine has two cores). It trains
`TileNet` (`training.model`) with cross-entropy per pixel (the divider and pips weigh
more: they are few pixels and what a reading needs), AdamW and a one-cycle learning
rate, prints the loss as it goes and each class's IoU on the validation crops at the
end, folds the batch norms into the convolutions and writes the ONNX file (opset 11,
any input size), which `vision.learned` loads. The ONNX file is checked by running it
through OpenCV's `dnn` on a validation crop beside torch.
"""

from __future__ import annotations

import argparse
import copy
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from training.labels import IGNORE
from training.model import CLASSES, TileNet, full_size

CLASS_WEIGHTS = (1.0, 1.0, 4.0, 3.0)  # table, face, divider, pip


def load(paths: list[Path]) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """The crops and their classes of every `.npz` in `paths`, joined."""
    images, labels = [], []
    for path in paths:
        with np.load(path) as data:
            images.append(data["images"])
            labels.append(data["labels"])
    return np.concatenate(images), np.concatenate(labels)


def to_input(images: npt.NDArray[np.uint8]) -> torch.Tensor:
    """BGR uint8 (n, h, w, 3) to the net's input (n, 3, h, w), -1..1."""
    x = torch.from_numpy(np.ascontiguousarray(images)).permute(0, 3, 1, 2).float()
    return x / 127.5 - 1.0


def augment(
    images: npt.NDArray[np.uint8],
    labels: npt.NDArray[np.uint8],
    size: int,
    rng: np.random.Generator,
) -> tuple[torch.Tensor, torch.Tensor]:
    """A batch: random crops of `size`, quarter turns and flips, light and colour changes."""
    n, h, w = labels.shape
    xs = np.empty((n, size, size, 3), dtype=np.float32)
    ys = np.empty((n, size, size), dtype=np.int64)
    for k in range(n):
        y0, x0 = int(rng.integers(0, h - size + 1)), int(rng.integers(0, w - size + 1))
        im: npt.NDArray[np.float64] = images[k, y0 : y0 + size, x0 : x0 + size].astype(np.float64)
        lb = labels[k, y0 : y0 + size, x0 : x0 + size]
        turns = int(rng.integers(4))
        im, lb = np.rot90(im, turns), np.rot90(lb, turns)
        if rng.uniform() < 0.5:
            im, lb = im[:, ::-1], lb[:, ::-1]
        if rng.uniform() < 0.3:
            im = im[:, :, rng.permutation(3)]  # a set and table of other colours
        if rng.uniform() < 0.1:
            im = np.repeat(im.mean(axis=2, keepdims=True), 3, axis=2)
        gain = rng.uniform(0.7, 1.3) * rng.uniform(0.9, 1.1, 3)
        im = im * gain + rng.uniform(-20, 20)
        if rng.uniform() < 0.3:  # gamma
            im = 255.0 * (np.clip(im, 0, 255) / 255.0) ** rng.uniform(0.7, 1.4)
        xs[k] = np.clip(im, 0, 255)
        ys[k] = lb
    x = torch.from_numpy(xs).permute(0, 3, 1, 2) / 127.5 - 1.0
    return x, torch.from_numpy(ys)


def iou(
    net: nn.Module, images: npt.NDArray[np.uint8], labels: npt.NDArray[np.uint8]
) -> list[float]:
    """Each class's intersection over union on the validation crops."""
    inter = np.zeros(CLASSES)
    union = np.zeros(CLASSES)
    net.eval()
    with torch.no_grad():
        for k in range(0, len(images), 32):
            size = (images.shape[1] // 16) * 16
            x = to_input(images[k : k + 32, :size, :size])
            pred = full_size(net(x)).argmax(dim=1).numpy()
            want = labels[k : k + 32, :size, :size]
            keep = want != IGNORE
            for c in range(CLASSES):
                p, t = (pred == c) & keep, (want == c) & keep
                inter[c] += np.sum(p & t)
                union[c] += np.sum(p | t)
    net.train()
    return [float(i / max(1.0, u)) for i, u in zip(inter, union, strict=True)]


def folded(net: TileNet) -> nn.Module:
    """A copy of `net` for inference with every batch norm folded into its convolution."""
    out = copy.deepcopy(net).eval()
    for module in out.modules():
        if isinstance(module, nn.Sequential):
            for k in range(len(module) - 1):
                conv, norm = module[k], module[k + 1]
                if isinstance(conv, nn.Conv2d) and isinstance(norm, nn.BatchNorm2d):
                    module[k] = nn.utils.fusion.fuse_conv_bn_eval(conv, norm)
                    module[k + 1] = nn.Identity()
    return out


def export(net: TileNet, path: Path, sample: npt.NDArray[np.uint8]) -> float:
    """Write the ONNX file; return the largest difference of OpenCV's logits from torch's
    on `sample` (one crop)."""
    model = folded(net)
    x = to_input(sample[None, :64, :64])
    torch.onnx.export(
        model,
        (x,),
        str(path),
        dynamo=False,
        opset_version=11,
        input_names=["image"],
        output_names=["logits"],
        dynamic_axes={"image": {2: "height", 3: "width"}, "logits": {2: "h2", 3: "w2"}},
    )
    size = (sample.shape[0] // 16) * 16
    x = to_input(sample[None, :size, :size])
    with torch.no_grad():
        want = model(x).numpy()
    cvnet = cv2.dnn.readNetFromONNX(str(path))
    cvnet.setInput(x.numpy())
    got = cvnet.forward()
    return float(np.abs(got - want).max())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, nargs="+", help="training crops (.npz)")
    parser.add_argument("--val", type=Path, required=True, help="validation crops (.npz)")
    parser.add_argument("--out", type=Path, required=True, help="the ONNX file to write")
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--size", type=int, default=112, help="training crop (multiple of 16)")
    parser.add_argument("--width", type=int, default=12, help="the net's first width")
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    began = time.perf_counter()
    images, labels = load(args.data)
    val_images, val_labels = load([args.val])
    print(f"{len(images)} training crops, {len(val_images)} validation crops")
    net = TileNet(args.width)
    net.to(memory_format=torch.channels_last)  # type: ignore[call-overload]  # faster on a CPU
    weights = torch.tensor(CLASS_WEIGHTS)
    loss_fn = nn.CrossEntropyLoss(weight=weights, ignore_index=IGNORE)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.steps)
    net.train()
    running = 0.0
    for step in range(1, args.steps + 1):
        pick = rng.integers(0, len(images), args.batch)
        x, y = augment(images[pick], labels[pick], args.size, rng)
        loss = loss_fn(full_size(net(x.contiguous(memory_format=torch.channels_last))), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        value = float(loss.item())
        running = 0.98 * running + 0.02 * value if step > 1 else value
        if step % 100 == 0:
            spent = time.perf_counter() - began
            print(
                f"step {step}/{args.steps}: loss {running:.4f} ({spent / 60:.1f} min)", flush=True
            )
    scores = iou(net, val_images, val_labels)
    names = ("table", "face", "divider", "pip")
    print(
        "validation IoU: " + ", ".join(f"{n} {s:.3f}" for n, s in zip(names, scores, strict=True))
    )
    gap = export(net, args.out, val_images[0])
    kb = args.out.stat().st_size / 1024
    print(f"wrote {args.out} ({kb:.0f} kB); OpenCV dnn vs torch: {gap:.2e} at most")
    print(f"training took {(time.perf_counter() - began) / 60:.1f} min", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
