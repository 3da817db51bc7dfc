"""Noise fields and colour composition shared by the table textures.

Every field is computed with `tablesim.render.portable`'s arithmetic, so a texture is
the same bytes on every OpenCV version and CPU.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tablesim.render.portable import cubic_resize, sin32

Image = npt.NDArray[np.uint8]
Field = npt.NDArray[np.float32]


def smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cell: int) -> Field:
    """Zero-mean, unit-ish noise varying over about `cell` pixels (upsampled by
    `portable.cubic_resize`, the same bytes on every OpenCV and CPU)."""
    h, w = shape
    small = rng.standard_normal((max(2, h // cell + 2), max(2, w // cell + 2))).astype(np.float32)
    return cubic_resize(small, (w, h))


def fine_noise(rng: np.random.Generator, shape: tuple[int, int]) -> Field:
    """Unit Gaussian noise, pixel by pixel."""
    return rng.standard_normal(shape, dtype=np.float32)


def weave(shape: tuple[int, int], period: float, amplitude: float) -> Field:
    """A square weave: threads `period` pixels apart both ways."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    k = np.float32(2 * np.pi / period)
    return np.asarray(amplitude * sin32(xx * k) * sin32(yy * k), dtype=np.float32)


def compose(base: npt.NDArray[np.float32], shade: Field, add: Field) -> Image:
    """`base` colour times `shade`, plus `add`, per pixel, clipped to 8 bits."""
    h, w = shade.shape
    out = np.empty((h, w, len(base)), dtype=np.uint8)
    for k in range(len(base)):  # a channel at a time, in cache: the same sums, the same types
        channel = shade * base[k : k + 1] + add  # array by array: promoted as the whole was
        out[:, :, k] = np.clip(channel, 0, 255, out=channel)
    return out
