"""When to believe the camera: a motion gate and readings that must hold.

Hands, arms, sleeves and shadows cross the table all the time (TABLE.md): no reading
is taken while the scene moves. `MotionGate` compares each frame with the one before
on a small, blurred grey thumbnail, after normalising its brightness (mean 0, standard
deviation 1), so a whole-scene light change (a cloud, a lamp switched on) is not a
move but a hand is. Where a sudden light change also clips (white paper, glare burning
out), the frame is `relit`: its brightness jumped, it is not a move, but no reading is
taken until the scene has been still again for `still_frames` frames.

`ArmCheck` finds an arm lying still (which the gate cannot see move). `StableReadings`
wants the same reading (the same tiles, each half within a tolerance) from `hold`
frames in a row before it becomes an observation, and passes an observation on only
when it differs from the last one; its tiles come in the order readings first held
them (several new tiles in one observation are played in that order).
`UnreadableWatch` tells when unsure places have stood for a while.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from engine.surface import SeenTile, Snapshot, Unsure
from engine.tiles import Tile

__all__ = [
    "ArmCheck",
    "GateSettings",
    "Motion",
    "MotionGate",
    "StableReadings",
    "UnreadableSpot",
    "UnreadableWatch",
    "same_reading",
]

Grey = npt.NDArray[np.float32]
Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class GateSettings:
    """Tuning of the motion gate.

    `thumb_px`: the thumbnail's longer side; `blur`: its Gaussian kernel (odd);
    `pixel_sigma`: a thumbnail pixel has changed when it moved by more than this many
    standard deviations of the frame's brightness; `moving_share`: the frame moves when
    more than this share of its pixels changed; `still_frames`: frames in a row below
    that before a reading is taken (a hand pausing for one frame is not gone);
    `relit_ratio`: a frame that changed and whose mean brightness went up or down by
    more than this factor is relit, not moving; `arm_sigma`, `arm_share`: a region
    changed by more than `arm_sigma` since the last good reading, larger than
    `arm_share` of the thumbnail and reaching the frame's edge is an arm lying still
    (see `ArmCheck`).
    """

    thumb_px: int = 160
    blur: int = 5
    pixel_sigma: float = 0.35
    moving_share: float = 0.003
    still_frames: int = 2
    relit_ratio: float = 1.04
    arm_sigma: float = 0.8
    arm_share: float = 0.004

    def __post_init__(self) -> None:
        if self.thumb_px < 16 or self.blur < 1 or self.blur % 2 == 0:
            raise ValueError("GateSettings: thumb_px >= 16 and an odd blur >= 1")
        if not (0 < self.moving_share < 1 and self.pixel_sigma > 0 and self.still_frames >= 1):
            raise ValueError(
                "GateSettings: 0 < moving_share < 1, pixel_sigma > 0, still_frames >= 1"
            )


@dataclass(frozen=True, slots=True)
class Motion:
    """The gate's verdict on one frame: the share of the thumbnail that changed,
    whether that is a move, and for how many frames in a row the scene has been still."""

    share: float
    moving: bool
    still_for: int
    relit: bool = False

    def settled(self, still_frames: int) -> bool:
        return not self.moving and not self.relit and self.still_for >= still_frames


class MotionGate:
    """Frame differencing on a brightness-normalised grey thumbnail."""

    def __init__(self, settings: GateSettings | None = None) -> None:
        self.settings = settings or GateSettings()
        self._previous: Grey | None = None
        self.brightness = 0.0
        self.thumb: Grey | None = None  # the last frame's thumbnail
        self._still = 0

    def thumbnail(self, image: npt.NDArray[np.uint8]) -> Grey:
        """The frame small, grey, blurred, with mean 0 and standard deviation 1
        (its mean brightness before that is kept in `brightness`)."""
        s = self.settings
        grey = image if image.ndim == 2 else cv2.cvtColor(image[:, :, :3], cv2.COLOR_BGR2GRAY)
        h, w = grey.shape[:2]
        scale = s.thumb_px / max(h, w)
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        resized = cv2.resize(grey, size, interpolation=cv2.INTER_AREA).astype(np.float32)
        small = np.asarray(cv2.GaussianBlur(resized, (s.blur, s.blur), 0), dtype=np.float32)
        std = float(small.std())
        self.brightness = float(small.mean())
        return np.asarray((small - self.brightness) / max(std, 1.0), dtype=np.float32)

    def update(self, image: npt.NDArray[np.uint8]) -> Motion:
        """Judge the next frame. The first frame, or one of another size, is a move."""
        before = self.brightness
        thumb = self.thumbnail(image)
        self.thumb = thumb
        previous, self._previous = self._previous, thumb
        if previous is None or previous.shape != thumb.shape:
            self._still = 0
            return Motion(1.0, True, 0)
        share = float(np.count_nonzero(np.abs(thumb - previous) > self.settings.pixel_sigma))
        share /= thumb.size
        changed = share > self.settings.moving_share
        ratio = max(self.brightness, 1.0) / max(before, 1.0)
        relit = changed and not 1 / self.settings.relit_ratio <= ratio <= self.settings.relit_ratio
        self._still = 0 if changed else self._still + 1
        return Motion(share, changed and not relit, self._still, relit)

    def reset(self) -> None:
        self._previous = None
        self._still = 0

    def settled(self, motion: Motion) -> bool:
        """True when a reading may be taken of the frame `motion` judged."""
        return motion.settled(self.settings.still_frames)


class ArmCheck:
    """An arm or sleeve resting still over the table: a large region that changed
    since the last good reading and reaches in from the frame's edge.

    The motion gate cannot see a hand that does not move; tiles under it would vanish.
    `remember(thumb)` keeps the thumbnail of a good (fully read) frame; `find(thumb)`
    returns the point of such a region deepest inside the frame (image pixels) - the
    fingertips - or None. A region that stays `accept_s` seconds is taken as the new
    table (something left lying there, or light that changed for good).
    """

    def __init__(self, settings: GateSettings | None = None, accept_s: float = 20.0) -> None:
        self.settings = settings or GateSettings()
        self.accept_s = accept_s
        self._reference: Grey | None = None
        self._since: float | None = None

    def remember(self, thumb: Grey) -> None:
        self._reference = thumb
        self._since = None

    def find(self, thumb: Grey, image_size: tuple[int, int], at: float) -> Point | None:
        """Where an arm lies (image px), for a still frame's thumbnail at time `at`."""
        ref = self._reference
        if ref is None or ref.shape != thumb.shape:
            return None
        changed = (np.abs(thumb - ref) > self.settings.arm_sigma).astype(np.uint8)
        changed = cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        count, labels, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
        h, w = thumb.shape
        inside = np.minimum.outer(np.arange(h), np.arange(w)).astype(np.float32)
        inside = np.minimum(inside, np.minimum.outer(np.arange(h)[::-1], np.arange(w)[::-1]))
        best: tuple[float, int, int] | None = None
        for label in range(1, count):
            x, y, bw, bh, area = (int(v) for v in stats[label])
            if area < self.settings.arm_share * h * w:
                continue
            if x > 0 and y > 0 and x + bw < w and y + bh < h:
                continue  # not reaching in from the edge: tiles, not an arm
            ys, xs = np.nonzero(labels == label)
            k = int(np.argmax(inside[ys, xs]))
            depth = float(inside[ys[k], xs[k]])
            if best is None or depth > best[0]:
                best = (depth, int(xs[k]), int(ys[k]))
        if best is None:
            self._since = None
            return None
        if self._since is None:
            self._since = at
        elif at - self._since >= self.accept_s:
            self.remember(thumb)
            return None
        sx, sy = image_size[0] / w, image_size[1] / h
        return ((best[1] + 0.5) * sx, (best[2] + 0.5) * sy)


