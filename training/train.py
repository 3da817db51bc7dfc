"""Train the learned veto on the project's own renders and export it for OpenCV's `dnn`.

    .venv/bin/python -m training.train DATA.npz [...] --val VAL.npz --out NET.onnx \\
        [--steps 2500] [--seed 26]

The patches come from `training.veto_data`; `python -m training.recipe NAME` runs the
whole recipe of a shipped net (its data, this, and the record for
`vision/learned/models.toml`).

Needs the `train` extra (`pip install -e ".[train]"`: PyTorch on the CPU, onnx). Every
random choice is seeded (`--seed`): the patches' augmentation, the batches, the
weights' start; torch runs on `--threads` threads (one: the machine is shared). It
trains `TileVeto` (`training.model`) with binary cross-entropy (tiles and not-tiles
weigh alike overall), AdamW and a one-cycle learning rate, on patches turned half a
turn and mirrored at random, with other colours, gamma, noise and blur; prints the loss
as it goes and, on the validation patches (frames no training run draws), how many
tiles and not-tiles each threshold keeps and drops; folds the batch norms into the
convolutions and writes the ONNX file (opset 11, any batch), which `vision.learned`
loads. The ONNX file is checked by running it through OpenCV's `dnn` beside torch.
"""

from __future__ import annotations

import argparse
import copy
import sys
import time
import warnings
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from training.figures import load, report
from training.model import TileVeto
from vision.learned.patches import net_input


def augment(patches: npt.NDArray[np.uint8], rng: np.random.Generator) -> torch.Tensor:
    """A batch as the net's input: each patch turned half a turn or mirrored across
    (a tile has no up), in other colours, gamma, with noise or blur."""
    out = np.empty_like(patches)
    for k in range(len(patches)):
        im = patches[k].astype(np.float32)
        if rng.uniform() < 0.5:
            im = im[::-1, ::-1]
        if rng.uniform() < 0.5:
            im = im[::-1]
        if rng.uniform() < 0.3:
            im = im[:, :, rng.permutation(3)]
        if rng.uniform() < 0.1:
            im = np.repeat(im.mean(axis=2, keepdims=True), 3, axis=2)
        im = im * rng.uniform(0.85, 1.15, 3).astype(np.float32)
        if rng.uniform() < 0.3:
            im = 255.0 * (np.clip(im, 0, 255) / 255.0) ** rng.uniform(0.6, 1.6)
        if rng.uniform() < 0.2:
            im = cv2.GaussianBlur(np.ascontiguousarray(im), (0, 0), rng.uniform(0.4, 1.0))
        if rng.uniform() < 0.3:
            im = im + rng.normal(0, rng.uniform(2, 10), im.shape).astype(np.float32)
        out[k] = np.clip(im, 0, 255).astype(np.uint8)
    return torch.from_numpy(net_input(out))


def odds(net: nn.Module, patches: npt.NDArray[np.uint8]) -> npt.NDArray[np.float64]:
    """The net's probability of a tile for each patch (as it runs: no augmentation)."""
    net.eval()
    got = []
    with torch.no_grad():
        for k in range(0, len(patches), 512):
            got.append(torch.sigmoid(net(torch.from_numpy(net_input(patches[k : k + 512])))))
    net.train()
    return torch.cat(got).numpy().ravel().astype(np.float64)


def folded(net: TileVeto) -> nn.Module:
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


def export(net: TileVeto, path: Path, sample: npt.NDArray[np.uint8]) -> float:
    """Write the ONNX file; return the largest difference of OpenCV's logits from
    torch's on `sample` (a few patches)."""
    model = folded(net)
    x = torch.from_numpy(net_input(sample))
    with warnings.catch_warnings():
        # the TorchScript exporter, deprecated since PyTorch 2.9, on purpose: it made the
        # shipped nets and writes the opset-11 graph OpenCV's dnn reads on any version
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(
            model,
            (x,),
            str(path),
            dynamo=False,
            opset_version=11,
            input_names=["patches"],
            output_names=["logits"],
            dynamic_axes={"patches": {0: "n"}, "logits": {0: "n"}},
        )
    with torch.no_grad():
        want = model(x).numpy()
    cvnet = cv2.dnn.readNetFromONNX(str(path))
    cvnet.setInput(x.numpy())
    got = cvnet.forward().reshape(want.shape)
    return float(np.abs(got - want).max())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, nargs="+", help="training patches (.npz)")
    parser.add_argument("--val", type=Path, required=True, help="validation patches (.npz)")
    parser.add_argument("--out", type=Path, required=True, help="the ONNX file to write")
    parser.add_argument("--steps", type=int, default=2500)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--width", type=int, default=8, help="the net's first width")
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    began = time.perf_counter()
    patches, labels, _kinds = load(args.data)
    val_patches, val_labels, val_kinds = load([args.val])
    print(f"{len(patches)} training patches ({labels.mean():.1%} tiles), "
          f"{len(val_patches)} validation patches")  # fmt: skip
    net = TileVeto(args.width)
    params = sum(p.numel() for p in net.parameters())
    print(f"TileVeto width {args.width}: {params} parameters")
    # tiles and not-tiles weigh alike overall, whatever their counts
    pos = np.flatnonzero(labels == 1)
    neg = np.flatnonzero(labels == 0)
    loss_fn = nn.BCEWithLogitsLoss()
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.steps)
    net.train()
    running = 0.0
    for step in range(1, args.steps + 1):
        half = args.batch // 2
        pick = np.concatenate([rng.choice(pos, half), rng.choice(neg, args.batch - half)])
        x = augment(patches[pick], rng)
        y = torch.from_numpy(labels[pick].astype(np.float32))[:, None]
        loss = loss_fn(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        value = float(loss.item())
        running = 0.98 * running + 0.02 * value if step > 1 else value
        if step % 100 == 0:
            spent = time.perf_counter() - began
            print(f"step {step}/{args.steps}: loss {running:.4f} ({spent / 60:.1f} min)",
                  flush=True)  # fmt: skip
    for line in report(odds(net, val_patches), val_labels, val_kinds):
        print(line)
    gap = export(net, args.out, val_patches[:8])
    kb = args.out.stat().st_size / 1024
    print(f"wrote {args.out} ({kb:.0f} kB, {params} parameters); OpenCV dnn vs torch: "
          f"{gap:.2e} at most")  # fmt: skip
    print(f"training took {(time.perf_counter() - began) / 60:.1f} min", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
