"""The learned part's network: a small fully convolutional net that marks, per pixel,
table, a tile's face, its divider (and pin) and its pips (`vision.learned.classes`).

A U-Net of four scales (1/2 to 1/16 of the input; about 2,100 multiply-adds per input
pixel at width 12, its receptive field some 150 px) built only of what OpenCV's `dnn`
runs on any version (3x3 and 1x1 convolutions, batch norm folded into them at export,
ReLU, nearest upsampling, concatenation): any input size that is a multiple of 16.
The input is BGR scaled to -1..1 (`vision.learned.net`); the output is the four
classes' logits at half the input's size (the runtime scales the probabilities up
bilinearly, as `full_size` does in training).
"""

from __future__ import annotations

import torch
from torch import nn

CLASSES = 4


def _conv(cin: int, cout: int, *, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride=stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


def _join(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
        _conv(cout, cout),
    )


class TileNet(nn.Module):
    """Face, divider and pip pixels from a BGR frame (see the module's docstring)."""

    def __init__(self, width: int = 12) -> None:
        super().__init__()
        w1, w2, w3, w4 = width, 2 * width, 3 * width, 4 * width
        self.down1 = _conv(3, w1, stride=2)
        self.down2 = nn.Sequential(_conv(w1, w2, stride=2), _conv(w2, w2))
        self.down3 = nn.Sequential(
            _conv(w2, w3, stride=2), _conv(w3, w3, dilation=2), _conv(w3, w3, dilation=4)
        )
        self.down4 = nn.Sequential(_conv(w3, w4, stride=2), _conv(w4, w4, dilation=2))
        self.up3 = _join(w4 + w3, w3)
        self.up2 = _join(w3 + w2, w2)
        self.up1 = _join(w2 + w1, w1)
        self.head = nn.Conv2d(w1, CLASSES, 1)
        self.upsample = nn.Upsample(scale_factor=2, mode="nearest")

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        s1 = self.down1(x)
        s2 = self.down2(s1)
        s3 = self.down3(s2)
        s4 = self.down4(s3)
        y = self.up3(torch.cat([self.upsample(s4), s3], dim=1))
        y = self.up2(torch.cat([self.upsample(y), s2], dim=1))
        y = self.up1(torch.cat([self.upsample(y), s1], dim=1))
        out: torch.Tensor = self.head(y)
        return out


def full_size(logits: torch.Tensor) -> torch.Tensor:
    """Half-size logits scaled up to the input's size, bilinearly (half-pixel centres,
    as OpenCV's `resize` with `INTER_LINEAR` does at run time)."""
    out: torch.Tensor = nn.functional.interpolate(
        logits, scale_factor=2.0, mode="bilinear", align_corners=False
    )
    return out