def _tiles_match(a: SeenTile, b: SeenTile, tolerance_mm: float) -> bool:
    """The same tile, both halves within `tolerance_mm` (either way round)."""
    if a.tile != b.tile:
        return False
    near = max(abs(a.xa - b.xa), abs(a.ya - b.ya), abs(a.xb - b.xb), abs(a.yb - b.yb))
    far = max(abs(a.xa - b.xb), abs(a.ya - b.yb), abs(a.xb - b.xa), abs(a.yb - b.ya))
    return min(near, far) <= tolerance_mm


def _all_matched(xs: Sequence[SeenTile], ys: Sequence[SeenTile], tolerance_mm: float) -> bool:
    if len(xs) != len(ys):
        return False
    left = list(ys)
    for x in xs:
        j = next((i for i, y in enumerate(left) if _tiles_match(x, y, tolerance_mm)), None)
        if j is None:
            return False
        left.pop(j)
    return True


def _spots_match(xs: Sequence[Unsure], ys: Sequence[Unsure], tolerance_mm: float) -> bool:
    if len(xs) != len(ys):
        return False
    left = list(ys)
    for x in xs:
        j = next(
            (i for i, y in enumerate(left) if abs(x.x - y.x) + abs(x.y - y.y) <= 2 * tolerance_mm),
            None,
        )
        if j is None:
            return False
        left.pop(j)
    return True


