"""Image arithmetic that gives the same bytes on every OpenCV version and CPU.

A rendered frame is a test's input: the same scene must give the same pixels on the
development machine (OpenCV 5), on a Raspberry Pi (OpenCV 4.11, the last for the
system's numpy 1.x) and on arm64, or a test pins a reading of a different picture
there (issue 17). Several OpenCV calls the renderer used do not give the same bytes:

- `warpPerspective` / `warpAffine` (bilinear): OpenCV 4 rounds each source position
  to 1/32 pixel and blends in fixed point, OpenCV 5 blends at the exact position;
  up to 7 grey levels apart on most pixels. Their `BORDER_TRANSPARENT` differs too:
  OpenCV 4 writes only pixels whose four neighbours are all inside the source,
  OpenCV 5 also the rim, blending with what the destination holds (a marker drawn
  0.6 px off on OpenCV 4).
- `multiply(..., scale=1/255)` on 8-bit images rounds on x86-64 but truncates on
  arm64 (as seen under qemu): one grey level apart on 40 % of the pixels.
- `resize(INTER_LINEAR)` of 8-bit images differs on arm64 by up to 4 grey levels:
  `linear_resize` computes what it gives on x86-64 (OpenCV's 11-bit weights, its
  vector code's rounding) in integers. (`INTER_LINEAR_EXACT`, bit-exact by design,
  differs from it by a grey level on 8 % of the pixels: enough to move two of the
  detector's decisions on wooden tiles, issue 17.)
- `resize(INTER_CUBIC)` of float images differs in the last bits between versions
  and CPUs; `cubic_resize` here computes it in float64 in a fixed order.
- `line` with a thickness above 1 and an end far outside the image draws another
  band on OpenCV 5 than on 4 (up to 200 grey levels on its edge): `clip_segment`
  cuts it to the image grown by the line's thickness first, which both draw alike.
- numpy's float32 `exp` and `power` differ in the last bit between CPUs (its SIMD
  code for each); `sin32`/`exp32` take float64's result rounded to float32, which is
  the same except on a tie, about once in 10^9 values.

The replacements compute in numpy with element-wise float64, float32 or integer
operations, each rounded by IEEE 754 the same way on every CPU (no fused
multiply-add, no library maths), and round to 8 bits half to even.
`warp` gives what OpenCV 5's bilinear warp gives (to one grey level on about 0.1 %
of the pixels), so frames stayed as the detector's tests were tuned on.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Final

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
Pixels = npt.NDArray[Any]  # 8-bit values, in any integer dtype OpenCV hands out
Floats = npt.NDArray[np.float64]
Matrix = npt.NDArray[np.float64]
Point = tuple[float, float]
Segment = tuple[Point, Point]

CUBIC_A: Final = -0.75  # OpenCV's bicubic kernel


def sin32(x: npt.NDArray[np.floating]) -> npt.NDArray[np.float32]:
    """`np.sin` rounded to float32 from float64 (see the module's docstring)."""
    return np.sin(x.astype(np.float64)).astype(np.float32)


def exp32(x: npt.NDArray[np.floating]) -> npt.NDArray[np.float32]:
    """`np.exp` rounded to float32 from float64 (see the module's docstring)."""
    return np.exp(x.astype(np.float64)).astype(np.float32)


def scaled_product(a: Pixels, b: Pixels, divisor: int) -> Image:
    """`a * b / divisor` per element of two 8-bit images (b may have one channel for
    all of a's), rounded half to even, at most 255: what `cv2.multiply(a, b,
    scale=1 / divisor)` gives on x86-64. For 255 and 128 (what the renderer divides
    by) in 16-bit integers, exact for every pair of values (a test checks all 65536);
    for another divisor looked up in a table of every product."""
    if a.ndim == 3 and b.ndim == 3 and b.shape[2] == 1 < a.shape[2]:
        b = cv2.merge([b[:, :, 0]] * a.shape[2])  # a copy per channel beats a broadcast
    x = a.astype(np.uint16)
    x *= b  # at most 255 * 255: exact in 16 bits
    if divisor == 255:  # round(x / 255); no x lies half-way, 255 being odd
        x += 128
        x += x >> 8
        x >>= 8
        return x.astype(np.uint8)
    if divisor == 128:  # round half to even: a tie (x % 128 == 64) goes up when x // 128 is odd
        odd = x >> 7
        odd &= 1
        x += 63
        x += odd
        x >>= 7
        np.minimum(x, 255, out=x)
        return x.astype(np.uint8)
    index = np.left_shift(a.astype(np.uint16), 8)
    index |= b
    return _product_table(divisor)[index]


@lru_cache(maxsize=4)
def _product_table(divisor: int) -> Image:
    """round(a * b / divisor) for every pair of 8-bit values, at index a * 256 + b."""
    a, b = np.divmod(np.arange(1 << 16, dtype=np.int64), 256)
    return np.asarray(np.clip(np.rint(a * b / divisor), 0, 255), dtype=np.uint8)


def clip_segment(a: Point, b: Point, size: tuple[int, int], margin: float) -> Segment | None:
    """The part of segment a-b within the image of `size` (width, height) grown by
    `margin` on every side (Liang-Barsky, in Python floats), or None if none is."""
    lo, hi = (-margin, -margin), (size[0] - 1 + margin, size[1] - 1 + margin)
    d = (b[0] - a[0], b[1] - a[1])
    t0, t1 = 0.0, 1.0
    for k in (0, 1):
        for p, q in ((-d[k], a[k] - lo[k]), (d[k], hi[k] - a[k])):
            if p == 0:
                if q < 0:
                    return None
            elif p < 0:
                t0 = max(t0, q / p)
            else:
                t1 = min(t1, q / p)
    if t0 > t1:
        return None
    return (a[0] + t0 * d[0], a[1] + t0 * d[1]), (a[0] + t1 * d[0], a[1] + t1 * d[1])


def inverse_3x3(m: Matrix) -> Matrix:
    """The inverse of a 3x3 matrix by its adjugate, in Python floats (the same bits
    everywhere, unlike LAPACK's)."""
    a, b, c, d, e, f, g, h, i = (float(v) for v in np.asarray(m, dtype=np.float64).ravel())
    co = (e * i - f * h, f * g - d * i, d * h - e * g)
    det = a * co[0] + b * co[1] + c * co[2]
    adj = (
        (co[0], c * h - b * i, b * f - c * e),
        (co[1], a * i - c * g, c * d - a * f),
        (co[2], b * g - a * h, a * e - b * d),
    )
    return np.array(adj, dtype=np.float64) / det


def warp(
    src: Pixels,
    to_dst: Matrix,
    size: tuple[int, int],
    *,
    border: tuple[int, ...] | None = None,
    dst: Image | None = None,
    window: tuple[int, int, int, int] | None = None,
) -> Image:
    """Bilinear perspective warp of `src` by the 3x3 `to_dst` (source -> destination
    pixels) into an image of `size` (width, height), like `cv2.warpPerspective`.

    A source neighbour outside `src` counts as `border` (per channel; `BORDER_CONSTANT`),
    or with `border=None` as the destination's own pixel, written in place into `dst`
    (OpenCV 5's `BORDER_TRANSPARENT`: pixels wholly outside keep what `dst` holds).
    `window` (x0, y0, x1, y1) computes only that part of the destination and returns
    it: the same bytes as that part of the whole warp. Where each pixel comes from is
    the whole warp's, kept for the next call with the same matrix (a hand's shadow moves
    by the same offset in every frame), so each call costs its part.
    """
    w, h = size
    x0, y0, x1, y1 = window if window is not None else (0, 0, w, h)
    if not (0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h):
        raise ValueError(f"warp window {window} is not within {w}x{h}")
    if border is None and (dst is None or dst.shape[:2] != (y1 - y0, x1 - x0)):
        raise ValueError(f"warp with border=None draws into dst: give a {x1 - x0}x{y1 - y0} dst")
    geo = _geometry(
        np.asarray(to_dst, dtype=np.float64).tobytes(), (w, h), src.shape[:2], border is None
    )
    if window is not None:
        geo = geo.part(x0, y0, x1, y1)
    fx, fy, gx, gy = geo.weights
    planes = cv2.split(src) if src.ndim == 3 else [src]
    fills = border if border and len(border) >= len(planes) else (border or (0,))[:1] * len(planes)
    behind = cv2.split(dst) if dst is not None and dst.ndim == 3 else [dst] * len(planes)
    out = []
    for k, plane in enumerate(planes):  # one channel at a time: the weights fit each
        c = geo.of(plane, fills[k], behind[k])
        value = c[0] * gx  # uint8 * float32: float32, each value exact
        value += c[1] * fx
        value *= gy
        lower = c[2] * gx
        lower += c[3] * fx
        lower *= fy
        value += lower
        # a blend of 8-bit values with weights summing to 1 lies within 0..255
        out.append(np.rint(value, out=value).astype(np.uint8))
    result = np.asarray(cv2.merge(out), dtype=np.uint8) if src.ndim == 3 else out[0]
    if dst is not None:
        dst[...] = result
        return dst
    return result


@lru_cache(maxsize=6)  # a frame's warp, its four markers' and a hand's shadow
def _geometry(
    to_dst: bytes, size: tuple[int, int], shape: tuple[int, ...], transparent: bool
) -> _Neighbours:
    """Where each pixel of a warp comes from, kept for the next frame of the same
    camera (a game's frames all share one)."""
    xs, ys = _source_positions(inverse_3x3(np.frombuffer(to_dst).reshape(3, 3)), size)
    x0, y0 = np.floor(xs), np.floor(ys)
    fx, fy = (xs - x0).astype(np.float32), (ys - y0).astype(np.float32)
    return _Neighbours(x0, y0, shape, (fx, fy, 1 - fx, 1 - fy), transparent=transparent)


class _Neighbours:
    """The four source pixels around each position, by `cv2.remap` at whole pixels
    (nearest: exact on every version); outside the source a fill value, or with
    `transparent` the destination's own pixel. `weights`: fx, fy, 1 - fx, 1 - fy."""

    def __init__(
        self,
        x0: Floats,
        y0: Floats,
        shape: tuple[int, ...],
        weights: tuple[npt.NDArray[np.float32], ...],
        *,
        transparent: bool,
    ) -> None:
        self.weights = weights
        mx, my = x0.astype(np.float32), y0.astype(np.float32)
        self.maps: tuple[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]], ...] = (
            (mx, my),
            (mx + 1, my),
            (mx, my + 1),
            (mx + 1, my + 1),
        )
        self.outside: list[npt.NDArray[np.bool_]] = []
        if transparent:
            sh, sw = shape[:2]
            for dy, dx in ((0, 0), (0, 1), (1, 0), (1, 1)):
                self.outside.append(
                    (x0 + dx < 0) | (x0 + dx >= sw) | (y0 + dy < 0) | (y0 + dy >= sh)
                )

    def part(self, x0: int, y0: int, x1: int, y1: int) -> _Neighbours:
        """The same for the destination's pixels in x0..x1, y0..y1 (views, no copy)."""
        cut = (slice(y0, y1), slice(x0, x1))
        out = object.__new__(_Neighbours)
        out.weights = tuple(w[cut] for w in self.weights)
        out.maps = tuple((mx[cut], my[cut]) for mx, my in self.maps)
        out.outside = [o[cut] for o in self.outside]
        return out

    def of(self, plane: Pixels, fill: int, behind: Pixels | None) -> list[Pixels]:
        corners = []
        for k, (mx, my) in enumerate(self.maps):
            got = cv2.remap(
                plane,
                mx,
                my,
                cv2.INTER_NEAREST,
                borderMode=cv2.BORDER_CONSTANT,
                borderValue=(float(fill),) * 4,
            )
            if self.outside and behind is not None:
                got = np.where(self.outside[k], behind, got)
            corners.append(got)
        return corners


