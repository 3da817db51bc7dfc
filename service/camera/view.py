"""What the camera sees, for people: its status, its snapshots, and the commands about them.

`CameraView` runs on the camera's thread beside the camera path. After each frame
(`frame(frame, step, cpu_ms)`) it keeps count (frames a second, CPU per frame read, when
the scene was last still) and hands the service, through `submit`:

- a `CameraReport` (`camera/status`) whenever the state, the calibration or the
  warnings change, and at least every `status_every_s` while frames arrive;
- a `CameraPicture` (`camera/snapshot`) of the frame of the latest settled reading,
  with the reading drawn on it, at most once every `picture_every_s` (frame clock); the
  JPEG is drawn and encoded only then;
- a `CameraAnswer` to each `snapshot` or `calibrate` request (`ask`, from any thread).

The frame's set-up is measured (`vision.camera_path.quality`: markers, glare, blur, dark,
tile size) on each snapshot's frame and, while no snapshot is taken, on a still frame
every `measure_every_s`; `SLOW` compares the CPU per frame read with the frame period.
"""

from __future__ import annotations

import logging
import statistics
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from service.camera.events import (
    CameraAnswer,
    CameraAsk,
    CameraPicture,
    CameraReport,
    CameraRequest,
)
from service.camera.status import CalibrationFacts, CameraFacts, CameraState, Warned
from vision import (
    Calibration,
    CalibrationError,
    CalibrationMethod,
    CameraWarning,
    Frame,
    FrameLimits,
    FrameLooks,
    MarkersMissingError,
    Pipeline,
    Step,
    ViewParts,
    draw_view,
    encode_jpeg,
    judge_frame,
    measure_frame,
)

__all__ = ["CameraView", "ViewSettings"]

log = logging.getLogger(__name__)

Zone = tuple[float, float, float, float]
NO_FRAMES = "The camera gives no frames: see its status (camera/status)."
STOPPED = "The camera stopped giving frames: see its status (camera/status)."


@dataclass(frozen=True, slots=True)
class ViewSettings:
    """`fps`: the frame rate asked for (`SLOW` when frames are read slower); the rest as
    the camera path's settings; the periods in seconds."""

    fps: float = 10.0
    tile_mm: tuple[float, float] = (48.0, 24.0)
    marker_mm: float = 40.0
    zones: Mapping[int, Zone] = field(default_factory=dict)
    limits: FrameLimits = field(default_factory=FrameLimits)
    picture_every_s: float = 1.0
    status_every_s: float = 10.0
    measure_every_s: float = 10.0
    moving_after_s: float = 10.0
    answer_within_s: float = 10.0  # a calibrate waits this long (wall clock) for a still frame
    min_reads: int = 5  # reads timed before SLOW is judged


@dataclass(frozen=True, slots=True)
class _Kept:
    """A frame kept for a snapshot, what the path made of it, and when it came (UTC)."""

    frame: Frame
    step: Step
    wall: datetime