def same_reading(a: Snapshot, b: Snapshot, tolerance_mm: float = 5.0) -> bool:
    """Two readings of the same table: the same tiles in the same places (within
    `tolerance_mm`), the same face-down count and unsure places."""
    return (
        a.facedown == b.facedown
        and _all_matched(a.tiles, b.tiles, tolerance_mm)
        and _spots_match(a.unsure, b.unsure, tolerance_mm)
    )


class StableReadings:
    """A reading becomes an observation once `hold` readings in a row agree, and is
    passed on only when it differs from the last observation."""

    def __init__(self, hold: int = 2, tolerance_mm: float = 5.0) -> None:
        if hold < 1:
            raise ValueError(f"StableReadings: hold must be 1 or more, got {hold}")
        self.hold = hold
        self.tolerance_mm = tolerance_mm
        self._streak: list[Snapshot] = []
        self.last: Snapshot | None = None  # the last observation passed on
        self._first: dict[Tile, float] = {}  # a tile -> when a reading first held it

    def interrupt(self) -> None:
        """The scene moved: the readings so far no longer count."""
        self._streak.clear()

    def offer(self, reading: Snapshot) -> Snapshot | None:
        """One settled frame's reading; the new observation, if this one completes it."""
        reading = self._in_order_first_read(reading)
        if self._streak and not same_reading(self._streak[-1], reading, self.tolerance_mm):
            self._streak.clear()
        self._streak.append(reading)
        if len(self._streak) < self.hold:
            return None
        if not reading.unsure:  # held and sure: a tile it lacks was lifted
            here = {seen.tile for seen in reading.tiles}
            for tile in [t for t in self._first if t not in here]:
                del self._first[tile]
        if self.last is not None and same_reading(self.last, reading, self.tolerance_mm):
            return None
        self.last = reading
        return reading

    @property
    def holding(self) -> Snapshot | None:
        """The reading that has held `hold` times, if the latest has."""
        return self._streak[-1] if len(self._streak) >= self.hold else None

    def _in_order_first_read(self, reading: Snapshot) -> Snapshot:
        """The reading with its tiles in the order readings first held them, even
        readings that never held long enough to be passed on (a flickering unsure
        place, a light change, a quick hand): when one observation shows several new
        tiles, the reconciler plays them in this order. A tile is forgotten once a
        reading without unsure places that held lacks it (lifted); one missing from a
        single reading or from one with unsure places may just not have been read."""
        here = {seen.tile for seen in reading.tiles}
        for tile in here:
            self._first.setdefault(tile, reading.at)
        order = sorted(
            range(len(reading.tiles)),
            key=lambda i: (self._first[reading.tiles[i].tile], i),
        )
        if order == list(range(len(order))):
            return reading
        return replace(reading, tiles=tuple(reading.tiles[i] for i in order))


@dataclass(frozen=True, slots=True)
class UnreadableSpot:
    """A place the camera has been unsure of since `since` (source clock, seconds)."""

    x_mm: float
    y_mm: float
    since: float
    reason: str


class UnreadableWatch:
    """Unsure places that stand `after_s` seconds in settled readings become a spot;
    a settled reading without any clears it. Moving frames change nothing."""

    def __init__(self, after_s: float = 5.0) -> None:
        self.after_s = after_s
        self._since: float | None = None
        self.spot: UnreadableSpot | None = None

    def settled(self, reading: Snapshot, at: float) -> UnreadableSpot | None:
        """A settled reading at time `at`; the standing spot afterwards."""
        if not reading.unsure:
            self._since = None
            self.spot = None
            return None
        if self._since is None:
            self._since = at
        if self.spot is None and at - self._since >= self.after_s:
            first = reading.unsure[0]
            self.spot = UnreadableSpot(first.x, first.y, self._since, first.reason)
        return self.spot