def _source_positions(to_src: Matrix, size: tuple[int, int]) -> tuple[Floats, Floats]:
    """Where each destination pixel's centre comes from in the source (float64)."""
    a, b, c, d, e, f, g, k, i = (float(v) for v in to_src.ravel())
    xs = np.arange(size[0], dtype=np.float64)[None, :]
    ys = np.arange(size[1], dtype=np.float64)[:, None]
    den = (g * xs + k * ys) + i
    return ((a * xs + b * ys) + c) / den, ((d * xs + e * ys) + f) / den


RESIZE_COEF: Final = 2048  # OpenCV's INTER_RESIZE_COEF_SCALE (11 bits)


def linear_resize(src: Image, size: tuple[int, int]) -> Image:
    """`cv2.resize(src, size, interpolation=cv2.INTER_LINEAR)` of an 8-bit image, as
    OpenCV 4 and 5 compute it on x86-64: weights rounded to 1/2048, rows blended
    exactly, then columns with its vector code's rounding (each product's top 16
    bits of the value over 16, then a quarter rounded), in integers."""
    w, h = size
    sh, sw = src.shape[:2]
    img = (src if src.ndim == 3 else src[:, :, None]).astype(np.int32)
    sx, ax0, ax1 = _linear_axis(w, sw, clamp_weights=True)
    sy, ay0, ay1 = _linear_axis(h, sh, clamp_weights=False)
    rows = img[:, sx, :] * ax0[None, :, None]
    rows += img[:, np.minimum(sx + 1, sw - 1), :] * ax1[None, :, None]
    rows >>= 4
    c = img.shape[2]
    rows = rows.reshape(sh, w * c)  # a row's channels side by side: 2-D rows blend faster
    value = rows[np.clip(sy, 0, sh - 1)]  # in place from here: the frame-sized arrays
    value *= ay0[:, None]
    value >>= 16
    bottom = rows[np.clip(sy + 1, 0, sh - 1)]
    bottom *= ay1[:, None]
    bottom >>= 16
    value += bottom
    value += 2
    value >>= 2
    out: Image = np.clip(value, 0, 255, out=value).astype(np.uint8).reshape(h, w, c)
    return out if src.ndim == 3 else np.ascontiguousarray(out[:, :, 0])


