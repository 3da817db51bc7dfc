"""A hand and sleeved arm reaching over the table, drawn in image pixels."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from tablesim.render.portable import clip_segment, scaled_product, warp
from tablesim.render.scene import Hand
from tablesim.render.styles import BGR

Image = npt.NDArray[np.uint8]
Mask = npt.NDArray[np.uint8]
Vec = npt.NDArray[np.float64]

# (offset across the hand, length) of index, middle, ring and little fingers, in mm
_FINGERS: Final = ((-27.0, 66.0), (-9.0, 75.0), (9.0, 70.0), (27.0, 56.0))
_FINGER_WIDTH: Final = 17.0
_PALM: Final = (52.0, 44.0)  # half length, half width
_HAND_ABOVE_TABLE: Final = 1.15  # the hand is nearer the lens than the table


def _pt(p: Vec) -> tuple[int, int]:
    return (round(float(p[0])), round(float(p[1])))


def _darker(colour: BGR, f: float) -> BGR:
    b, g, r = (round(c * f) for c in colour)
    return (b, g, r)


@dataclass(frozen=True, slots=True)
class _Pen:
    """Draws into the colour layer and the mask at once; lengths in mm."""

    colour: Image
    mask: Mask
    k: float  # pixels per mm at the hand's height

    def line(self, a: Vec, b: Vec, width_mm: float, c: BGR) -> None:
        t = max(1, round(width_mm * self.k))
        h, w = self.mask.shape
        # cut to the frame grown by the width first: OpenCV 4 and 5 draw a thick line
        # whose end lies far outside differently (tablesim.render.portable)
        seen = clip_segment((float(a[0]), float(a[1])), (float(b[0]), float(b[1])), (w, h), t)
        if seen is None:
            return
        p, q = _pt(np.array(seen[0])), _pt(np.array(seen[1]))
        cv2.line(self.colour, p, q, c, t, cv2.LINE_AA)
        cv2.line(self.mask, p, q, 255, t, cv2.LINE_AA)

    def ellipse(self, at: Vec, axes_mm: tuple[float, float], angle: float, c: BGR) -> None:
        axes = (round(axes_mm[0] * self.k), round(axes_mm[1] * self.k))
        cv2.ellipse(self.colour, _pt(at), axes, angle, 0, 360, c, -1, cv2.LINE_AA)
        cv2.ellipse(self.mask, _pt(at), axes, angle, 0, 360, 255, -1, cv2.LINE_AA)


def hand_layers(hand: Hand, shape: tuple[int, int], px_per_mm: float) -> tuple[Image, Mask]:
    """The hand's colours and its coverage mask (255 = hand), both full-frame."""
    h, w = shape
    pen = _Pen(
        np.zeros((h, w, 3), dtype=np.uint8),
        np.zeros((h, w), dtype=np.uint8),
        px_per_mm * _HAND_ABOVE_TABLE,
    )
    tip = np.array(hand.tip, dtype=np.float64)
    d = tip - np.array(hand.entry, dtype=np.float64)
    d /= max(1e-9, float(np.linalg.norm(d)))
    knuckles = tip - d * (78.0 * pen.k)
    palm = knuckles - d * (_PALM[0] * pen.k)
    _arm(pen, hand, palm, d)
    _hand(pen, hand, palm, knuckles, d)
    return pen.colour, pen.mask


def _arm(pen: _Pen, hand: Hand, palm: Vec, d: Vec) -> None:
    """Sleeve (reaching far beyond the frame), cuff and wrist."""
    k = pen.k
    pen.line(palm - d * (95.0 * k), palm - d * (2000.0 * k), 108.0, hand.sleeve)
    pen.line(palm - d * (92.0 * k), palm - d * (100.0 * k), 112.0, _darker(hand.sleeve, 0.8))
    pen.line(palm, palm - d * (90.0 * k), 64.0, _darker(hand.skin, 0.92))


def _hand(pen: _Pen, hand: Hand, palm: Vec, knuckles: Vec, d: Vec) -> None:
    """Palm, four fingers, thumb and a highlight on the back of the hand."""
    k = pen.k
    n = np.array([-d[1], d[0]])
    angle = math.degrees(math.atan2(d[1], d[0]))
    pen.ellipse(palm, _PALM, angle, hand.skin)
    for across, length in _FINGERS:
        base = knuckles + n * (across * k) - d * (10.0 * k)
        end = knuckles + n * (across * 0.9 * k) + d * ((length - 8.5) * k)
        pen.line(base, end, _FINGER_WIDTH, hand.skin)
    thumb = palm + n * (34.0 * k) - d * (12.0 * k)
    pen.line(thumb, thumb + n * (22.0 * k) + d * (48.0 * k), 21.0, _darker(hand.skin, 0.96))
    b, g, r = (min(255, round(c * 1.08)) for c in hand.skin)
    axes = (round(_PALM[0] * 0.55 * k), round(_PALM[1] * 0.5 * k))
    at = _pt(palm - n * (8.0 * k))
    cv2.ellipse(pen.colour, at, axes, angle, 0, 360, (b, g, r), -1, cv2.LINE_AA)


