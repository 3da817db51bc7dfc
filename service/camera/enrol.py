"""Set enrolment on the camera's thread: the `enrol` command (spec/mqtt.md).

`Enrolling` takes `enrol` requests from any thread (`ask`). On each still frame the
camera path reads after it, it reads the still frames read so far as the whole set,
agreed tile by tile (`vision.Pipeline.enrol`), until that reads the set right or
several were read (`PipelineSettings.agree`, or half the time allowed has gone), and
answers with the reply's `detail`: expected, read, missing, misread, extra;
`ok` only when every tile was read right. Then the pipeline keeps the set's look in
the state directory and reads every later frame with it, and the view's `profile`
names the set in `camera/status`.

While the set lies there, nothing is refereed: from the request until a still frame
after the answer shows no face-up tile (the set taken away or turned over), `holding`
is true and the camera source hands the service neither its readings nor its
unreadable places. A failed enrolment holds too: the set still lies there.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime

from engine.tiles import DominoSet, TileError
from service.camera.events import CameraAnswer, CameraRequest
from service.camera.view import NO_FRAMES, STOPPED, CameraView
from vision import Frame, Pipeline, Step, VisionError

__all__ = ["Enrolling"]

log = logging.getLogger(__name__)


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
        self._asked: list[tuple[CameraRequest, float, int]] = []  # request, when, frames then
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
        if model.tile_mm is not None:
            self.view.settings = replace(self.view.settings, tile_mm=model.tile_mm)

    def ask(self, request: CameraRequest) -> None:
        """An `enrol` request; answered after the next still frame (at once when the camera
        gives no frames)."""
        with self._lock:
            offline = self._offline
            if not offline:
                self._asked.append((request, self.clock(), self._frames))
                self.holding = True
        if offline:
            self._answer(request, NO_FRAMES)

    def frame(self, frame: Frame, step: Step) -> None:
        """After the camera path read `frame`: serve what waits; let go once the set is gone.
        A request is served by a still frame read after it came: the frame being read
        when it came (`frames then` + 1) may show the table as it was."""
        self._offline = False
        with self._lock:
            self._frames += 1
            waiting, self._asked = self._asked, []
        later = []
        for request, since, then in waiting:
            # a reading of the whole set is the answer; one that is not, once several
            # still frames agreed on it (or half the time allowed has gone)
            final = self.pipeline.still_read >= self.pipeline.settings.agree
            final = final or self.clock() - since >= self.answer_within_s / 2
            if step.detection is not None and self._frames > then + 1:
                if self._enrol(request, frame, final):
                    self._served = self._frames
                else:
                    later.append((request, since, then))
            elif self.clock() - since >= self.answer_within_s:
                self._answer(request, _too_long(self.answer_within_s))
            else:
                later.append((request, since, then))
        with self._lock:
            self._asked = later + self._asked
            waits = bool(self._asked)
        # read after the answer: the frame it read was read before with what it replaced
        cleared = step.reading is not None and not step.reading.tiles
        if self.holding and cleared and not waits and self._frames > self._served:
            log.info("camera: the enrolled set was taken away: refereeing again")
            self.holding = False

    def idle(self) -> None:
        """No frame this time round: requests that waited too long are answered."""
        with self._lock:
            waiting, self._asked = self._asked, []
        for request, since, then in waiting:
            if self.clock() - since >= self.answer_within_s:
                self._answer(request, _too_long(self.answer_within_s))
            else:
                with self._lock:
                    self._asked.append((request, since, then))

    def offline(self) -> None:
        """The camera stopped: what waits is answered, and nothing is held."""
        self._offline = True
        with self._lock:
            waiting, self._asked = self._asked, []
        self.holding = False
        for request, _, _ in waiting:
            self._answer(request, STOPPED)

    def _enrol(self, request: CameraRequest, frame: Frame, final: bool) -> bool:
        """Read the set; answer (True) when it read right or `final`, else wait."""
        try:
            domino_set = DominoSet.named(request.set_name or "double-six")
            enrolment = self.pipeline.enrol([frame], domino_set, self.now())
        except (TileError, VisionError) as exc:
            self._answer(request, f"The set could not be read: {exc}")
            return True
        if not enrolment.ok and not final:
            return False
        check = enrolment.check
        log.info("camera: enrolment: %s", check.summary())
        self.profile_from(self.pipeline)
        error = None if enrolment.ok else f"Not enrolled: {check.summary()}."
        self._answer(request, error, check.detail())
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
