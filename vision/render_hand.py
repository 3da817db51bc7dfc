"""A hand and sleeved arm reaching over the table, drawn in image pixels."""

from __future__ import annotations

import math
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from vision.render_scene import Hand

Image = npt.NDArray[np.uint8]
Mask = npt.NDArray[np.uint8]

# (offset across the hand, length) of index, middle, ring and little fingers, in mm
_FINGERS: Final = ((-27.0, 66.0), (-9.0, 75.0), (9.0, 70.0), (27.0, 56.0))
_FINGER_WIDTH: Final = 17.0
_PALM: Final = (52.0, 44.0)  # half length, half width
_HAND_ABOVE_TABLE: Final = 1.15  # the hand is nearer the lens than the table


def _pt(p: npt.NDArray[np.float64]) -> tuple[int, int]:
    return (round(float(p[0])), round(float(p[1])))


def _darker(colour: tuple[int, int, int], f: float) -> tuple[int, int, int]:
    b, g, r = (round(c * f) for c in colour)
    return (b, g, r)


def hand_layers(hand: Hand, shape: tuple[int, int], px_per_mm: float) -> tuple[Image, Mask]:
    """The hand's colours and its coverage mask (255 = hand), both full-frame."""
    h, w = shape
    colour = np.zeros((h, w, 3), dtype=np.uint8)
    mask = np.zeros((h, w), dtype=np.uint8)
    k = px_per_mm * _HAND_ABOVE_TABLE
    tip = np.array(hand.tip, dtype=np.float64)
    d = tip - np.array(hand.entry, dtype=np.float64)
    d /= max(1e-9, float(np.linalg.norm(d)))
    n = np.array([-d[1], d[0]])
    knuckles = tip - d * (78.0 * k)
    palm = knuckles - d * (_PALM[0] * k)
    far = tip - d * (2000.0 * k)

    def line(
        a: npt.NDArray[np.float64],
        b: npt.NDArray[np.float64],
        width_mm: float,
        c: tuple[int, int, int],
    ) -> None:
        t = max(1, round(width_mm * k))
        cv2.line(colour, _pt(a), _pt(b), c, t, cv2.LINE_AA)
        cv2.line(mask, _pt(a), _pt(b), 255, t, cv2.LINE_AA)

    sleeve = hand.sleeve
    line(palm - d * (95.0 * k), far, 108.0, sleeve)
    line(palm - d * (92.0 * k), palm - d * (100.0 * k), 112.0, _darker(sleeve, 0.8))
    line(palm, palm - d * (90.0 * k), 64.0, _darker(hand.skin, 0.92))
    angle = math.degrees(math.atan2(d[1], d[0]))
    axes = (round(_PALM[0] * k), round(_PALM[1] * k))
    cv2.ellipse(colour, _pt(palm), axes, angle, 0, 360, hand.skin, -1, cv2.LINE_AA)
    cv2.ellipse(mask, _pt(palm), axes, angle, 0, 360, 255, -1, cv2.LINE_AA)
    for across, length in _FINGERS:
        base = knuckles + n * (across * k) - d * (10.0 * k)
        end = knuckles + n * (across * 0.9 * k) + d * ((length - 8.5) * k)
        line(base, end, _FINGER_WIDTH, hand.skin)
    thumb0 = palm + n * (34.0 * k) - d * (12.0 * k)
    line(thumb0, thumb0 + n * (22.0 * k) + d * (48.0 * k), 21.0, _darker(hand.skin, 0.96))
    highlight = (round(axes[0] * 0.55), round(axes[1] * 0.5))
    lighter = tuple(min(255, round(c * 1.08)) for c in hand.skin)
    cv2.ellipse(
        colour, _pt(palm - n * (8.0 * k)), highlight, angle, 0, 360, lighter, -1, cv2.LINE_AA
    )
    return colour, mask


def draw_hand(frame: Image, hand: Hand, px_per_mm: float, *, shadow: bool) -> Mask:
    """Draw the hand (and its soft shadow) into `frame`; return its coverage mask."""
    h, w = frame.shape[:2]
    colour, mask = hand_layers(hand, (h, w), px_per_mm)
    if shadow:
        off = 30.0 * px_per_mm
        moved = cv2.warpAffine(
            mask, np.array([[1, 0, off * 0.6], [0, 1, off]], dtype=np.float32), (w, h)
        )
        soft = cv2.GaussianBlur(moved, (0, 0), max(1.0, 12.0 * px_per_mm))
        keep = cv2.merge([255 - (soft // 2)] * 3)
        cv2.multiply(frame, keep, dst=frame, scale=1 / 255)
    alpha = cv2.GaussianBlur(mask, (0, 0), 0.8)
    x, y, bw, bh = cv2.boundingRect(alpha)
    if bw == 0 or bh == 0:
        return mask
    a = alpha[y : y + bh, x : x + bw, None].astype(np.float32) / 255.0
    roi = frame[y : y + bh, x : x + bw]
    blended = roi * (1.0 - a) + colour[y : y + bh, x : x + bw] * a
    roi[...] = np.clip(blended, 0, 255).astype(np.uint8)
    return mask
