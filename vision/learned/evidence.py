"""What the net's marks say about one tile: the geometry after the net.

Everything here works in the net's pixels on its probability maps: `PipBlobs` (the
pips it marks, a blob of twice a pip's area or more counted as that many merged pips),
and `Evidence` of a tile given its centre, its unit vectors (`u` from half a to half b,
`v` along the divider) and its width: how much of its rectangle is tile, how much of
its middle line is divider, how much tile lies just past its ends, and the pips in
each half's square.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

Points = npt.NDArray[np.float64]
Field = npt.NDArray[np.float32]

MERGED_PIPS: Final = 1.6  # a pip blob this many typical pip areas or more holds several
DIVIDER_CLEAR: Final = 0.08  # of the width: a pip this near the divider's line is no pip


@dataclass(frozen=True, slots=True)
class Evidence:
    """What the net sees of one tile (each 0..1 but the counts): `material` the mean
    probability of tile over its rectangle, `divider` the share of its middle line
    marked divider, `beyond` the mean probability of tile just past its two ends (a
    lone tile: low; a tile in a line: its neighbours), `pips` the pips counted in half
    a and half b."""

    material: float
    divider: float
    beyond: float
    pips: tuple[int, int]

    @property
    def score(self) -> float:
        """How much this looks like a tile: its face and its divider, both."""
        return min(self.material, self.divider)


NOTHING: Final = Evidence(0.0, 0.0, 0.0, (0, 0))


@dataclass(frozen=True, slots=True)
class PipBlobs:
    """The pips the net marks: each blob's centre (n, 2) and how many pips it holds."""

    centres: Points
    counts: npt.NDArray[np.int64]

    @classmethod
    def of(cls, pip: Field) -> PipBlobs:
        """The blobs of pixels more likely pip than not."""
        mask = (pip > 0.5).astype(np.uint8)
        _, _, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
        areas = stats[1:, cv2.CC_STAT_AREA].astype(np.float64)
        keep = areas >= 2
        areas, centres = areas[keep], centroids[1:][keep]
        if len(areas) == 0:
            return cls(np.zeros((0, 2)), np.zeros(0, dtype=np.int64))
        typical = float(np.median(areas))
        merged = areas >= MERGED_PIPS * typical
        counts = np.where(merged, np.round(areas / typical), 1).astype(np.int64)
        return cls(np.asarray(centres, dtype=np.float64), counts)

    def count(self, centre: Points, u: Points, v: Points, width: float) -> tuple[int, int]:
        """The pips whose centre lies in each half's square, clear of the divider."""
        if len(self.counts) == 0:
            return 0, 0
        rel = self.centres - centre
        du, dv = rel @ u, rel @ v
        across = np.abs(dv) < 0.5 * width
        a = across & (du < -DIVIDER_CLEAR * width) & (du > -width)
        b = across & (du > DIVIDER_CLEAR * width) & (du < width)
        return int(self.counts[a].sum()), int(self.counts[b].sum())


def sample(field: Field, points: Points) -> Field:
    """`field` at `points` (n, 2), nearest pixel; 0 outside."""
    h, w = field.shape
    xs, ys = np.round(points[:, 0]).astype(int), np.round(points[:, 1]).astype(int)
    inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    out = np.zeros(len(points), dtype=np.float32)
    out[inside] = field[ys[inside], xs[inside]]
    return out


def _grid(
    centre: Points,
    u: Points,
    v: Points,
    along_u: tuple[float, float],
    along_v: tuple[float, float],
    n: int = 9,
) -> Points:
    su, sv = np.linspace(*along_u, n), np.linspace(*along_v, n)
    a, b = np.meshgrid(su, sv)
    return np.asarray(centre + a.reshape(-1, 1) * u + b.reshape(-1, 1) * v, dtype=np.float64)


def weigh(
    material: Field,
    divider: Field,
    pips: PipBlobs,
    centre: Points,
    u: Points,
    w: float,
) -> Evidence:
    """The evidence of the tile centred at `centre`, `u` from half a to half b, `w` wide."""
    v = np.array([u[1], -u[0]])
    inside = _grid(centre, u, v, (-0.9 * w, 0.9 * w), (-0.4 * w, 0.4 * w))
    line = _grid(centre, u, v, (0.0, 0.0), (-0.3 * w, 0.3 * w), n=11)[:11]
    ends = np.vstack([_grid(centre, u, v, (s * 1.15 * w, s * 1.15 * w), (-0.3 * w, 0.3 * w))
                      for s in (-1, 1)])  # fmt: skip
    near = np.vstack([line + e * u for e in (-1.0, 0.0, 1.0)])  # a pixel either side
    marked = sample(divider, near).reshape(3, -1).max(axis=0)
    return Evidence(
        material=float(sample(material, inside).mean()),
        divider=float((marked > 0.5).mean()),
        beyond=float(sample(material, ends).mean()),
        pips=pips.count(centre, u, v, w),
    )
