"""A camera table's frames for the record: kept on the camera's thread, drawn later.

`CameraFrames.keep(frame, step)` runs on the camera's thread for every frame that gave
a settled reading (`service.camera.source.CameraSource.keep`): it keeps a reference to
the frame (no copy, no drawing: the camera path loses no time), what the path read on
it, the calibration then and the time, for the last `KEPT` readings. The table's
worker takes the one its events were judged from (`take`, by the reading's clock) and
hands it to the history's thread, which draws the reading on it as `camera/snapshot`
does (`render`: the play area, every tile read with its value, every unsure place, the
seat zones, the time) and encodes it as JPEG. Imports OpenCV: only a table with a camera
loads this module.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from engine.surface import Snapshot
from vision import Frame, Pipeline, Step, ViewParts, draw_view, encode_jpeg

__all__ = ["KEPT", "CameraFrames", "Kept"]

KEPT = 4  # the latest settled readings' frames kept (each a whole frame in memory)
Zone = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True, eq=False)
class Kept:
    """A frame that gave a settled reading, and what is needed to draw it."""

    image: Any  # the frame's BGR image (NumPy), as the source gave it
    reading: Snapshot | None
    calibration: Any  # vision's Calibration, or None
    tile_px: float  # a tile's width in pixels (uncalibrated frames)
    wall: datetime

    @property
    def at(self) -> str:
        """When the frame came, as a `ts`."""
        return self.wall.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.wall.microsecond // 1000:03d}Z"


class CameraFrames:
    """The frames of the camera's latest settled readings. `keep`: the camera's thread;
    `take`, `latest`: any thread; `render`: the history's thread."""

    def __init__(
        self,
        pipeline: Pipeline,
        *,
        zones: Mapping[int, Zone],
        tile_mm: tuple[float, float],
        kept: int = KEPT,
    ) -> None:
        self.pipeline = pipeline
        self.zones = dict(zones)
        self.tile_mm = tile_mm
        self.kept = kept
        self._lock = threading.Lock()
        self._frames: OrderedDict[float, Kept] = OrderedDict()

    def keep(self, frame: Frame, step: Step) -> None:
        detection = step.detection
        tile_px = detection.tile_width_px if detection is not None else 0.0
        kept = Kept(
            frame.image, step.reading, self.pipeline.calibration, tile_px or 30.0, datetime.now(UTC)
        )
        with self._lock:
            self._frames[frame.at] = kept
            while len(self._frames) > self.kept:
                self._frames.popitem(last=False)

    def take(self, at: float) -> Kept | None:
        """The frame of the settled reading made at `at` (the source's clock), if kept."""
        with self._lock:
            return self._frames.get(at)

    def latest(self) -> Kept | None:
        with self._lock:
            return next(reversed(self._frames.values()), None)

    def render(self, kept: Kept) -> bytes:
        """The frame with its reading drawn on it, as JPEG (as `camera/snapshot`)."""
        calibrated = kept.calibration is not None
        parts = ViewParts(
            calibration=kept.calibration,
            reading=kept.reading,
            markers=None,  # not looked for on this frame
            zones=self.zones if calibrated else {},
            tile_width=self.tile_mm[1] if calibrated else kept.tile_px,
            caption=kept.wall.astimezone().strftime("%Y-%m-%d %H:%M:%S"),
        )
        return encode_jpeg(draw_view(kept.image, parts))
