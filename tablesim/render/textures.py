"""Table surface textures and the sensor-noise pool, made once per seed and cached."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from tablesim.render.styles import Surface

Image = npt.NDArray[np.uint8]

NOISE_PAD = 64  # the noise pool is this much larger than a frame, for random windows
NOISE_SCALE = 32.0  # pool values are |N(0, 1)| * NOISE_SCALE


def _smooth_noise(
    rng: np.random.Generator, shape: tuple[int, int], cell: int
) -> npt.NDArray[np.float32]:
    """Zero-mean, unit-ish noise varying over about `cell` pixels."""
    h, w = shape
    small = rng.standard_normal((max(2, h // cell + 2), max(2, w // cell + 2))).astype(np.float32)
    big = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    return np.asarray(big, dtype=np.float32)


def _fine_noise(rng: np.random.Generator, shape: tuple[int, int]) -> npt.NDArray[np.float32]:
    return rng.standard_normal(shape, dtype=np.float32)


def _felt(rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float) -> Image:
    base = np.array([42, 108, 34], dtype=np.float32)
    shade = 1.0 + 0.035 * _smooth_noise(rng, shape, max(8, int(60 * px_per_mm)))
    fibre = 7.0 * _fine_noise(rng, shape)
    return _compose(base, shade, fibre)


def _cloth(rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float) -> Image:
    base = np.array([232, 236, 238], dtype=np.float32)
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = max(2.0, 1.2 * px_per_mm)
    weave = 4.0 * np.sin(xx * (2 * np.pi / period)) * np.sin(yy * (2 * np.pi / period))
    folds = 1.0 + 0.035 * _smooth_noise(rng, shape, max(8, int(120 * px_per_mm)))
    return _compose(base, folds, weave + 2.0 * _fine_noise(rng, shape))


def _wood(rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float) -> Image:
    base = np.array([62, 104, 152], dtype=np.float32)
    h, w = shape
    yy = np.mgrid[0:h, 0:w][0].astype(np.float32)
    warp = 25.0 * px_per_mm * _smooth_noise(rng, shape, max(8, int(300 * px_per_mm)))
    wobble = 1.5 * px_per_mm * _smooth_noise(rng, shape, max(4, int(60 * px_per_mm)))
    phase = (yy + warp + wobble) * (2 * np.pi / (11.0 * px_per_mm))
    rings = np.sin(phase) + 0.5 * np.sin(2.7 * phase)
    lines = np.maximum(0.0, np.sin(0.5 * phase)) ** 12  # thin dark late-wood lines
    streaks = _smooth_noise(rng, shape, max(2, int(2 * px_per_mm)))
    seams = (yy % (140.0 * px_per_mm)) < max(1.0, 0.8 * px_per_mm)  # plank joints
    shade = 1.0 + 0.07 * rings - 0.18 * lines + 0.04 * streaks - 0.35 * seams
    return _compose(base, shade, 3.0 * _fine_noise(rng, shape))


def _glossy(rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float) -> Image:
    base = np.array([30, 27, 26], dtype=np.float32)
    h, w = shape
    xx = np.mgrid[0:h, 0:w][1].astype(np.float32)
    sheen = 1.0 + 0.35 * np.exp(-(((xx / w) - 0.7) ** 2) / 0.02)
    shade = sheen + 0.04 * _smooth_noise(rng, shape, max(8, int(100 * px_per_mm)))
    return _compose(base, shade, 1.5 * _fine_noise(rng, shape))


def _compose(
    base: npt.NDArray[np.float32], shade: npt.NDArray[np.float32], add: npt.NDArray[np.float32]
) -> Image:
    out = base[None, None, :] * shade[:, :, None] + add[:, :, None]
    return np.asarray(np.clip(out, 0, 255), dtype=np.uint8)


_MAKERS = {
    Surface.GREEN_FELT: _felt,
    Surface.WHITE_CLOTH: _cloth,
    Surface.WOOD: _wood,
    Surface.DARK_GLOSSY: _glossy,
}


@lru_cache(maxsize=8)
def surface_texture(surface: Surface, shape: tuple[int, int], px_per_mm: float, seed: int) -> Image:
    """A (h, w, 3) BGR texture of the table; read-only, copy before drawing on it."""
    rng = np.random.default_rng([seed, 0x5F])
    image = _MAKERS[surface](rng, shape, px_per_mm)
    image.setflags(write=False)
    return image


@lru_cache(maxsize=4)
def noise_pool(shape: tuple[int, int]) -> tuple[Image, Image]:
    """Positive and negative halves of Gaussian noise, NOISE_PAD larger than `shape`."""
    h, w = shape
    rng = np.random.default_rng(0x0153)
    noise = rng.standard_normal((h + NOISE_PAD, w + NOISE_PAD, 3), dtype=np.float32)
    noise *= NOISE_SCALE
    pos = np.clip(noise, 0, 255).astype(np.uint8)
    neg = np.clip(-noise, 0, 255).astype(np.uint8)
    pos.setflags(write=False)
    neg.setflags(write=False)
    return pos, neg
