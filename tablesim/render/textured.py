"""Table surfaces with the textures real photos showed a detector failing on (issue 26).

Each is drawn top-down at `px_per_mm`, from a seeded generator, with
`tablesim.render.portable`'s arithmetic (the same bytes everywhere):

- `knotty_wood`: slats of wood with a strong grain that flows around dark knots,
  dark gaps between the slats, a few dark specks (nail holes, dirt);
- `black_leather`: black crinkled leatherette, a network of dark grooves around
  glossy cells whose tops catch the light in broad patches;
- `red_damask`: a burgundy damask cloth, swirling tone-on-tone motifs outlined by
  thin raised lines, a fine twill;
- `plaid`: a pastel plaid (yellow-green, blue, grey bands both ways), woven;
- `speckled_mat`: a dark grey mat with a fine speckled grain.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from tablesim.render.noise import Field, Image, compose, fine_noise, smooth_noise, weave
from tablesim.render.portable import exp32, sin32

__all__ = ["black_leather", "knotty_wood", "plaid", "red_damask", "speckled_mat"]


def _grid(shape: tuple[int, int]) -> tuple[Field, Field]:
    yy, xx = np.mgrid[0 : shape[0], 0 : shape[1]].astype(np.float32)
    return yy, xx


def knotty_wood(rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float) -> Image:
    """Slats 70-140 mm wide along x with grain around knots and dark gaps."""
    h, w = shape
    yy, xx = _grid(shape)
    base = np.array([50, 92, 140], dtype=np.float32)
    ring = float(rng.uniform(2.5, 6.0)) * px_per_mm
    phase = yy + 18.0 * px_per_mm * smooth_noise(rng, shape, max(8, int(260 * px_per_mm)))
    phase += 1.2 * px_per_mm * smooth_noise(rng, shape, max(4, int(40 * px_per_mm)))
    knot_shade = np.zeros(shape, dtype=np.float32)
    area_mm2 = h * w / px_per_mm**2
    for _ in range(int(rng.poisson(area_mm2 / 9000.0)) + 1):
        kx, ky = rng.uniform(0, w), rng.uniform(0, h)
        r = float(rng.uniform(3.0, 11.0)) * px_per_mm
        near = _knot_window(kx, ky, 1.7 * r, r, shape)  # beyond it the knot adds exactly 0
        dx, dy = (xx[near] - kx) / (1.7 * r), (yy[near] - ky) / r
        e2 = dx * dx + dy * dy
        # the grain parts around it
        phase[near] += np.float32(1.6 * r) * np.sign(dy) * exp32(-e2 / 3.0)
        e = np.sqrt(e2)
        e3 = e2 * e
        inside = exp32(-(e3 * e3))
        rings = 0.5 + 0.5 * sin32(e * np.float32(r / (0.18 * ring)) * np.float32(2 * np.pi))
        core = exp32(-e2 / 0.08)
        knot_shade[near] += inside * (0.25 + 0.2 * rings) + 0.35 * core
    grain = sin32(phase * np.float32(2 * np.pi / ring))
    up = np.maximum(0.0, grain)
    late = _eighth_power(up)  # thin dark late-wood lines
    streaks = smooth_noise(rng, shape, max(2, int(1.5 * px_per_mm)))
    bands = rng.standard_normal(int(h / ring * 4) + 64)  # light and dark bands along the grain
    tone_along = np.interp(phase / np.float32(0.25 * ring) + 32.0, np.arange(bands.size), bands)
    streaks = streaks + 1.5 * tone_along.astype(np.float32)
    shade = 1.0 + 0.06 * grain - 0.22 * late + 0.05 * streaks - np.minimum(knot_shade, 0.75)
    slat = float(rng.uniform(70.0, 140.0)) * px_per_mm
    gap = float(rng.uniform(0.0, 4.0)) * px_per_mm
    offset = float(rng.uniform(0, slat))
    where = (yy + offset) % slat
    shade = np.where(where < gap, 0.25 + 0.1 * smooth_noise(rng, shape, 16), shade)
    edge = exp32(-(((where - gap) / max(1.0, 0.6 * px_per_mm)) ** 2))
    shade = shade - 0.25 * edge
    blots = smooth_noise(rng, shape, max(2, int(0.8 * px_per_mm)))  # nail holes, dirt
    shade = shade * (1.0 - 0.5 * np.clip(2.0 * (blots - 2.6), 0.0, 1.0))
    tone = 1.0 + 0.12 * smooth_noise(rng, shape, max(8, int(slat)))  # slats differ
    return compose(base, np.asarray(shade * tone, dtype=np.float32), 3.0 * fine_noise(rng, shape))


# A knot's terms are exp32(-e2 / 3) and smaller, e2 its squared elliptic distance: past
# e2 = 320 the first is below half float32's least subnormal (e^-106.7 < 2^-150) and
# rounds to 0, the others sooner, so adding them there adds exactly 0.
_KNOT_REACH = math.sqrt(320.0)


def _knot_window(
    kx: float, ky: float, rx: float, ry: float, shape: tuple[int, int]
) -> tuple[slice, slice]:
    """The pixels within `_KNOT_REACH` radii (`rx` across, `ry` along) of the knot at
    (kx, ky), and a pixel more for rounding: the same field as over the whole table,
    computed where it is not 0 (a large table has a knot every 9000 mm^2)."""
    h, w = shape
    reach_x, reach_y = _KNOT_REACH * rx + 2, _KNOT_REACH * ry + 2
    x0, x1 = max(0, math.floor(kx - reach_x)), min(w, math.ceil(kx + reach_x) + 1)
    y0, y1 = max(0, math.floor(ky - reach_y)), min(h, math.ceil(ky + reach_y) + 1)
    return slice(y0, max(y0, y1)), slice(x0, max(x0, x1))


def _eighth_power(x: Field) -> Field:
    """x ** 8 by multiplications (numpy's float32 power differs between CPUs)."""
    x2 = x * x
    x4 = x2 * x2
    return np.asarray(x4 * x4, dtype=np.float32)


def _tanh(x: Field) -> Field:
    """tanh by `portable.exp32` (numpy's float32 tanh differs between CPUs)."""
    return np.asarray(1.0 - 2.0 / (exp32(2.0 * np.clip(x, -20, 20)) + 1.0), dtype=np.float32)


def _cells(rng: np.random.Generator, shape: tuple[int, int], cell: float) -> tuple[Field, Field]:
    """Worley noise: each pixel's distances to the nearest and second nearest of
    random points about `cell` pixels apart (one per cell of a jittered grid)."""
    h, w = shape
    gh, gw = int(h / cell) + 3, int(w / cell) + 3
    points = rng.uniform(0.0, 1.0, (gh, gw, 2)).astype(np.float32)
    yy, xx = _grid(shape)
    wobble = np.float32(0.25 * cell)
    yy = yy + wobble * smooth_noise(rng, shape, max(2, int(2 * cell)))
    xx = xx + wobble * smooth_noise(rng, shape, max(2, int(2 * cell)))
    gy = np.clip((yy / cell).astype(np.int64), -1, gh - 3) + 1
    gx = np.clip((xx / cell).astype(np.int64), -1, gw - 3) + 1
    # each point's coordinates gathered by flat index (`take`): the same values as
    # indexing `points` by two index arrays, in two thirds of the time
    along_y, along_x = points[..., 0].ravel(), points[..., 1].ravel()
    size = np.float32(cell)
    first = np.full(shape, np.float32(1e9), dtype=np.float32)
    second = first.copy()
    for y0 in range(0, h, _CELL_ROWS):  # in bands of rows that stay in the CPU's cache
        band = slice(y0, min(h, y0 + _CELL_ROWS))
        _nearest_two(
            (along_y, along_x), (gh, gw), size, (gy[band], gx[band], yy[band], xx[band]),
            (first[band], second[band]),
        )  # fmt: skip
    return first, second


_CELL_ROWS = 32


def _nearest_two(
    along: tuple[Field, Field],
    grid: tuple[int, int],
    size: np.float32,
    at_pixels: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], Field, Field],
    out: tuple[Field, Field],
) -> None:
    """`_cells`' distances for a band of pixels, into `out` (first, second): each
    pixel's on its own, the same operations in the same order whatever the band."""
    (along_y, along_x), (gh, gw) = along, grid
    gy, gx, yy, xx = at_pixels
    first, second = out
    for oy in (-1, 0, 1):
        cy = np.minimum(np.maximum(gy + oy, 0), gh - 1)
        row, cy_f = cy * gw, cy.astype(np.float32) - 1
        for ox in (-1, 0, 1):
            cx = np.minimum(np.maximum(gx + ox, 0), gw - 1)
            at = row + cx
            py = along_y.take(at)
            py += cy_f
            py *= size
            py -= yy
            py *= py
            px = along_x.take(at)
            px += cx.astype(np.float32) - 1
            px *= size
            px -= xx
            px *= px
            py += px
            d = np.sqrt(py, out=py)
            np.minimum(second, np.maximum(first, d, out=px), out=second)
            np.minimum(first, d, out=first)


