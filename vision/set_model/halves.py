"""A tile's halves as small square pictures, and which number a half looks like.

`crop_half(image, a, b)` cuts the half centred at `a` (pixels) of a tile whose other
half is centred at `b`: a square as wide as the tile, turned so that the divider lies
at the crop's foot, `CROP` pixels a side. Whatever the tile's turn, place or size in
the frame, a half of one number gives much the same crop (one that shows its pips
mirrored, as some sets draw a 2, 3 or 6 the other way, is met by the mirrored crop).

`HalfMatcher` holds a set's own crops of each number and says how far a half is from
each number's nearest crop: both are brought to the set's face (each crop's median
colour taken off, in Lab, over the set's contrast between pips and face), and compared
by their squared difference at the best of a few shifts (a half centre a pixel or two
off). A blank half is near the set's blanks and far from every half with pips.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np
from numpy.typing import NDArray

__all__ = ["CROP", "HalfMatcher", "Nearest", "crop_half"]

U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]
Point = tuple[float, float]

CROP: Final = 32  # a half's crop: pixels a side
SHIFT: Final = 2  # pixels a half's centre may be off, each way
MIN_CONTRAST: Final = 12.0  # Lab units: the least pip contrast a set is normalised by
PIP_FIELD: Final = 0.75  # of a half's side: its middle, where its pips lie


def crop_half(image: U8, a: Point, b: Point, size: int = CROP) -> U8:
    """The half centred at `a` of the tile whose other half is centred at `b` (pixels),
    `size` pixels a side, the divider at the crop's foot."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    side = float(np.hypot(dx, dy))
    if side < 1e-6:
        raise ValueError("the two half centres lie on one point")
    down = np.array([dx, dy]) / side
    right = np.array([down[1], -down[0]])
    k = side / size
    origin = np.array([ax, ay]) - (size / 2 - 0.5) * k * (right + down)
    m = np.array(
        [[k * right[0], k * down[0], origin[0]], [k * right[1], k * down[1], origin[1]]],
        dtype=np.float64,
    )
    out = cv2.warpAffine(
        image, m, (size, size), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )  # fmt: skip
    return np.asarray(out, dtype=np.uint8)


def _lab(crop: U8) -> F32:
    return np.asarray(cv2.cvtColor(crop, cv2.COLOR_BGR2Lab), dtype=np.float32)


def _faced(crop: U8, contrast: float) -> F32:
    """The crop in Lab with its face taken off (each channel's median) over `contrast`."""
    lab = _lab(crop)
    face = np.median(lab.reshape(-1, 3), axis=0)
    return np.asarray((lab - face) / contrast, dtype=np.float32)


def contrast_of(crops: Iterable[tuple[int, U8]]) -> float:
    """The set's contrast between pips and face (Lab units): the typical far end of its
    halves with pips, at least `MIN_CONTRAST`. Only the half's pip field counts (its
    middle, `PIP_FIELD` of its side): a crop's rim can show the table or a neighbour
    when the tile's edge in the frame is a pixel or two off, and a table far from the
    face would pass for the pips' contrast."""
    spreads = []
    for value, crop in crops:
        if value > 0:
            side = crop.shape[0]
            rim = round(side * (1.0 - PIP_FIELD) / 2.0)
            lab = _lab(crop)[rim : side - rim, rim : side - rim]
            face = np.median(lab.reshape(-1, 3), axis=0)
            far = np.linalg.norm(lab - face, axis=2)
            spreads.append(float(np.percentile(far, 97)))
    return max(MIN_CONTRAST, float(np.median(spreads)) if spreads else MIN_CONTRAST)


@dataclass(frozen=True, slots=True)
class Nearest:
    """How far a half is from each number (the least distance to one of its crops);
    `value` the nearest, `margin` the next number's distance over the nearest's."""

    distances: Mapping[int, float]

    @property
    def value(self) -> int:
        return min(self.distances, key=lambda v: self.distances[v])

    @property
    def margin(self) -> float:
        ds = sorted(self.distances.values())
        return ds[1] / max(ds[0], 1e-6) if len(ds) > 1 else float("inf")

    def ratio(self, value: int) -> float:
        """`value`'s distance over the nearest's (1: `value` is the nearest)."""
        best = self.distances[self.value]
        return self.distances.get(value, float("inf")) / max(best, 1e-6)


class HalfMatcher:
    """A set's crops of each number, and the distance of a half to each number.

    Every crop (and its mirror) is kept faced and flattened in one matrix; a half is
    compared with all of them at once: its windows at each shift against every
    crop, as squared differences (|w|^2 + |t|^2 - 2 w.t, one matrix product)."""

    def __init__(self, crops: Sequence[tuple[int, U8]], contrast: float | None = None) -> None:
        self.contrast = contrast if contrast is not None else contrast_of(crops)
        inner = slice(SHIFT, CROP - SHIFT)
        flat: list[F32] = []
        owner: list[int] = []
        for value, crop in crops:
            faced = _faced(crop, self.contrast)
            for t in (faced, faced[:, ::-1]):
                flat.append(np.ascontiguousarray(t[inner, inner]).reshape(-1))
                owner.append(value)
        side = CROP - 2 * SHIFT
        self._flat = np.stack(flat) if flat else np.zeros((0, side * side * 3), np.float32)
        self._sq = np.einsum("ij,ij->i", self._flat, self._flat)
        self._owner = np.asarray(owner, dtype=np.int64)
        self._values = tuple(sorted(set(owner)))

    @property
    def values(self) -> tuple[int, ...]:
        return self._values

    def nearest(self, crop: U8) -> Nearest:
        """The distance of `crop` (a half, `crop_half`) to each number the set has crops of:
        the mean squared difference per pixel at the best shift, to the nearest crop."""
        return self.nearest_all([crop])[0]

    def nearest_all(self, crops: Sequence[U8]) -> list[Nearest]:
        """`nearest` of each of `crops`, compared all at once."""
        if not crops:
            return []
        side = CROP - 2 * SHIFT
        shifts = (2 * SHIFT + 1) ** 2
        windows = []
        for crop in crops:
            faced = _faced(crop, self.contrast)
            view = np.lib.stride_tricks.sliding_window_view(faced, (side, side), axis=(0, 1))
            # (dy, dx, channel, y, x) -> one row per shift, laid out as the crops are
            windows.append(np.moveaxis(view, 2, -1).reshape(shifts, -1))
        w = np.ascontiguousarray(np.concatenate(windows), dtype=np.float32)
        sq = np.einsum("ij,ij->i", w, w)
        # OpenCV's product, not `@`: a product this small costs a multithreaded BLAS more
        # CPU in its threads' waiting than in the sums (140 ms a half on a busy machine,
        # not 1), and numpy's einsum three times OpenCV's one thread
        if not len(self._flat):
            return [Nearest({}) for _ in crops]
        none = np.empty((0, 0), dtype=np.float32)  # no third term (beta 0)
        product = np.asarray(cv2.gemm(w, self._flat, 1.0, none, 0.0, flags=cv2.GEMM_2_T))
        d = sq[:, None] + self._sq[None, :] - 2.0 * product
        best = d.reshape(len(crops), shifts, -1).min(axis=1) / float(side * side)
        out = []
        for row in best:
            by = {v: float(row[self._owner == v].min()) for v in self._values}
            out.append(Nearest({v: max(0.0, x) for v, x in by.items()}))
        return out