def _linear_axis(
    n_dst: int, n_src: int, *, clamp_weights: bool
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """Source index and the two 11-bit weights of each destination sample, computed
    as OpenCV does (position in float32; across, an edge sample takes weight 1)."""
    scale = 1.0 / (n_dst / n_src)
    f = ((np.arange(n_dst, dtype=np.float64) + 0.5) * scale - 0.5).astype(np.float32)
    s = np.floor(f).astype(np.int64)
    f = f - s.astype(np.float32)
    if clamp_weights:
        edge = (s < 0) | (s >= n_src - 1)
        f[edge] = 0
        s = np.clip(s, 0, n_src - 1)
    coef = np.float32(RESIZE_COEF)
    far = np.rint(f * coef).astype(np.int32)
    near = np.rint((np.float32(1) - f) * coef).astype(np.int32)
    return s, near, far


def cubic_resize(small: npt.NDArray[np.float32], size: tuple[int, int]) -> npt.NDArray[np.float32]:
    """`cv2.resize(small, size, interpolation=cv2.INTER_CUBIC)` of a one-channel float
    image, in float64 (rows, then columns) and returned as float32."""
    w, h = size
    rows = _cubic_axis(small.astype(np.float64), h, axis=0)
    return _cubic_axis(rows, w, axis=1).astype(np.float32)


def _cubic_axis(img: Floats, n: int, *, axis: int) -> Floats:
    """Resample `img` along `axis` to `n` samples with OpenCV's cubic kernel and
    pixel-centre alignment, the edge sample repeated beyond the edge."""
    m = img.shape[axis]
    pos = (np.arange(n, dtype=np.float64) + 0.5) * (m / n) - 0.5
    base = np.floor(pos)
    t = pos - base
    out = np.zeros((*img.shape[:axis], n, *img.shape[axis + 1 :]), dtype=np.float64)
    shape = [1] * img.ndim
    shape[axis] = n
    for k, weight in enumerate(_cubic_weights(t)):
        idx = np.clip(base.astype(np.int64) + (k - 1), 0, m - 1)
        taken = np.take(img, idx, axis=axis)
        taken *= weight.reshape(shape)
        out += taken  # in place: the same sums in the same order
    return out


def _cubic_weights(t: Floats) -> tuple[Floats, Floats, Floats, Floats]:
    """The four weights of OpenCV's cubic convolution at offsets t in [0, 1)."""
    a = CUBIC_A
    w0 = ((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a
    w1 = ((a + 2) * t - (a + 3)) * t * t + 1
    w2 = ((a + 2) * (1 - t) - (a + 3)) * (1 - t) * (1 - t) + 1
    return w0, w1, w2, 1.0 - w0 - w1 - w2