def black_leather(rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float) -> Image:
    """Black crinkled leatherette: a height field of domed cells about a millimetre
    across between crinkled grooves, lit from one side: the black surface shows
    glinting streaks on the ridges that face the light, brighter where the light's
    reflection falls (a broad patch)."""
    cell = float(rng.uniform(0.5, 1.5)) * px_per_mm
    first, second = _cells(rng, shape, cell)
    edge = (second - first) / np.float32(cell)  # 0 on a groove, ~0.5 in a cell
    edge = np.abs(edge + 0.08 * smooth_noise(rng, shape, max(1, int(0.12 * px_per_mm))))
    dome = np.sqrt(np.minimum(edge, 0.5) / 0.5)
    bumps = smooth_noise(rng, shape, max(1, int(0.15 * px_per_mm)))
    height = np.float32(0.05) * dome + np.float32(0.01) * bumps  # mm
    gy, gx = (np.float32(px_per_mm) * g for g in np.gradient(height))  # slope, mm per mm
    norm = np.sqrt(gx * gx + gy * gy + 1.0)
    # The light's reflection: the half vector leans away from the vertical by `tilt`,
    # which changes over the table (where it is upright, flat cell tops shine whole).
    angle = float(rng.uniform(0, 2 * np.pi))
    tilt = 0.2 + 0.8 * (0.5 + 0.5 * _tanh(1.5 * smooth_noise(rng, shape, int(60 * px_per_mm))))
    hx, hy = tilt * np.float32(np.cos(angle)), tilt * np.float32(np.sin(angle))
    facing = np.maximum(0.0, (-gx * hx - gy * hy + 1.0) / (norm * np.sqrt(hx * hx + hy * hy + 1)))
    spec = _power32(facing, 24)
    groove = exp32(-((edge / np.float32(max(0.08, 0.8 / cell))) ** 2))
    light_level = (14.0 + 14.0 * dome + 330.0 * spec) * (1.0 - 0.6 * groove)
    base = np.array([1.0, 1.03, 1.0], dtype=np.float32)
    return compose(base, np.asarray(light_level, dtype=np.float32), 2.0 * fine_noise(rng, shape))