def _motion_kernel(hand: Hand) -> npt.NDArray[np.float32] | None:
    """A line kernel along the arm, `hand.blur_px` long (None: a still hand)."""
    if hand.blur_px < 1.0:
        return None
    half = math.ceil(hand.blur_px / 2)
    size = 2 * half + 1
    kernel = np.zeros((size, size), dtype=np.float32)
    dx, dy = hand.tip[0] - hand.entry[0], hand.tip[1] - hand.entry[1]
    n = max(1e-9, math.hypot(dx, dy))
    ux, uy = dx / n * hand.blur_px / 2, dy / n * hand.blur_px / 2
    p0 = (round(half - ux), round(half - uy))
    p1 = (round(half + ux), round(half + uy))
    cv2.line(kernel, p0, p1, 1.0, 1, cv2.LINE_AA)
    return np.asarray(kernel / kernel.sum(), dtype=np.float32)


def _soften(layer: Image, kernel: npt.NDArray[np.float32] | None) -> Image:
    """Anti-alias the hand's edge, and smear it along its motion."""
    out = layer if kernel is None else cv2.filter2D(layer, -1, kernel)
    return np.asarray(cv2.GaussianBlur(out, (0, 0), 0.8), dtype=np.uint8)


def _shade(frame: Image, shape: Mask, sigma: float) -> None:
    """Darken `frame` under `shape` blurred by `sigma` (a soft shadow, half as dark as
    black at its core). Only the part of the frame the blur reaches is computed: beyond
    it the blur is 0 and the frame stays as it is, the same bytes as blurring the whole
    frame (the part is taken with a margin of zeros wider than the kernel's reach, so
    its border, reflected, holds the zeros that lie beyond it)."""
    x, y, bw, bh = cv2.boundingRect(shape)
    if bw == 0 or bh == 0:
        return
    h, w = shape.shape[:2]
    pad = math.ceil(4.0 * sigma) + 2  # OpenCV's kernel reaches 3 sigma (4 for floats)
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(w, x + bw + pad), min(h, y + bh + pad)
    soft = cv2.GaussianBlur(np.ascontiguousarray(shape[y0:y1, x0:x1]), (0, 0), sigma)
    roi = frame[y0:y1, x0:x1]
    roi[...] = scaled_product(roi, (255 - (soft // 2))[:, :, None], 255)


def _cast(mask: Mask, box: tuple[int, int, int, int], off: float) -> Mask:
    """The hand's `mask` moved by its shadow's offset (`off` down, 0.6 of it across),
    as a bilinear warp of the whole frame gives it (tablesim.render.portable), computed
    only where the moved `box` reaches: beyond it every neighbour is 0."""
    h, w = mask.shape[:2]
    dx, dy = off * 0.6, off
    shift = np.array([[1, 0, dx], [0, 1, dy], [0, 0, 1]], dtype=np.float64)
    x, y, bw, bh = box
    window = (
        max(0, math.floor(x + dx) - 1),
        max(0, math.floor(y + dy) - 1),
        min(w, math.ceil(x + bw + dx) + 2),
        min(h, math.ceil(y + bh + dy) + 2),
    )
    moved = np.zeros_like(mask)
    if window[0] < window[2] and window[1] < window[3]:
        moved[window[1] : window[3], window[0] : window[2]] = warp(
            mask, shift, (w, h), border=(0,), window=window
        )
    return moved


def draw_hand(frame: Image, hand: Hand, px_per_mm: float, *, shadow: bool) -> Mask:
    """Draw the hand (and its soft shadow) into `frame`; return its coverage mask."""
    h, w = frame.shape[:2]
    colour, mask = hand_layers(hand, (h, w), px_per_mm)
    x, y, bw, bh = cv2.boundingRect(mask)
    if bw == 0 or bh == 0:
        return mask
    if shadow:
        _shade(frame, _cast(mask, (x, y, bw, bh), 30.0 * px_per_mm), max(1.0, 12.0 * px_per_mm))
    pad = 3 + math.ceil(hand.blur_px)
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(w, x + bw + pad), min(h, y + bh + pad)
    kernel = _motion_kernel(hand)
    cover = _soften(mask[y0:y1, x0:x1], kernel)
    alpha = cover.astype(np.float32) / 255.0
    paint = _soften(colour[y0:y1, x0:x1], kernel).astype(np.float32)
    roi = frame[y0:y1, x0:x1]
    keep = 1.0 - alpha
    for k in range(roi.shape[2]):  # a channel at a time: the same float32 sums
        blended = roi[:, :, k] * keep + paint[:, :, k]  # paint is already premultiplied
        roi[:, :, k] = np.clip(blended, 0, 255, out=blended)
    np.maximum(mask[y0:y1, x0:x1], cover, out=mask[y0:y1, x0:x1])  # smeared coverage
    return mask