class CameraView:
    """The camera's status and snapshots. `frame`, `idle`, `offline`: the camera's thread
    only; `ask`: any thread."""

    def __init__(
        self,
        settings: ViewSettings,
        pipeline: Pipeline,
        submit: Callable[[object], None],
        *,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self.pipeline = pipeline
        self.submit = submit
        self.now = now
        self.clock = clock
        self.profile: tuple[str, datetime] | None = None  # the enrolled set (issue 13)
        self.model: Mapping[str, object] | None = None  # ... and its model's summary
        self._lock = threading.Lock()
        self._asked: list[tuple[CameraRequest, float]] = []
        self._offline = True
        self._said_offline = False
        self._times: deque[float] = deque()
        self._reads: deque[float] = deque(maxlen=100)
        self._first: float | None = None
        self._last: _Kept | None = None  # the newest frame
        self._read: _Kept | None = None  # the newest frame read (a still scene)
        self._settled: _Kept | None = None  # the frame of the newest settled reading
        self._unshown = False  # a settled reading whose snapshot is not published yet
        self._pictured: float | None = None  # frame clock of the last snapshot
        self._looks: FrameLooks | None = None
        self._judged: tuple[CameraWarning, ...] = ()  # what the looks warn of
        self._looked: float | None = None
        self._reading: tuple[datetime, int, int] | None = None
        self._calibration: tuple[Calibration | None, datetime | None] = (None, None)
        self._reported: tuple[object, ...] | None = None
        self._reported_at: float | None = None
        self._remember_loaded()

    # --- any thread -----------------------------------------------------------------------

    def ask(self, request: CameraRequest) -> None:
        """A `snapshot` or `calibrate` command; answered on the camera's thread (at once
        when the camera gives no frames)."""
        with self._lock:
            offline = self._offline
            if not offline:
                self._asked.append((request, self.clock()))
        if offline:
            self._answer(request, NO_FRAMES)

    # --- the camera's thread --------------------------------------------------------------

    def frame(self, frame: Frame, step: Step, cpu_ms: float) -> None:
        """After the camera path read `frame` (in `cpu_ms` of CPU)."""
        kept = _Kept(frame, step, self.now())
        self._count(frame.at)
        self._last = kept
        if step.detection is not None:
            self._reads.append(cpu_ms)
            self._read = kept
        if step.observation is not None:
            self._settled, self._unshown = kept, True
            self._reading = (kept.wall, len(step.observation.tiles), len(step.observation.unsure))
        self._serve(kept)
        if self._unshown and self._may_picture(frame.at) and self._settled is not None:
            self._unshown = False
            self._picture(self._settled)
        elif step.detection is not None and self._stale_looks(frame.at):
            self._measure(kept)
        self._report(frame.at)

    def idle(self) -> None:
        """No frame this time round: requests that waited too long are answered."""
        self._serve(None)

    def offline(self) -> None:
        """The camera gives no frames (or was closed): say so once, answer what waits."""
        self._offline = True
        if not self._said_offline:
            self._said_offline = True
            self._times.clear()
            self.submit(CameraReport(self.facts()))
            self._reported = None
        with self._lock:
            waiting, self._asked = self._asked, []
        for request, _ in waiting:
            self._answer(request, STOPPED)

    # --- counting -------------------------------------------------------------------------

    def _count(self, at: float) -> None:
        self._offline = self._said_offline = False
        if self._first is None:
            self._first = at
        self._times.append(at)
        while self._times and self._times[0] <= at - 10.0:
            self._times.popleft()

    def _may_picture(self, at: float) -> bool:
        return self._pictured is None or at - self._pictured >= self.settings.picture_every_s

    def _stale_looks(self, at: float) -> bool:
        return self._looked is None or at - self._looked >= self.settings.measure_every_s

    # --- requests -------------------------------------------------------------------------

    def _serve(self, kept: _Kept | None) -> None:
        with self._lock:
            waiting, self._asked = self._asked, []
        later: list[tuple[CameraRequest, float]] = []
        newest = self._read or self._last  # the latest reading's frame: a still scene
        for request, since in waiting:
            if request.ask is CameraAsk.SNAPSHOT and newest is not None:
                self._picture(newest)
                self._answer(request, None)
            elif request.ask is CameraAsk.CALIBRATE and kept is not None and kept.step.detection:
                self._calibrate(request, kept)
            elif self.clock() - since >= self.settings.answer_within_s:
                self._answer(request, _too_long(request.ask, self.settings.answer_within_s))
            else:
                later.append((request, since))
        with self._lock:
            self._asked = later + self._asked

    def _calibrate(self, request: CameraRequest, kept: _Kept) -> None:
        try:
            fresh = self.pipeline.calibrate(kept.frame.image)
        except MarkersMissingError as exc:
            self._answer(request, str(exc), {"markers_seen": list(exc.found)})
            return
        except CalibrationError as exc:
            self._answer(request, f"The markers do not make a calibration: {exc}")
            return
        log.info("camera: calibrated by command (%.2f px)", fresh.reprojection_px)
        self._calibration = (fresh, kept.wall)
        self._picture(kept)
        detail = {"method": fresh.method.value, "markers_seen": [0, 1, 2, 3]}
        self._answer(request, None, detail | {"error_px": round(fresh.reprojection_px, 2)})

    def _answer(
        self, request: CameraRequest, error: str | None, detail: dict[str, object] | None = None
    ) -> None:
        self.submit(CameraAnswer(request.command_id, error, detail))

    # --- looks and pictures ---------------------------------------------------------------

    def _measure(self, kept: _Kept) -> FrameLooks:
        s = self.settings
        step = kept.step
        self._looks = measure_frame(
            kept.frame.image,
            calibration=self.pipeline.calibration,
            reading=step.reading,
            detection=step.detection,
            tile_mm=s.tile_mm,
            marker_mm=s.marker_mm,
            limits=s.limits,
        )
        self._looked = kept.frame.at
        cal = self.pipeline.calibration
        method = cal.method if cal is not None else None
        self._judged = judge_frame(self._looks, s.limits, tile_mm=s.tile_mm, calibration=method)
        return self._looks

    def _picture(self, kept: _Kept) -> None:
        looks = self._measure(kept)
        calibration = self.pipeline.calibration
        parts = ViewParts(
            calibration=calibration,
            reading=kept.step.reading,
            markers=looks.markers,
            zones=self.settings.zones if calibration is not None else {},
            tile_width=self.settings.tile_mm[1] if calibration is not None else _px_width(kept),
            caption=kept.wall.astimezone().strftime("%Y-%m-%d %H:%M:%S"),
        )
        self.submit(CameraPicture(encode_jpeg(draw_view(kept.frame.image, parts))))
        self._pictured = kept.frame.at

    # --- status ---------------------------------------------------------------------------

    def _report(self, at: float) -> None:
        facts = self.facts()
        beat = self._reported_at is None or at - self._reported_at >= self.settings.status_every_s
        if facts.key() != self._reported or beat:
            self.submit(CameraReport(facts))
            self._reported, self._reported_at = facts.key(), at

    def facts(self) -> CameraFacts:
        """The camera now, as `camera/status` says it."""
        cal = self.pipeline.calibration
        if self._offline or self._last is None:
            return CameraFacts(
                CameraState.OFFLINE,
                calibration=self._calibration_facts(cal),
                read_ms=self._read_ms(),
                profile=self.profile,
                reading=self._reading,
                model=self.model,
            )
        h, w = self._last.frame.image.shape[:2]
        return CameraFacts(
            state=self._state(cal),
            frame=(w, h),
            calibration=self._calibration_facts(cal),
            fps=self._fps(),
            read_ms=self._read_ms(),
            profile=self.profile,
            reading=self._reading,
            warnings=self._warnings(cal),
            model=self.model,
        )

    def _fps(self) -> float:
        """Frames a second over the last 10 s (of the frames' clock)."""
        times = self._times
        span = times[-1] - times[0] if len(times) >= 2 else 0.0
        return (len(times) - 1) / span if span > 0 else 0.0

    def _state(self, cal: Calibration | None) -> CameraState:
        if cal is None:
            return CameraState.UNCALIBRATED
        assert self._last is not None
        still = self._read.frame.at if self._read is not None else (self._first or 0.0)
        if self._last.frame.at - still >= self.settings.moving_after_s:
            return CameraState.MOVING
        return CameraState.OK

    def _read_ms(self) -> tuple[float | None, float | None]:
        if not self._reads:
            return (None, None)
        ordered = sorted(self._reads)
        return (statistics.median(ordered), ordered[int(0.95 * (len(ordered) - 1))])

    def _calibration_facts(self, cal: Calibration | None) -> CalibrationFacts:
        known, at = self._calibration
        if cal is not known:  # made by the path itself (markers seen, corners set)
            at = self.now() if cal is not None and cal.method is CalibrationMethod.MARKERS else None
            self._calibration = (cal, at)
        seen = self._looks.markers_seen if self._looks is not None else ()
        if cal is None:
            return CalibrationFacts("none", seen)
        return CalibrationFacts(cal.method.value, seen, cal.reprojection_px, at)

    def _warnings(self, cal: Calibration | None) -> tuple[Warned, ...]:
        s = self.settings
        out: list[Warned] = []
        if self._looks is not None:
            unit = "mm" if cal is not None else "px"
            out += [Warned(c.value, FIGURES[c](self._looks, s, unit)) for c in self._judged]
        p50 = self._read_ms()[0]
        period = 1000.0 / s.fps
        if p50 is not None and len(self._reads) >= s.min_reads and p50 > period:
            figures = {"ms": p50, "fps": s.fps, "period": period}
            out.append(Warned(CameraWarning.SLOW.value, figures))
        return tuple(out)

    def _remember_loaded(self) -> None:
        """A calibration the path loaded from the state directory was made when saved."""
        cal = self.pipeline.calibration
        folder = self.pipeline.state_dir
        if cal is None or folder is None:
            return
        path = Path(folder) / "calibration.json"
        if path.is_file():
            self._calibration = (cal, datetime.fromtimestamp(path.stat().st_mtime, UTC))


Figures = dict[str, float | str]


def _markers_missing(looks: FrameLooks, s: ViewSettings, unit: str) -> Figures:
    seen = ", ".join(map(str, looks.markers_seen)) or "none"
    return {"missing": ", ".join(map(str, looks.markers_missing)), "seen": seen}


def _glare(looks: FrameLooks, s: ViewSettings, unit: str) -> Figures:
    x, y = looks.glare_at or (0.0, 0.0)
    return {"percent": looks.glare_share * 100, "x": f"{x:.0f} {unit}", "y": f"{y:.0f} {unit}"}


def _blur(looks: FrameLooks, s: ViewSettings, unit: str) -> Figures:
    return {"px": looks.blur_px or 0.0, "limit": looks.blur_limit_px}


def _dark(looks: FrameLooks, s: ViewSettings, unit: str) -> Figures:
    return {"level": looks.white_level, "limit": s.limits.dark_level}


def _tile_scale(looks: FrameLooks, s: ViewSettings, unit: str) -> Figures:
    return {"seen": looks.tile_length_mm or 0.0, "configured": s.tile_mm[0]}


FIGURES: dict[CameraWarning, Callable[[FrameLooks, ViewSettings, str], Figures]] = {
    CameraWarning.MARKERS_MISSING: _markers_missing,
    CameraWarning.GLARE: _glare,
    CameraWarning.BLUR: _blur,
    CameraWarning.DARK: _dark,
    CameraWarning.TILE_SCALE: _tile_scale,
}
"""What the sentence of each frame warning names, from the measurements (positions in
mm, or px when uncalibrated)."""


def _px_width(kept: _Kept) -> float:
    detection = kept.step.detection
    return detection.tile_width_px if detection is not None and detection.tile_width_px else 30.0


def _too_long(ask: CameraAsk, seconds: float) -> str:
    if ask is CameraAsk.CALIBRATE:
        return (
            f"No still frame for {seconds:g} s: keep hands and arms off the table while it "
            "calibrates, then try again."
        )
    return f"No frame for {seconds:g} s: see the camera's status (camera/status)."
