"""From camera frames to settled observations of the table, in table millimetres.

`Pipeline.feed(frame)` runs one frame through the camera path:

1. the motion gate (`vision.camera_path.settled.MotionGate`): while the scene moves,
   nothing is read;
2. calibration: when a still period begins, the four corner markers are looked for
   (`calibrate_if_markers`); a new calibration is used at once and saved in the state
   directory. Without markers in view: the saved calibration, else the manual corners
   from the settings, else none (positions stay in pixels, with a warning);
3. detection (`vision.detector.detect`) inside the play area; where it leaves places unsure
   (or reads nothing) on a calibrated frame, those places are read again by the
   tile's known size (`vision.camera_path.known_size`);
4. a reading that holds (`StableReadings`): the `Snapshot` returned is new and settled.

An enrolled set's model (`vision.set_model`), kept in the state directory, sets how
every frame is read: the set's tone or faces' colour, and its tile size in mm
(instead of `PipelineSettings.detector.tone` and `tile_mm`). `enrol(frames, set)`
reads frames of the whole set face up, `enrol_mat(frames, set)` of the filled
enrolment mat; when they read right, the model is kept and used at once.

A confident reading that breaks a rule is passed on as seen: judging is the
reconciler's job. Unsure places make the Snapshot carry `unsure` (the reconciler then
does not judge it); `unreadable` tells when they have stood `unreadable_s` seconds.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

import numpy as np
import numpy.typing as npt

from engine.surface import Snapshot, Unsure
from engine.tiles import DominoSet, Tile
from mat import Mat
from vision.calibration.homography import (
    Calibration,
    CalibrationMethod,
    calibrate_if_markers,
    calibrate_manual,
    calibrate_markers,
)
from vision.camera_path.known_size import KNOWN_SIZE, KnownSizeSettings, read_anchored
from vision.camera_path.settled import (
    ArmCheck,
    GateSettings,
    Motion,
    MotionGate,
    StableReadings,
    UnreadableSpot,
    UnreadableWatch,
)
from vision.detector.detect import FRAME_LOOKS, Detection, FrameView, Look, detect, with_look
from vision.detector.play_area import PlayArea
from vision.detector.results import Point, ToMm, UnsureReason, UnsureRegion
from vision.detector.settings import Settings
from vision.enrolment.mat_enrol import MatEnrolment, enrol_mat
from vision.enrolment.read import Enrolment, SetView, read_set
from vision.errors import CalibrationError, CalibrationNotFoundError, VisionError
from vision.frames import Frame
from vision.set_model.halves import crop_half
from vision.set_model.look import SetLook
from vision.set_model.model import ModelError, SetModel, load_model
from vision.set_model.reader import SetReader

__all__ = ["Pipeline", "PipelineSettings", "Step"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PipelineSettings:
    """What the camera path needs to know.

    `size_mm`: the play area between marker centres; `corners_px`: the play area's
    corners in the image (marker order), the fallback when no markers are seen;
    `hold`: readings in a row that must agree; `tolerance_mm`: how far a half may move
    between agreeing readings; `unreadable_s`: how long unsure places stand before they
    are reported; `recalibrate_s`: look for the markers when a still period begins, at
    most this often (always while uncalibrated; None: never); `search_margin_mm`: how
    far beyond the play area the detector searches (tiles found there are dropped);
    `tile_mm`: a tile's length and width (`table.tile_mm`), for reading unsure places
    by the tile's known size on a calibrated frame (`known_size`: its thresholds);
    `reread_s`: once the first `agree` frames of a still period were read and the
    reading held with no unsure place, the still table is read again at most this
    often (None: every settled frame). A table read surely does not change while
    nothing moves (a move, or a change of light, ends the still period), and a
    table between plays lies still for seconds: on the Pi, ten readings a second
    of the same tiles would leave no CPU for the rest.
    """

    size_mm: tuple[float, float] = (900.0, 600.0)
    corners_px: tuple[Point, ...] = ()
    marker_mm: float = 40.0
    hold: int = 2
    tolerance_mm: float = 5.0
    unreadable_s: float = 5.0
    recalibrate_s: float | None = 30.0
    search_margin_mm: float = 50.0
    tile_mm: tuple[float, float] = (48.0, 24.0)
    gate: GateSettings = field(default_factory=GateSettings)
    detector: Settings = field(default_factory=Settings)
    known_size: KnownSizeSettings = KNOWN_SIZE
    agree: int = 3  # still frames of one still period a set's enrolment reads and agrees on
    reread_s: float | None = 1.0

    def __post_init__(self) -> None:
        if self.reread_s is not None and not 0.0 < self.reread_s <= 60.0:
            raise ValueError(f"PipelineSettings: reread_s must be in (0, 60], got {self.reread_s}")


@dataclass(frozen=True, slots=True)
class Step:
    """What the pipeline made of one frame (for tools, tests and benchmarks)."""

    motion: Motion
    detection: Detection | None  # None: not read (moving, not still long enough, or a
    # still table read surely less than `reread_s` ago)
    reading: Snapshot | None  # the detection in table mm
    observation: Snapshot | None  # a new settled observation


class Pipeline:
    """Frames in, settled `Snapshot`s out. Not thread-safe: one reader thread feeds it."""

    def __init__(
        self, settings: PipelineSettings | None = None, state_dir: str | Path | None = None
    ) -> None:
        self.configured = s = settings or PipelineSettings()
        self.settings = s
        self.state_dir = Path(state_dir) if state_dir is not None else None
        self.model: SetModel | None = None
        self._reader: SetReader | None = None  # the model's own look, to read each tile by
        self.gate = MotionGate(s.gate)
        self.stable = StableReadings(s.hold, s.tolerance_mm)
        self.watch = UnreadableWatch(s.unreadable_s)
        self.arms = ArmCheck(s.gate)
        self.calibration: Calibration | None = self._load()
        self._warned_pixels = False
        self._looked_at: float | None = None
        self.last: Step | None = None
        self.last_read: tuple[Frame, Detection] | None = None  # the latest frame read
        self._still: list[Frame] = []  # the first frames read since the scene last moved
        self._read_at: float | None = None  # when this still period's latest frame was read
        self.period = 0  # still periods ended so far (a move ends one)
        self._load_model()

    @property
    def unreadable(self) -> UnreadableSpot | None:
        """Unsure places that have stood `unreadable_s` seconds, or None."""
        return self.watch.spot

    def feed(self, frame: Frame) -> Snapshot | None:
        """One frame; a new settled observation, or None."""
        return self.step(frame).observation

    def step(self, frame: Frame) -> Step:
        """One frame, with everything the pipeline made of it."""
        motion = self.gate.update(frame.image)
        if not self.gate.settled(motion):
            if self._still:
                self.period += 1
            self._still.clear()
            self._read_at = None
            if motion.moving:
                self.stable.interrupt()
            self.last = Step(motion, None, None, None)
            return self.last
        if self._rests(frame):
            self.last = Step(motion, None, None, None)
            return self.last
        self._read_at = frame.at
        if motion.still_for == self.settings.gate.still_frames and self._look_now(frame.at):
            self._recalibrate(frame)
        calibration = self._calibration_for(frame)
        area = None if calibration is None else self._search_area(calibration)
        markers = () if calibration is None else self._markers_px(calibration)
        # a calibrated camera knows the tile's width in pixels: nothing to probe
        tile_px = 0.0 if calibration is None else self._tile_px(calibration)
        detection = detect(frame.image, area, self.settings.detector, markers, tile_px, self.looks)
        detection = self._in_set(detection)
        if calibration is not None:
            detection = read_anchored(
                frame.image,
                detection,
                calibration,
                self.settings.detector.tone,
                self.settings.tile_mm,
                self.settings.known_size,
            )
        to_mm = _Same() if calibration is None else _ToMm(calibration)
        reading = detection.snapshot(to_mm, frame.at)
        if calibration is not None:
            reading = self._in_play_area(reading)
        reading = self._arm(frame, calibration, to_mm, reading)
        self.watch.settled(reading, frame.at)
        observation = self.stable.offer(reading)
        if self.stable.holding is not None and not reading.unsure and self.gate.thumb is not None:
            self.arms.remember(self.gate.thumb)
        if len(self._still) < self.settings.agree:
            self._still.append(frame)
        self.last = Step(motion, detection, reading, observation)
        self.last_read = (frame, detection)
        return self.last

    def _rests(self, frame: Frame) -> bool:
        """The still table needs no reading of `frame`: the still period's first `agree`
        frames were read, the reading held with no unsure place, and the latest
        reading is less than `reread_s` old (see `PipelineSettings`)."""
        every = self.settings.reread_s
        held = self.stable.holding
        if every is None or held is None or held.unsure or self._read_at is None:
            return False
        if len(self._still) < self.settings.agree:
            return False
        return frame.at - self._read_at < every - 1e-3  # a frame's clock is not exact

    @property
    def looks(self) -> tuple[Look[FrameView], ...]:
        """The detector's frame looks: with a set enrolled, its own look last
        (`vision.set_model.look.SetLook`)."""
        if self._reader is None:
            return FRAME_LOOKS
        return with_look(FRAME_LOOKS, SetLook(self._reader))

    def _in_set(self, detection: Detection) -> Detection:
        """With a set enrolled, a tile read with a number the set has not (a 7-6 in a
        double-six) is no reading: its place is unsure, and read again by the tile's
        known size on a calibrated frame."""
        if self.model is None:
            return detection
        top = self.model.domino_set.max_pip
        wrong = [t for t in detection.tiles if max(t.pips) > top]
        if not wrong:
            return detection
        places = tuple(
            UnsureRegion(
                (t.px[0][0] + t.px[1][0]) / 2,
                (t.px[0][1] + t.px[1][1]) / 2,
                UnsureReason.NOT_IN_SET,
            )
            for t in wrong
        )
        kept = tuple(t for t in detection.tiles if max(t.pips) <= top)
        return replace(detection, tiles=kept, unsure=(*detection.unsure, *places))

    @property
    def still_read(self) -> int:
        """How many frames the pipeline read since the scene last moved (at most
        `PipelineSettings.agree`)."""
        return len(self._still)

    @property
    def still_frames(self) -> tuple[Frame, ...]:
        """The first frames (`PipelineSettings.agree` at most) the pipeline read since the
        scene last moved: the same frames whenever they are asked for, however late."""
        return tuple(self._still)

    def _markers_px(self, calibration: Calibration) -> tuple[tuple[Point, ...], ...]:
        """The corner markers' squares with their white paper, in pixels, left out of the
        detector's tile material (their paper is no tile): each marker's centre (a play
        area corner) +- `marker_mm`, which holds the square (`marker_mm` wide, a margin of
        0.2 `marker_mm`) however it is turned. None for a manual calibration, whose
        corners need not have markers on them."""
        if calibration.method is not CalibrationMethod.MARKERS:
            return ()
        half = self.settings.marker_mm
        w, h = calibration.size_mm
        out: list[tuple[Point, ...]] = []
        for cx, cy in ((0.0, 0.0), (w, 0.0), (w, h), (0.0, h)):
            square = [(cx - half, cy - half), (cx + half, cy - half)]
            square += [(cx + half, cy + half), (cx - half, cy + half)]
            out.append(tuple((float(x), float(y)) for x, y in calibration.mm_to_px(square)))
        return tuple(out)

    # --- the enrolled set ------------------------------------------------------------------

    def enrol(self, frames: Sequence[Frame], domino_set: DominoSet, at: datetime) -> Enrolment:
        """Read `frames` (photos of parts of the set) as the whole `domino_set` face up;
        when every tile was read right, its model is used from now on and saved. A frame
        the calibration fits is read in the play area, its tile size measured in mm."""
        views = [self._set_view(frame) for frame in frames]
        return self._enrolled(views, domino_set, at)

    def enrol_still(
        self,
        domino_set: DominoSet,
        at: datetime,
        *,
        mat: bool = False,
        frames: Sequence[Frame] | None = None,
    ) -> Enrolment | MatEnrolment:
        """Enrol `domino_set` from the scene lying still now (the `enrol` command): the
        first still frames of this still period (`still_frames`), each read and agreed on
        tile by tile (`vision.enrolment.agree`), or with `mat` the first of them read
        as the filled mat (`frames`: the first of them only). The frames are the same
        whenever the command came and however late the frames were read: the enrolment
        depends on the frames alone."""
        still = self.still_frames if frames is None else tuple(frames)
        if not still:
            raise VisionError("no still frame of the set yet: keep hands off the table")
        if mat:
            return self.enrol_mat(still[:1], domino_set, at)
        first = self._set_view(still[0])
        view = replace(first, again=tuple(f.image for f in still[1:]))
        return self._enrolled([view], domino_set, at)

    def _enrolled(self, views: list[SetView], domino_set: DominoSet, at: datetime) -> Enrolment:
        enrolment = read_set(views, domino_set, at, self.configured.detector)
        if enrolment.model is not None:
            self.use_model(enrolment.model)
        return enrolment

    def enrol_mat(
        self, frames: Sequence[Frame], domino_set: DominoSet, at: datetime, mat: Mat | None = None
    ) -> MatEnrolment:
        """Read `frames` of the filled enrolment mat as `domino_set` (the `enrol` command
        with `mat`; its paper found from its markers unless `mat` is given); when every
        slot holds its tile, the set model is used from now on and saved."""
        images = [f.image for f in frames]
        enrolment = enrol_mat(images, domino_set, at, self.configured.detector, mat)
        if enrolment.model is not None:
            self.use_model(enrolment.model)
        return enrolment

    def _set_view(self, frame: Frame) -> SetView:
        calibration = self._calibration_for(frame, warn=False)
        if calibration is None:
            return SetView(frame.image)
        area = PlayArea(self._search_area(calibration))
        return SetView(frame.image, area, self._markers_px(calibration), _ToMm(calibration))

    def use_model(self, model: SetModel, *, save: bool = True) -> None:
        """Read every later frame as the set of `model`, and keep it in the state directory."""
        c = self.configured
        self.model = model
        self._reader = model.reader()
        self.settings = replace(
            c, detector=model.detector(c.detector), tile_mm=model.tile_mm or c.tile_mm
        )
        self.stable.interrupt()
        if save and self.state_dir is not None:
            try:
                path = model.save(self.state_dir)
                log.info("camera: the %s set's model saved to %s", model.domino_set, path)
            except ModelError as exc:
                log.warning("camera: the enrolled set could not be saved: %s", exc)

    def learn(self, read: Tile, actual: Tile) -> str:
        """A player corrected the tile read `read` as `actual` (the `correct` command):
        the halves that were misread, cut from the latest frame read, join the set model
        at their true numbers (a few a number at most: `SetModel.learned`), so the same
        misread does not come back; the model is saved. Returns what was done, in words."""
        if self.model is None:
            return "no set is enrolled: nothing learned"
        if self.last_read is None:
            return "no frame read yet: nothing learned"
        frame, detection = self.last_read
        found = [t for t in detection.tiles if sorted(t.pips) == [read.low, read.high]]
        if len(found) != 1:
            return f"{read} was read {len(found)} times in the latest frame: nothing learned"
        tile = found[0]
        a, b = tile.pips
        options = ((actual.high, actual.low), (actual.low, actual.high))
        x, y = min(options, key=lambda o: (o[0] != a) + (o[1] != b))
        model = self.model
        learned = []
        for side, (was, now) in enumerate(((a, x), (b, y))):
            if was != now:
                crop = crop_half(frame.image, tile.px[side], tile.px[1 - side])
                model = model.learned(now, crop)
                learned.append(f"a {now} read as {was}")
        self.model = model
        self._reader = model.reader()
        self.stable.interrupt()  # the still table is read again with what was learned
        if self.state_dir is not None:
            try:
                model.save(self.state_dir)
            except ModelError as exc:
                log.warning("camera: the set model could not be saved: %s", exc)
        return f"learned {', '.join(learned)}" if learned else "nothing to learn"

    def _load_model(self) -> None:
        if self.state_dir is None:
            return
        try:
            model = load_model(self.state_dir)
        except ModelError as exc:
            log.warning("camera: the enrolled set is not used: %s", exc)
            return
        if model is not None:
            log.info("camera: reading the enrolled %s set (%s)", model.domino_set, model.tone.value)
            if not model.halves:
                log.info(
                    "camera: the %s set was enrolled before set models kept its halves: "
                    "enrol it again (the mat is best) to check each half against them",
                    model.domino_set,
                )
            self.use_model(model, save=False)

    # --- calibration -----------------------------------------------------------------------

    def _load(self) -> Calibration | None:
        if self.state_dir is None:
            return None
        try:
            saved = Calibration.load(self.state_dir)
        except CalibrationNotFoundError:
            return None
        except CalibrationError as exc:
            log.warning("camera: the saved calibration is not used: %s", exc)
            return None
        if saved.size_mm != tuple(float(v) for v in self.settings.size_mm):
            log.warning(
                "camera: the saved calibration is for a %g x %g mm play area, not %g x %g: "
                "not used (show the markers to calibrate again)",
                *saved.size_mm,
                *self.settings.size_mm,
            )
            return None
        log.info("camera: calibration loaded from %s", self.state_dir)
        return saved

    def _look_now(self, at: float) -> bool:
        every = self.settings.recalibrate_s
        if every is None:
            return False
        if self.calibration is None or self._looked_at is None or at - self._looked_at >= every:
            self._looked_at = at
            return True
        return False

    def _recalibrate(self, frame: Frame) -> None:
        s = self.settings
        current = self.calibration
        if current is not None and current.method.value != "markers":
            current = None  # markers in view beat manual corners
        fresh = calibrate_if_markers(frame.image, s.size_mm, current, marker_mm=s.marker_mm)
        if fresh is not None:
            self._use(fresh)

    def calibrate(self, image: npt.NDArray[np.uint8]) -> Calibration:
        """Calibrate from the four corner markers in `image` now (the `calibrate`
        command), use it at once and save it; `MarkersMissingError` names the missing."""
        fresh = calibrate_markers(image, self.settings.size_mm, self.settings.marker_mm)
        self._use(fresh)
        return fresh

    def _use(self, fresh: Calibration) -> None:
        self.calibration = fresh
        self.stable.interrupt()
        if self.state_dir is not None:
            try:
                path = fresh.save(self.state_dir)
                log.info("camera: calibration from the markers saved to %s", path)
            except (OSError, CalibrationError) as exc:
                log.warning("camera: the calibration could not be saved: %s", exc)

    def _calibration_for(self, frame: Frame, *, warn: bool = True) -> Calibration | None:
        h, w = frame.image.shape[:2]
        cal = self.calibration
        if cal is not None and cal.image_size == (w, h):
            return cal
        if self.settings.corners_px:
            self.calibration = calibrate_manual(
                self.settings.corners_px, self.settings.size_mm, (w, h)
            )
            log.info("camera: calibrated by the corners in the settings")
            return self.calibration
        if warn and not self._warned_pixels:
            self._warned_pixels = True
            log.warning(
                "camera: not calibrated (no markers seen, no corners set): positions are in "
                "pixels and plays cannot be judged; show the four corner markers"
            )
        return None

    def _tile_px(self, calibration: Calibration) -> float:
        """The tile's width in pixels at the play area's centre."""
        return self.settings.tile_mm[1] / calibration.mm_per_px()

    def _search_area(self, calibration: Calibration) -> tuple[Point, ...]:
        """The play area grown by `search_margin_mm`, in pixels: searching only up to
        the marker centres cuts the markers in half at the crop's edge, and the
        detector's reading of dark sets then flickers from frame to frame."""
        m = self.settings.search_margin_mm
        w, h = calibration.size_mm
        corners = calibration.mm_to_px([(-m, -m), (w + m, -m), (w + m, h + m), (-m, h + m)])
        return tuple((float(x), float(y)) for x, y in corners)

    def _in_play_area(self, reading: Snapshot) -> Snapshot:
        """Only what lies on the play area (a few mm of slack at its edges)."""
        w, h = self.settings.size_mm
        slack = self.settings.tolerance_mm

        def inside(x: float, y: float) -> bool:
            return -slack <= x <= w + slack and -slack <= y <= h + slack

        tiles = tuple(t for t in reading.tiles if inside(*t.centre))
        unsure = tuple(u for u in reading.unsure if inside(u.x, u.y))
        return replace(reading, tiles=tiles, unsure=unsure)

    def _arm(
        self, frame: Frame, calibration: Calibration | None, to_mm: ToMm, reading: Snapshot
    ) -> Snapshot:
        """A reading with an arm resting over the play area is unsure there."""
        if self.gate.thumb is None:
            return reading
        h, w = frame.image.shape[:2]
        tip = self.arms.find(self.gate.thumb, (w, h), frame.at)
        if tip is None:
            return reading
        if calibration is not None and not PlayArea(calibration.corners_px).contains(*tip):
            return reading  # an elbow at the table's edge hides no tile
        x, y = to_mm(tip)
        spot = Unsure(x, y, UnsureReason.ARM)
        return replace(reading, unsure=(*reading.unsure, spot))


class _Same:
    def __call__(self, p: Point) -> Point:
        return p


class _ToMm:
    """A pixel -> table mm map through a calibration."""

    def __init__(self, calibration: Calibration) -> None:
        self.calibration = calibration

    def __call__(self, p: Point) -> Point:
        x, y = np.asarray(self.calibration.px_to_mm(p), dtype=np.float64)
        return (float(x), float(y))


def corners_from(points: Sequence[Sequence[int]]) -> tuple[Point, ...]:
    """Corners from the settings (`camera.surface`) as float points."""
    return tuple((float(p[0]), float(p[1])) for p in points)