def _power32(x: Field, n: int) -> Field:
    """x ** n by repeated squaring (multiplications: the same on every CPU)."""
    out = np.ones_like(x)
    base = x
    while n:
        if n & 1:
            out = out * base
        base = base * base
        n >>= 1
    return np.asarray(out, dtype=np.float32)


def red_damask(rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float) -> Image:
    """Burgundy damask: swirling motifs of another sheen, outlined by raised lines."""
    yy, xx = _grid(shape)
    base = np.array([48, 30, 128], dtype=np.float32)
    motif = smooth_noise(rng, shape, max(8, int(45 * px_per_mm)))
    motif += 0.25 * smooth_noise(rng, shape, max(6, int(15 * px_per_mm)))
    waves = sin32(motif * np.float32(5.0))
    outline = exp32(-(((waves - 0.55) / 0.06) ** 2))  # thin lines where the motif turns
    fill = 0.5 + 0.5 * _tanh(8.0 * (waves - 0.55))
    k = np.float32(2 * np.pi / max(2.0, 0.8 * px_per_mm))
    twill = sin32((xx + yy) * k)
    folds = smooth_noise(rng, shape, max(8, int(150 * px_per_mm)))
    shade = 1.0 + 0.09 * fill + 0.22 * outline + 0.04 * twill + 0.06 * folds
    return compose(base, np.asarray(shade, dtype=np.float32), 2.5 * fine_noise(rng, shape))


_PLAID_COLOURS = np.array(
    [[120, 200, 205], [205, 190, 140], [170, 175, 170], [150, 205, 170], [215, 220, 225]],
    dtype=np.float32,
)  # yellow-green, light blue, grey, green, cream (BGR)


def _bands(rng: np.random.Generator, n: int, px_per_mm: float) -> npt.NDArray[np.int64]:
    """A colour index per pixel along one axis: bands 4-30 mm wide."""
    out = np.zeros(n, dtype=np.int64)
    at = 0
    while at < n:
        width = max(1, int(rng.uniform(4.0, 30.0) * px_per_mm))
        out[at : at + width] = int(rng.integers(len(_PLAID_COLOURS)))
        at += width
    return out


def plaid(rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float) -> Image:
    """A pastel plaid: bands of colour across and along, mixed where they cross."""
    h, w = shape
    across = _PLAID_COLOURS[_bands(rng, w, px_per_mm)]  # (w, 3)
    along = _PLAID_COLOURS[_bands(rng, h, px_per_mm)]  # (h, 3)
    cloth = 0.5 * (across[None, :, :] + along[:, None, :])
    threads = weave(shape, max(2.0, 0.9 * px_per_mm), 5.0) + 2.5 * fine_noise(rng, shape)
    folds = 1.0 + 0.05 * smooth_noise(rng, shape, max(8, int(110 * px_per_mm)))
    out = cloth * folds[:, :, None] + threads[:, :, None]
    return np.asarray(np.clip(out, 0, 255), dtype=np.uint8)


def speckled_mat(rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float) -> Image:
    """A dark grey mat with a fine speckled grain (light and dark flecks)."""
    base = np.array([52, 52, 50], dtype=np.float32)
    grain = smooth_noise(rng, shape, max(1, int(0.35 * px_per_mm)))
    flecks = fine_noise(rng, shape)
    light = (flecks > 2.4).astype(np.float32) - (flecks < -2.6).astype(np.float32)
    broad = smooth_noise(rng, shape, max(8, int(120 * px_per_mm)))
    shade = 1.0 + 0.12 * grain + 0.35 * light + 0.05 * broad
    return compose(base, np.asarray(shade, dtype=np.float32), 3.0 * fine_noise(rng, shape))
