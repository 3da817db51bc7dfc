"""The camera as one of the table service's sources.

`CameraSource(settings, submit)` owns a frame source (the one `camera.source` names,
`service.camera.frame_sources`) and the camera path (`vision.Pipeline`) on one
thread, reading about `camera.fps` frames a second. It hands the service, through
`submit` (the service's one way in):

- `engine.surface.Snapshot`: a new settled reading of the table, in table mm;
- `CameraStatus(online, detail)`: the camera started giving frames, or stopped (no
  frame for `offline_s` seconds, or it cannot be opened; it is tried again every
  `retry_s` seconds) - for `core.source_status("camera", online, detail)`;
- `CameraUnreadable(x_mm, y_mm, since, reason)`: unsure places have stood
  `unreadable_s` seconds in settled readings (an `UNREADABLE` alert), and
  `CameraReadable(at)` when a settled reading has none again (resolve it);
- from its view (`service.camera.view.CameraView`, on the same thread): the camera's
  status (`CameraReport`), snapshots (`CameraPicture`) and the answers to `snapshot` and
  `calibrate` (`CameraAnswer`; `ask` hands it those commands);
- from set enrolment (`service.camera.enrol.Enrolling`, on the same thread): the answer
  to `enrol`. While the set lies there for enrolment, no reading or unreadable place
  is handed on: nothing is refereed.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from config.settings import CameraTone, Settings
from engine.tiles import Tile
from service.camera.enrol import Enrolling
from service.camera.events import CameraAsk, CameraRequest
from service.camera.frame_sources import MakeFrames, SourceRequest, open_frames
from service.camera.view import CameraView, ViewSettings
from vision import (
    DetectorSettings,
    Frame,
    FrameSource,
    Pipeline,
    PipelineSettings,
    SourceError,
    Step,
    Tone,
    UnreadableSpot,
    VisionError,
    corners_from,
)

__all__ = ["CameraReadable", "CameraSource", "CameraStatus", "CameraUnreadable"]

log = logging.getLogger(__name__)

# `camera.tone` -> the detector's tone (None: it tries light and dark sets both).
TONES: dict[CameraTone, Tone | None] = {
    CameraTone.LIGHT: Tone.LIGHT,
    CameraTone.DARK: Tone.DARK,
    CameraTone.GREY: Tone.GREY,
    CameraTone.AUTO: None,
}


@dataclass(frozen=True, slots=True)
class CameraStatus:
    """The camera came online (frames arrive) or went offline (`detail` says why)."""

    online: bool
    detail: str = ""


@dataclass(frozen=True, slots=True)
class CameraUnreadable:
    """Something tile-like at (x_mm, y_mm) has been unreadable since `since` (seconds,
    the source's clock)."""

    x_mm: float
    y_mm: float
    since: float
    reason: str = ""


@dataclass(frozen=True, slots=True)
class CameraReadable:
    """A settled reading with no unsure place again, at `at` (the source's clock)."""

    at: float


class CameraSource:
    """Reads frames on its own thread and submits settled snapshots and status.

    `source` makes the frame source (default: the one `camera.source` names, by
    `service.camera.frame_sources.open_frames`); `tell` receives the commands a
    simulated game's players give (who led, passes), e.g. the service's
    `submit_panel`; `paced=False` reads as fast as frames come (for
    folders and simulations in tests).
    """

    def __init__(
        self,
        settings: Settings,
        submit: Callable[[object], None],
        *,
        source: MakeFrames | None = None,
        tell: Callable[[dict[str, Any]], None] | None = None,
        detector: DetectorSettings | None = None,
        offline_s: float = 2.0,
        retry_s: float = 5.0,
        paced: bool = True,
    ) -> None:
        camera = settings.camera
        self.fps = float(camera.fps)
        self.submit = submit
        self.offline_s = max(offline_s, 3.0 / self.fps)
        self.retry_s = retry_s
        self.paced = paced
        surface, tile = settings.table.surface, settings.table.tile_mm
        self.pipeline = Pipeline(
            PipelineSettings(
                size_mm=(float(surface.width_mm), float(surface.height_mm)),
                tile_mm=(float(tile.length), float(tile.width)),
                corners_px=corners_from(camera.surface),
                marker_mm=float(camera.marker_mm),
                detector=detector or DetectorSettings(tone=TONES[camera.tone]),
            ),
            Path(settings.state.dir),
        )
        zones = {seat: tuple(float(v) for v in rect) for seat, rect in settings.zones.items()}
        self.view = CameraView(
            ViewSettings(
                fps=self.fps,
                tile_mm=(float(tile.length), float(tile.width)),
                marker_mm=float(camera.marker_mm),
                zones=zones,  # type: ignore[arg-type]
            ),
            self.pipeline,
            submit,
        )
        self.enrolling = Enrolling(self.pipeline, self.view, submit)
        self._opens = source or open_frames
        self._request = SourceRequest(settings, self.fps, tell)
        self._source: FrameSource | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.status: CameraStatus | None = None
        self._spot: UnreadableSpot | None = None
        self.frames = 0
        self.snapshots = 0
        self._lock = threading.Lock()
        self._corrections: list[tuple[Tile, Tile]] = []
        self.keep: Callable[[Frame, Step], None] | None = None  # each settled reading's frame

    # --- life cycle ------------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the thread and close the source (the status says `offline`); safe to call
        again."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)
            self._thread = None
        if self._source is not None:
            self._source.close()
            self._source = None
        self.view.offline()
        self.enrolling.offline()

    def ask(self, request: CameraRequest) -> None:
        """A `snapshot`, `calibrate` or `enrol` command (any thread): answered by a
        `CameraAnswer`."""
        if request.ask is CameraAsk.ENROL:
            self.enrolling.ask(request)
        else:
            self.view.ask(request)

    def learn(self, read: Tile, actual: Tile) -> None:
        """A player corrected the tile read `read` as `actual` (any thread): on the camera's
        thread, its misread halves join the set model (`vision.Pipeline.learn`)."""
        with self._lock:
            self._corrections.append((read, actual))

    def join(self, timeout: float | None = None) -> bool:
        """Wait for a finite source (a folder, a simulated game) to run out. True: done."""
        if self._thread is None:
            return True
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # --- the thread ------------------------------------------------------------------------

    def _run(self) -> None:
        period = 1.0 / self.fps
        last_frame = time.monotonic()
        while not self._stop.is_set():
            began = time.monotonic()
            source = self._open()
            if source is None:
                self._stop.wait(self.retry_s)
                continue
            frame = source.read()
            if frame is None:
                self.view.idle()
                self.enrolling.idle()
                if source.finished:
                    log.info("camera: %s has no more frames", source.name)
                    return
                if began - last_frame >= self.offline_s:
                    self._set(
                        CameraStatus(False, f"{source.name}: no frames for {self.offline_s:g} s")
                    )
            else:
                last_frame = began
                self.frames += 1
                self._set(CameraStatus(True, source.name))
                self._feed(frame)
            if self.paced:
                self._stop.wait(max(0.0, period - (time.monotonic() - began)))

    def _make(self) -> FrameSource:
        return self._opens(self._request)

    def _open(self) -> FrameSource | None:
        if self._source is not None:
            return self._source
        try:
            self._source = self._make()
        except SourceError as exc:
            log.warning("camera: %s", exc)
            self._set(CameraStatus(False, str(exc)))
            return None
        log.info("camera: reading %s at %g fps", self._source.name, self.fps)
        return self._source

    def _learn(self) -> None:
        with self._lock:
            corrections, self._corrections = self._corrections, []
        for read, actual in corrections:
            log.info(
                "camera: %s corrected as %s: %s", read, actual, self.pipeline.learn(read, actual)
            )
            self.enrolling.profile_from(self.pipeline)

    def _feed(self, frame: Frame) -> None:
        self._learn()
        cpu = time.thread_time()
        try:
            step = self.pipeline.step(frame)
        except VisionError as exc:
            log.warning("camera: frame not read: %s", exc)
            return
        self._show(frame, step, (time.thread_time() - cpu) * 1000.0)
        self.enrolling.frame(frame, step)
        if self.enrolling.holding:
            return  # the set lies there to be enrolled: nothing is refereed
        observation = step.observation
        if observation is not None:
            self.snapshots += 1
            if self.keep is not None:  # the record keeps its frame (service.history)
                self.keep(frame, step)
            self.submit(observation)
        spot = self.pipeline.unreadable
        if spot != self._spot:
            if spot is not None:
                self.submit(CameraUnreadable(spot.x_mm, spot.y_mm, spot.since, spot.reason))
            else:
                self.submit(CameraReadable(frame.at))
            self._spot = spot

    def _show(self, frame: Frame, step: Step, cpu_ms: float) -> None:
        """The view's turn: a fault there must not stop the camera path."""
        try:
            self.view.frame(frame, step, cpu_ms)
        except (VisionError, ValueError, OSError) as exc:
            log.warning("camera: the view of a frame failed: %s", exc)

    def _set(self, status: CameraStatus) -> None:
        if self.status is not None and self.status.online == status.online:
            return
        self.status = status
        if status.online:
            log.info("camera: online (%s)", status.detail)
        else:
            log.warning("camera: offline: %s", status.detail)
            self.view.offline()
            self.enrolling.offline()
        self.submit(status)
