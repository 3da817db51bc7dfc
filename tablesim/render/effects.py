"""What the light and the camera do to a frame: colour, fall-off, glare, blur, noise, JPEG."""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from tablesim.render.portable import exp32, linear_resize, scaled_product
from tablesim.render.styles import LIGHT_GAINS, Lighting, RenderStyle, Surface
from tablesim.render.textures import NOISE_PAD, NOISE_SCALE, noise_pool

Image = npt.NDArray[np.uint8]
FIELD_STEP = 16  # light fields are computed on a grid this much coarser than the frame


def _grid(h: int, w: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    gh, gw = h // FIELD_STEP + 2, w // FIELD_STEP + 2
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
    return xx / (gw - 1), yy / (gh - 1)


def light_field(
    style: RenderStyle, shape: tuple[int, int], rng: np.random.Generator, exposure: float = 1.0
) -> tuple[Image, Image]:
    """Per-pixel light gains (x128, BGR) and an additive glare image (BGR).

    `exposure` scales the whole light (a cloud, a lamp switched on); gains saturate
    at twice the base level.
    """
    h, w = shape
    xx, yy = _grid(h, w)
    aspect = w / h
    if style.lighting is Lighting.LAMP:
        cx, cy = rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.7)
        r2 = ((xx - cx) * aspect) ** 2 + (yy - cy) ** 2
        level = 0.62 + 0.5 * exp32(-r2 / (2 * 0.45**2))
    else:
        a = rng.uniform(0, 2 * math.pi)
        level = 0.96 + 0.12 * ((xx - 0.5) * math.cos(a) + (yy - 0.5) * math.sin(a))
    gains = np.array(LIGHT_GAINS[style.lighting], dtype=np.float32)
    lit = level[:, :, None] * gains[None, None, :] * (128.0 * exposure)
    field = np.clip(lit, 0, 255).astype(np.uint8)
    gx, gy = rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.8)
    spread = 0.09 if style.surface is Surface.DARK_GLOSSY else 0.05
    g2 = ((xx - gx) * aspect) ** 2 + (yy - gy) ** 2
    if style.glare <= 0:  # no glare: all zeros, as its field upscaled would be
        return _up(field, w, h), np.zeros((h, w, 3), dtype=np.uint8)
    glare = 255.0 * style.glare * exp32(-g2 / (2 * spread**2))
    glare_img = np.clip(glare[:, :, None] * np.minimum(gains, 1.0)[None, None, :], 0, 255)
    return _up(field, w, h), _up(glare_img.astype(np.uint8), w, h)


def _up(small: Image, w: int, h: int) -> Image:
    gh, gw = small.shape[:2]
    # the grid's last node sits at the far edge; scale so node k lands on k * step
    # (portable.linear_resize: INTER_LINEAR's 8-bit result differs on arm64)
    big = linear_resize(small, ((gw - 1) * FIELD_STEP, (gh - 1) * FIELD_STEP))
    return np.ascontiguousarray(big[:h, :w])


@lru_cache(maxsize=8)
def _light(style: RenderStyle, h: int, w: int, seed: int, exposure: float) -> tuple[Image, Image]:
    """`light_field` of a seed, kept for the next frames of the same scene (read-only)."""
    gains, glare = light_field(style, (h, w), np.random.default_rng([seed, 0x11]), exposure)
    gains.flags.writeable = False
    glare.flags.writeable = False
    return gains, glare


def finish(frame: Image, style: RenderStyle, seed: int, index: int, exposure: float = 1.0) -> Image:
    """Light, glare, blur, noise, a phone's sharpening and JPEG, in that order, for
    one frame.

    The light depends on `seed` (and `exposure`); the noise also on the frame `index`.
    """
    h, w = frame.shape[:2]
    gains, glare = _light(style, h, w, seed, exposure)
    rng = np.random.default_rng([seed, index, 0x13])
    out: cv2.typing.MatLike = scaled_product(frame, gains, 128)
    if style.glare > 0:
        out = cv2.add(out, glare)
    if style.blur_px > 0:
        out = cv2.GaussianBlur(out, (0, 0), style.blur_px)
    if style.noise > 0:
        pos, neg = noise_pool((h, w))
        dy, dx = (int(v) for v in rng.integers(0, NOISE_PAD, 2))
        alpha = style.noise / NOISE_SCALE
        out = cv2.add(out, cv2.convertScaleAbs(pos[dy : dy + h, dx : dx + w], alpha=alpha))
        out = cv2.subtract(out, cv2.convertScaleAbs(neg[dy : dy + h, dx : dx + w], alpha=alpha))
    if style.sharpen > 0:
        out = _sharpened(np.asarray(out, dtype=np.uint8), style.sharpen)
    if style.jpeg_quality is not None:
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, style.jpeg_quality])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            out = decoded
    return np.asarray(out, dtype=np.uint8)


def _sharpened(image: Image, amount: float) -> Image:
    """An unsharp mask as a phone's processing applies it: halos at edges, the
    sensor's noise made coarser (sigma 1.2 px; computed in integers after the blur)."""
    soft = cv2.GaussianBlur(image, (0, 0), 1.2).astype(np.int32)
    gain = round(amount * 256)
    out = image.astype(np.int32)  # image * 256 + (image - soft) * gain, in place: integers
    edge = np.subtract(out, soft, out=soft)
    edge *= gain
    out *= 256
    out += edge
    out += 128
    out >>= 8
    return np.asarray(np.clip(out, 0, 255, out=out), dtype=np.uint8)
