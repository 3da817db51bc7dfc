"""The learned veto's network: a small convolutional net that says whether a candidate
tile's patch (`vision.learned.patches`: 32 x 48 pixels, the tile lying along it) shows a
tile.

Four stages of 3x3 convolutions (8, 16, 32, 48 channels; batch norm, folded into them
at export; ReLU; 2x2 max pooling between them), then a convolution over the whole 4 x 6
map (the layout matters: face over the middle, a divider across it, table beyond the
ends) and a 1x1 convolution to one logit. About 2.4 million multiply-adds per patch.
Built only of what OpenCV's `dnn` runs on any version.
"""

from __future__ import annotations

import torch
from torch import nn

from vision.learned.patches import ACROSS, LONG


def _conv(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


class TileVeto(nn.Module):
    """One logit per patch: a tile (positive) or not (see the module's docstring)."""

    def __init__(self, width: int = 8) -> None:
        super().__init__()
        w1, w2, w3, w4 = width, 2 * width, 4 * width, 6 * width
        self.features = nn.Sequential(
            _conv(3, w1),
            nn.MaxPool2d(2),
            _conv(w1, w2),
            nn.MaxPool2d(2),
            _conv(w2, w3),
            _conv(w3, w3),
            nn.MaxPool2d(2),
            _conv(w3, w4),
        )
        self.head = nn.Sequential(
            nn.Conv2d(w4, 32, (ACROSS // 8, LONG // 8)),
            nn.ReLU(inplace=True),
            nn.Dropout(0.2),
            nn.Conv2d(32, 1, 1),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.head(self.features(x)).flatten(1)
        return out
