"""Set enrolment on the camera's thread: the `enrol` command (spec/mqtt.md).

`Enrolling` takes `enrol` requests from any thread (`ask`). A request is served by the
still period that holds a frame read after it came: once the camera path has read
`PipelineSettings.agree` still frames of that period, those first frames are read as
the whole set, agreed tile by tile (`vision.Pipeline.enrol_still`), or, for a request
with `mat`, the first of them as the filled enrolment mat; the answer carries the
reply's `detail` (expected, read, missing, misread, extra; for the mat each slot
that is not right, in words), `ok` only when every tile was read right. Then the
pipeline keeps the set model in the state directory and reads every later frame with
it, and the view's `profile` names the set in `camera/status`.

Nothing here goes by the wall clock or by which frame happened to be read when the
request came: the same frames give the same enrolment, however late they were read
and whether or not some were dropped. A request that sees no still period of
`agree` frames within `answer_within_s` seconds of the frames' own clock is answered
so; with no frames at all, by the wall clock (`idle`).

While the set lies there, nothing is refereed: from the request until a still frame
after the answer shows no face-up tile (the set taken away or turned over), `holding`
is true and the camera source hands the service neither its readings nor its
unreadable places. A failed enrolment holds too: the set still lies there.
"""

from __future__ import annotations

import base64
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from engine.tiles import DominoSet, TileError
from service.camera.events import CameraAnswer, CameraRequest
from service.camera.view import NO_FRAMES, STOPPED, CameraView
from vision import SHEET_COLUMNS, Frame, MatEnrolment, Pipeline, Step, VisionError

__all__ = ["Enrolling"]

log = logging.getLogger(__name__)


@dataclass
class _Waiting:
    """A request, when it came (wall clock), how many frames had been read then, the
    frames' clock of the first frame read after it (None: none yet), the still period
    it is being served by and how many of that period's first still frames were tried,
    and the last reading that was not the whole set."""

    request: CameraRequest
    wall: float
    frames: int
    first_at: float | None = None
    period: int | None = None
    tried: int = 0
    last: tuple[str, dict[str, object]] | None = None


