"""The same enrolment from the same frames, however late they come and wherever the
request falls (issue 31): a pink set with yellow pips lies still for a while between
moves; the request comes before it is laid, or while it lies there; the frames come
on time or seconds late (a busy machine: the wall clock runs on between frames), and
some are dropped. Every run answers alike and keeps the same set model; the runs that
read the same frames keep byte-identical models. Nothing goes by the wall clock or by
which frame was being read when the request came."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from engine.tiles import DominoSet
from service.camera.enrol import Enrolling
from service.camera.events import CameraAnswer, CameraAsk, CameraRequest
from service.camera.view import CameraView, ViewSettings
from tablesim.render import Hand, RenderStyle, Scene, Surface, TileStyle, render_frame, table_view
from tests.vision.whole_sets import set_scene
from vision import Pipeline
from vision.frames import Frame

AT = datetime(2026, 12, 7, 12, 0, 0, tzinfo=UTC)
PINK = RenderStyle(TileStyle.PINK_YELLOW, Surface.WOOD)


@cache
def timeline() -> tuple[tuple[str, np.ndarray], ...]:
    """An empty table, a hand laying the set, the set lying still (each frame its own
    sensor noise), a hand taking it away, the empty table."""
    empty = render_frame(Scene(), None, PINK, seed=3).image
    whole = set_scene(DominoSet.DOUBLE_SIX, seed=3)
    table = table_view(whole, None, PINK, seed=3)  # the set drawn once for its nine frames

    def the_set(frame: int, hand: Hand | None = None) -> np.ndarray:
        return render_frame(whole, None, PINK, seed=3, frame=frame, hand=hand, view=table).image

    frames: list[tuple[str, np.ndarray]] = [("empty", empty)] * 4
    for i in range(2):
        frames.append(("hand", the_set(20 + i, Hand((300.0 + 60 * i, 420.0), (-50.0, 1000.0)))))
    frames += [("set", the_set(i)) for i in range(6)]
    frames.append(("hand", the_set(30, Hand((500.0, 300.0), (1400.0, 1000.0)))))
    frames += [("empty", empty)] * 4
    return tuple(frames)


class Run:
    """The camera's thread, fed the timeline: `late_s` of wall clock pass per frame,
    the frames at `dropped` never come, the request comes before frame `ask_at`."""

    def __init__(self, state: Path, ask_at: int, late_s: float, dropped: tuple[int, ...]) -> None:
        self.got: list[object] = []
        self.wall = 0.0
        self.pipeline = Pipeline(state_dir=state)
        view = CameraView(ViewSettings(), self.pipeline, self.got.append, now=lambda: AT)
        self.enrolling = Enrolling(self.pipeline, view, self.got.append, now=lambda: AT,
                                   clock=lambda: self.wall)  # fmt: skip
        self.state = state
        n = 0
        for i, (_, image) in enumerate(timeline()):
            if i == ask_at:
                self.enrolling.ask(CameraRequest(CameraAsk.ENROL, "e", "double-six"))
            self.wall += late_s
            if i in dropped:
                continue
            frame = Frame(image, i / 10.0)  # the source's clock: when it was taken
            n += 1
            self.enrolling.frame(frame, self.pipeline.step(frame))

    def answer(self) -> CameraAnswer:
        [answer] = [g for g in self.got if isinstance(g, CameraAnswer)]
        return answer


@pytest.mark.slow
def test_the_same_frames_enrol_the_same_way_however_late_and_wherever_asked(
    tmp_path: Path,
) -> None:
    kinds = [k for k, _ in timeline()]
    first_set = kinds.index("set")
    runs = {
        "asked before, on time": Run(tmp_path / "a", 1, 0.1, ()),
        "asked while it lies, 6 s late a frame": Run(tmp_path / "b", first_set + 3, 6.0, ()),
        "asked before, a still frame dropped": Run(tmp_path / "c", 1, 0.1, (first_set,)),
        "asked while it lies, late, frames dropped": Run(
            tmp_path / "d", first_set + 2, 6.0, (first_set + 1, first_set + 4)
        ),
    }
    answers = {name: run.answer() for name, run in runs.items()}
    for name, answer in answers.items():
        assert answer.error is None, (name, answer.error, answer.detail)
        assert answer.detail is not None and answer.detail["read"] == 28, name
        assert answer.detail["model"]["halves"] == 56, name
    same_frames = [runs["asked before, on time"], runs["asked while it lies, 6 s late a frame"]]
    saved = [(r.state / "set.json").read_bytes() for r in same_frames]
    assert saved[0] == saved[1]  # the same frames: the same model, byte for byte
    # the set taken away: refereeing again in every run
    assert not any(r.enrolling.holding for r in runs.values())
