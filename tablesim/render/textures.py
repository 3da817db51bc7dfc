"""Table surface textures and the sensor-noise pool, made once per seed and cached."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from tablesim.render.noise import compose, fine_noise, smooth_noise, weave
from tablesim.render.portable import exp32, sin32
from tablesim.render.styles import Surface
from tablesim.render.textured import black_leather, knotty_wood, plaid, red_damask, speckled_mat

Image = npt.NDArray[np.uint8]

NOISE_PAD = 64  # the noise pool is this much larger than a frame, for random windows
NOISE_SCALE = 32.0  # pool values are |N(0, 1)| * NOISE_SCALE


def _felt(rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float) -> Image:
    base = np.array([42, 108, 34], dtype=np.float32)
    shade = 1.0 + 0.035 * smooth_noise(rng, shape, max(8, int(60 * px_per_mm)))
    fibre = 7.0 * fine_noise(rng, shape)
    return compose(base, shade, fibre)


def _cloth(rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float) -> Image:
    base = np.array([232, 236, 238], dtype=np.float32)
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = max(2.0, 1.2 * px_per_mm)
    weave = 4.0 * sin32(xx * (2 * np.pi / period)) * sin32(yy * (2 * np.pi / period))
    folds = 1.0 + 0.035 * smooth_noise(rng, shape, max(8, int(120 * px_per_mm)))
    return compose(base, folds, weave + 2.0 * fine_noise(rng, shape))


def _wood(rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float) -> Image:
    base = np.array([62, 104, 152], dtype=np.float32)
    return _grain(rng, shape, px_per_mm, base, ring_mm=11.0, plank_mm=140.0)


def _light_wood(rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float) -> Image:
    base = np.array([128, 176, 214], dtype=np.float32)
    return _grain(rng, shape, px_per_mm, base, ring_mm=3.5, plank_mm=None)


def _grain(
    rng: np.random.Generator,
    shape: tuple[int, int],
    px_per_mm: float,
    base: npt.NDArray[np.float32],
    *,
    ring_mm: float,
    plank_mm: float | None,
) -> Image:
    """Wood along x: growth rings `ring_mm` apart, dark late-wood lines, streaks, and
    plank joints every `plank_mm` (None: one board)."""
    h, w = shape
    yy = np.mgrid[0:h, 0:w][0].astype(np.float32)
    warp = 25.0 * px_per_mm * smooth_noise(rng, shape, max(8, int(300 * px_per_mm)))
    wobble = 1.5 * px_per_mm * smooth_noise(rng, shape, max(4, int(60 * px_per_mm)))
    phase = (yy + warp + wobble) * (2 * np.pi / (ring_mm * px_per_mm))
    rings = sin32(phase) + 0.5 * sin32(2.7 * phase)
    lines = _twelfth_power(np.maximum(0.0, sin32(0.5 * phase)))  # thin dark late-wood lines
    streaks = smooth_noise(rng, shape, max(2, int(2 * px_per_mm)))
    seams: npt.NDArray[np.bool_] | float = 0.0
    if plank_mm is not None:
        seams = (yy % (plank_mm * px_per_mm)) < max(1.0, 0.8 * px_per_mm)  # plank joints
    shade = 1.0 + 0.07 * rings - 0.18 * lines + 0.04 * streaks - 0.35 * seams
    return compose(base, shade, 3.0 * fine_noise(rng, shape))


def _twelfth_power(x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """x ** 12 by multiplications (exact IEEE steps; numpy's float32 power is not the
    same on every CPU)."""
    x4 = (x * x) * (x * x)
    return np.asarray(x4 * x4 * x4, dtype=np.float32)


def _glossy(rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float) -> Image:
    base = np.array([30, 27, 26], dtype=np.float32)
    h, w = shape
    xx = np.mgrid[0:h, 0:w][1].astype(np.float32)
    sheen = 1.0 + 0.35 * exp32(-(((xx / w) - 0.7) ** 2) / 0.02)
    shade = sheen + 0.04 * smooth_noise(rng, shape, max(8, int(100 * px_per_mm)))
    return compose(base, shade, 1.5 * fine_noise(rng, shape))


def _dark_cloth(rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float) -> Image:
    base = np.array([50, 34, 30], dtype=np.float32)
    threads = weave(shape, max(2.0, 1.6 * px_per_mm), 5.0)
    folds = 1.0 + 0.08 * smooth_noise(rng, shape, max(8, int(90 * px_per_mm)))
    return compose(base, folds, threads + 2.5 * fine_noise(rng, shape))


def _leather(rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float) -> Image:
    """Brown pebbled leather: grain cells about 1.5 mm across, dark creases."""
    base = np.array([48, 82, 128], dtype=np.float32)
    pebbles = smooth_noise(rng, shape, max(2, int(1.5 * px_per_mm)))
    crease_field = smooth_noise(rng, shape, max(8, int(45 * px_per_mm)))
    creases = exp32(-((crease_field / 0.06) ** 2))  # thin lines where the field crosses 0
    patina = smooth_noise(rng, shape, max(8, int(120 * px_per_mm)))
    shade = 1.0 + 0.06 * pebbles - 0.3 * creases + 0.07 * patina
    return compose(base, shade, 2.5 * fine_noise(rng, shape))


def _checked_cloth(rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float) -> Image:
    """A red and white gingham check, 8 mm squares, with a fine weave and folds."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = 16.0 * px_per_mm
    across = ((xx % period) < period / 2).astype(np.float32)
    along = ((yy % period) < period / 2).astype(np.float32)
    colour = (across + along) / 2  # 0 white, 0.5 light red, 1 red
    white = np.array([236, 238, 240], dtype=np.float32)
    red = np.array([60, 50, 190], dtype=np.float32)
    cloth = white[None, None, :] + colour[:, :, None] * (red - white)[None, None, :]
    folds = 1.0 + 0.05 * smooth_noise(rng, shape, max(8, int(120 * px_per_mm)))
    threads = weave(shape, max(2.0, 1.0 * px_per_mm), 3.0) + 2.0 * fine_noise(rng, shape)
    out = cloth * folds[:, :, None] + threads[:, :, None]
    return np.asarray(np.clip(out, 0, 255), dtype=np.uint8)


def _paper(rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float) -> Image:
    base = np.array([238, 241, 242], dtype=np.float32)
    waves = 1.0 + 0.008 * smooth_noise(rng, shape, max(8, int(150 * px_per_mm)))
    return compose(base, waves, 1.5 * fine_noise(rng, shape))


_MAKERS = {
    Surface.GREEN_FELT: _felt,
    Surface.WHITE_CLOTH: _cloth,
    Surface.WOOD: _wood,
    Surface.DARK_GLOSSY: _glossy,
    Surface.DARK_CLOTH: _dark_cloth,
    Surface.LEATHER: _leather,
    Surface.CHECKED_CLOTH: _checked_cloth,
    Surface.WHITE_PAPER: _paper,
    Surface.LIGHT_WOOD: _light_wood,
    Surface.KNOTTY_WOOD: knotty_wood,
    Surface.BLACK_LEATHER: black_leather,
    Surface.RED_DAMASK: red_damask,
    Surface.PLAID: plaid,
    Surface.SPECKLED_MAT: speckled_mat,
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