class Enrolling:
    """The `enrol` command. `ask`: any thread; the rest: the camera's thread only."""

    def __init__(
        self,
        pipeline: Pipeline,
        view: CameraView,
        submit: Callable[[object], None],
        *,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
        clock: Callable[[], float] = time.monotonic,
        answer_within_s: float = 10.0,
    ) -> None:
        self.pipeline = pipeline
        self.view = view
        self.submit = submit
        self.now = now
        self.clock = clock
        self.answer_within_s = answer_within_s
        self.holding = False  # the set lies there: nothing is refereed
        self._lock = threading.Lock()
        self._asked: list[_Waiting] = []
        self._frames = 0  # frames handed to `frame` so far
        self._served = 0  # ... when the latest request was served
        self._offline = True
        self.profile_from(pipeline)

    def profile_from(self, pipeline: Pipeline) -> None:
        """The view names the set the pipeline reads with, and measures its tile size."""
        model = pipeline.model
        if model is None:
            return
        self.view.profile = (str(model.domino_set), model.at)
        self.view.model = model.summary()
        if model.tile_mm is not None:
            self.view.settings = replace(self.view.settings, tile_mm=model.tile_mm)

    def ask(self, request: CameraRequest) -> None:
        """An `enrol` request; answered once the still scene after it has been read (at
        once when the camera gives no frames)."""
        with self._lock:
            offline = self._offline
            if not offline:
                self._asked.append(_Waiting(request, self.clock(), self._frames))
                self.holding = True
        if offline:
            self._answer(request, NO_FRAMES)

    def frame(self, frame: Frame, step: Step) -> None:
        """After the camera path read `frame`: serve what waits; let go once the set is gone.

        A request is served by the still period of a frame read after it came (not the
        frame being read when it came: it may show the table as it was). The period's
        first still frames (`Pipeline.still_frames`) are read as the set, the first
        alone, then the first two agreed, ... up to `PipelineSettings.agree`: the first
        that reads the whole set right is the answer, else the reading of all `agree`.
        However late the request came in the period, the same frames are read in the
        same order: the answer depends on the frames alone."""
        self._offline = False
        with self._lock:
            self._frames += 1
            waiting, self._asked = self._asked, []
        later = []
        for wait in waiting:
            if self._frames < wait.frames + 2:
                later.append(wait)  # the frame being read when the request came
                continue
            if wait.first_at is None:
                wait.first_at = frame.at
            if self._serve(wait, step):
                self._served = self._frames
            elif frame.at - wait.first_at >= self.answer_within_s:
                if wait.last is not None:
                    self._answer(wait.request, *wait.last)
                else:
                    self._answer(wait.request, _too_long(self.answer_within_s))
            else:
                later.append(wait)
        with self._lock:
            self._asked = later + self._asked
            waits = bool(self._asked)
        # read after the answer: the frame it read was read before with what it replaced
        cleared = step.reading is not None and not step.reading.tiles
        if self.holding and cleared and not waits and self._frames > self._served:
            log.info("camera: the enrolled set was taken away: refereeing again")
            self.holding = False

    def _serve(self, wait: _Waiting, step: Step) -> bool:
        """Try the still period's first frames not tried yet; True when answered."""
        path = self.pipeline
        if step.detection is None:
            return False
        if wait.period != path.period:
            wait.period, wait.tried = path.period, 0
        still = path.still_frames
        agree = 1 if wait.request.mat else path.settings.agree
        while wait.tried < min(len(still), agree):
            wait.tried += 1
            if self._enrol(wait, still[: wait.tried], final=wait.tried >= agree):
                return True
        return False

    def idle(self) -> None:
        """No frame this time round: requests that waited too long (wall clock) for any
        frame are answered."""
        with self._lock:
            waiting, self._asked = self._asked, []
        kept = []
        for wait in waiting:
            # no frame comes at all: nothing to go by but the wall clock
            if self.clock() - wait.wall >= self.answer_within_s:
                if wait.last is not None:
                    self._answer(wait.request, *wait.last)
                else:
                    self._answer(wait.request, _too_long(self.answer_within_s))
            else:
                kept.append(wait)
        with self._lock:
            self._asked = kept + self._asked

    def offline(self) -> None:
        """The camera stopped: what waits is answered, and nothing is held."""
        self._offline = True
        with self._lock:
            waiting, self._asked = self._asked, []
        self.holding = False
        for wait in waiting:
            self._answer(wait.request, STOPPED)

    def _enrol(self, wait: _Waiting, frames: Sequence[Frame], *, final: bool) -> bool:
        """Read `frames` (a still period's first) as the set (or the mat) and answer
        (True); a reading that is not the whole set is answered only when `final`, and
        kept to answer with should no later reading be final."""
        request = wait.request
        try:
            domino_set = DominoSet.named(request.set_name or "double-six")
            enrolment = self.pipeline.enrol_still(
                domino_set, self.now(), mat=request.mat, frames=frames
            )
        except (TileError, VisionError) as exc:
            self._answer(request, f"The set could not be read: {exc}")
            return True
        if isinstance(enrolment, MatEnrolment):
            summary, detail = enrolment.summary(), enrolment.detail()
        else:
            summary, detail = enrolment.check.summary(), enrolment.check.detail()
        if not enrolment.ok and not final:
            wait.last = (f"Not enrolled: {summary}.", detail)
            return False
        log.info("camera: enrolment: %s", summary)
        self.profile_from(self.pipeline)
        model = self.pipeline.model if enrolment.ok else None
        if model is not None:
            png, values, corrected = model.sheet()
            halves = {"png": base64.b64encode(png).decode("ascii"), "values": values,
                      "corrected": corrected, "columns": SHEET_COLUMNS}  # fmt: skip
            detail = detail | {"model": model.summary(), "halves": halves}
        error = None if enrolment.ok else f"Not enrolled: {summary}."
        self._answer(request, error, detail)
        return True

    def _answer(
        self, request: CameraRequest, error: str | None, detail: dict[str, object] | None = None
    ) -> None:
        self.submit(CameraAnswer(request.command_id, error, detail))


def _too_long(seconds: float) -> str:
    return (
        f"No still frame for {seconds:g} s: keep hands and arms off the table while it reads "
        "the set, then try again."
    )
