"""The renderer's portable image arithmetic (`tablesim.render.portable`): the same bytes
on every OpenCV version and CPU, and the same picture as the OpenCV calls it replaces."""

from __future__ import annotations

import platform

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from tablesim.render.portable import (
    clip_segment,
    cubic_resize,
    exp32,
    linear_resize,
    scaled_product,
    sin32,
    warp,
)

Image = npt.NDArray[np.uint8]
TILT = np.array([[0.93, 0.21, 14.3], [-0.17, 1.08, 9.7], [1.1e-4, -2.3e-4, 1.0]])


def _texture(h: int, w: int, channels: int = 3) -> Image:
    rng = np.random.default_rng(7)
    img = rng.integers(0, 256, (h, w, channels), dtype=np.uint8)
    return np.asarray(cv2.GaussianBlur(img, (0, 0), 1.5), dtype=np.uint8)


def _bilinear_reference(
    src: Image, to_dst: npt.NDArray[np.float64], size: tuple[int, int]
) -> Image:
    """A plain float64 bilinear warp (BORDER_CONSTANT 0), written out by hand."""
    w, h = size
    inv = np.linalg.inv(to_dst)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
    den = inv[2, 0] * xs + inv[2, 1] * ys + inv[2, 2]
    sx = (inv[0, 0] * xs + inv[0, 1] * ys + inv[0, 2]) / den
    sy = (inv[1, 0] * xs + inv[1, 1] * ys + inv[1, 2]) / den
    x0, y0 = np.floor(sx).astype(np.int64), np.floor(sy).astype(np.int64)
    fx, fy = (sx - x0)[:, :, None], (sy - y0)[:, :, None]
    sh, sw = src.shape[:2]

    def at(dy: int, dx: int) -> npt.NDArray[np.float64]:
        yy, xx = y0 + dy, x0 + dx
        inside = (xx >= 0) & (xx < sw) & (yy >= 0) & (yy < sh)
        got = src[np.clip(yy, 0, sh - 1), np.clip(xx, 0, sw - 1)].astype(np.float64)
        return np.where(inside[:, :, None], got, 0.0)

    top = at(0, 0) * (1 - fx) + at(0, 1) * fx
    bottom = at(1, 0) * (1 - fx) + at(1, 1) * fx
    return np.asarray(np.rint(top * (1 - fy) + bottom * fy), dtype=np.uint8)


def test_warp_is_a_bilinear_warp_to_one_grey_level() -> None:
    src = _texture(120, 160)
    got = warp(src, TILT, (170, 130), border=(0, 0, 0))
    want = _bilinear_reference(src, TILT, (170, 130))
    diff = np.abs(got.astype(np.int16) - want.astype(np.int16))
    assert diff.max() <= 1
    assert np.count_nonzero(diff) < 0.01 * diff.size


def test_warp_matches_opencvs_warp_perspective() -> None:
    """OpenCV 5 blends at the exact position (to one grey level here); OpenCV 4 at the
    nearest 1/32 pixel, up to a few levels off (why the renderer no longer uses it)."""
    src = _texture(120, 160)
    got = warp(src, TILT, (170, 130), border=(9, 9, 9))
    theirs = cv2.warpPerspective(
        src, TILT, (170, 130), flags=cv2.INTER_LINEAR, borderValue=(9, 9, 9)
    )
    diff = np.abs(got.astype(np.int16) - np.asarray(theirs, dtype=np.int16))
    assert diff.max() <= (1 if int(cv2.__version__.split(".")[0]) >= 5 else 8)
    assert diff.mean() < 0.6


def test_transparent_warp_keeps_what_lies_outside_and_blends_the_rim() -> None:
    dst = np.full((20, 20), 200, dtype=np.uint8)
    mark = np.zeros((4, 4), dtype=np.uint8)
    double = np.array([[2.0, 0, 5.5], [0, 2.0, 5.5], [0, 0, 1]])  # pixel i's centre -> 2i + 5.5
    warp(mark, double, (20, 20), dst=dst)
    # source x = (x - 5.5) / 2: its four neighbours inside for x in 5.5..11.5, some for
    # x in 3.5..13.5 (the rim, blended with the paper), none beyond (the paper kept)
    assert (dst[:4, :] == 200).all() and (dst[14:, :] == 200).all()
    assert (dst[:, :4] == 200).all() and (dst[:, 14:] == 200).all()
    assert (dst[6:12, 6:12] == 0).all()
    assert (dst[5, 6:12] == 50).all() and (dst[4, 6:12] == 150).all()


@pytest.mark.parametrize("border", [(9, 90, 200), None])
def test_a_window_of_a_warp_is_the_same_bytes_as_that_part_of_the_whole(
    border: tuple[int, ...] | None,
) -> None:
    src = _texture(70, 90)
    paper = _texture(80, 100)[::-1].copy()
    whole = warp(src, TILT, (100, 80), border=border, dst=paper.copy())
    for window in ((0, 0, 100, 80), (13, 7, 61, 45), (99, 79, 100, 80), (0, 30, 100, 31)):
        x0, y0, x1, y1 = window
        part = paper[y0:y1, x0:x1].copy()
        got = warp(src, TILT, (100, 80), border=border, dst=part, window=window)
        assert np.array_equal(got, whole[y0:y1, x0:x1]), window
    with pytest.raises(ValueError, match="not within"):
        warp(src, TILT, (100, 80), border=(0,), window=(50, 10, 101, 20))


def test_scaled_product_rounds_half_to_even_like_exact_arithmetic() -> None:
    a, b = np.meshgrid(np.arange(256), np.arange(256))
    for divisor in (128, 255, 100):  # the renderer's two in integers; any other by a table
        q, r = np.divmod(a * b, divisor)
        up = (2 * r > divisor) | ((2 * r == divisor) & (q % 2 == 1))
        want = np.minimum(q + up, 255)
        got = scaled_product(a.astype(np.uint8), b.astype(np.uint8), divisor)
        assert np.array_equal(got, want)


def test_scaled_product_by_one_channel_scales_every_channel_alike() -> None:
    img = _texture(40, 70)
    gains = _texture(40, 70, channels=1)  # (40, 70): OpenCV's blur drops the one channel
    for divisor in (128, 255, 100):
        got = scaled_product(img, gains[:, :, None], divisor)
        for k in range(3):
            assert np.array_equal(got[:, :, k], scaled_product(img[:, :, k], gains, divisor))


def test_scaled_product_is_what_opencvs_multiply_gives_on_x86() -> None:
    img = _texture(60, 80)
    gains = _texture(60, 80)
    theirs = cv2.multiply(img, gains, scale=1 / 255)
    diff = np.abs(scaled_product(img, gains, 255).astype(np.int16) - theirs.astype(np.int16))
    assert diff.max() <= 1  # equal on x86-64; arm64's truncation is one level below


@pytest.mark.parametrize(("shape", "size"), [((9, 13, 3), (480, 320)), ((61, 83), (1500, 1100))])
def test_linear_resize_is_opencvs_on_x86(shape: tuple[int, ...], size: tuple[int, int]) -> None:
    """Equal to OpenCV's INTER_LINEAR on x86-64 (4.11 and 5.0 alike). OpenCV's own
    differs on arm64 by a few grey levels (4 here under emulation, OpenCV 4.11), which
    is why the renderer has its own: there, only the picture is the same."""
    src = np.random.default_rng(1).integers(0, 256, shape, dtype=np.uint8)
    theirs = cv2.resize(src, size, interpolation=cv2.INTER_LINEAR)
    diff = np.abs(linear_resize(src, size).astype(np.int16) - theirs.astype(np.int16))
    if platform.machine() in ("x86_64", "AMD64"):
        assert diff.max() == 0
    else:
        assert diff.max() <= 8 and diff.mean() < 0.5


def test_cubic_resize_is_opencvs_cubic_resize() -> None:
    small = np.random.default_rng(3).standard_normal((7, 9)).astype(np.float32)
    theirs = cv2.resize(small, (85, 61), interpolation=cv2.INTER_CUBIC)
    assert np.allclose(cubic_resize(small, (85, 61)), theirs, atol=1e-5)


def test_sin32_and_exp32_are_float64_results_rounded_once() -> None:
    x = np.linspace(-30, 30, 10001, dtype=np.float32)
    assert np.array_equal(sin32(x), np.sin(x.astype(np.float64)).astype(np.float32))
    arg = -(x**2) / np.float32(50)
    assert np.array_equal(exp32(arg), np.exp(arg.astype(np.float64)).astype(np.float32))
    assert np.allclose(sin32(x), np.sin(x), atol=1e-6)


def test_clip_segment_keeps_the_part_inside_the_grown_image() -> None:
    assert clip_segment((10.0, 10.0), (50.0, 20.0), (100, 80), 5) == ((10.0, 10.0), (50.0, 20.0))
    (p, q) = clip_segment((50.0, 40.0), (5050.0, 40.0), (100, 80), 5) or ((0, 0), (0, 0))
    assert p == (50.0, 40.0) and q == (104.0, 40.0)
    assert clip_segment((-50.0, -50.0), (-50.0, 500.0), (100, 80), 5) is None
