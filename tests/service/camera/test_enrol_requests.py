"""Set enrolment's requests on the camera's thread (`service.camera.enrol.Enrolling`),
fed rendered frames through the real camera path: served by a still frame read after
the request (not the one being read when it came), given up without one, refused while
the camera gives no frames, and what waits answered when it stops; the view then names
the enrolled set."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from engine.tiles import DominoSet
from service.camera.enrol import Enrolling
from service.camera.events import CameraAnswer, CameraAsk, CameraRequest
from service.camera.view import NO_FRAMES, STOPPED, CameraView, ViewSettings
from tablesim.render import Hand, RenderStyle, Scene, render_frame
from tests.vision.whole_sets import render_set
from vision.camera_path.pipeline import Pipeline
from vision.frames import Frame

AT = datetime(2026, 11, 26, 12, 0, 0, tzinfo=UTC)


class Rig:
    def __init__(self, tmp_path: Path) -> None:
        self.got: list[object] = []
        self.wall = [0.0]
        self.pipeline = Pipeline(state_dir=tmp_path)
        self.view = CameraView(ViewSettings(), self.pipeline, self.got.append, now=lambda: AT)
        self.enrolling = Enrolling(self.pipeline, self.view, self.got.append, now=lambda: AT,
                                   clock=lambda: self.wall[0])  # fmt: skip
        self.frames = 0

    def feed(self, image: np.ndarray, n: int = 1) -> None:
        for _ in range(n):
            frame = Frame(image, self.frames / 10.0)
            self.frames += 1
            self.enrolling.frame(frame, self.pipeline.step(frame))

    def answers(self) -> list[CameraAnswer]:
        return [g for g in self.got if isinstance(g, CameraAnswer)]


def ask(rig: Rig, ident: str) -> None:
    rig.enrolling.ask(CameraRequest(CameraAsk.ENROL, ident, "double-six"))


def with_hand(i: int) -> np.ndarray:
    hand = Hand((300.0 + 40 * i, 400.0), (-50.0, 1000.0))
    return render_frame(Scene(), None, RenderStyle(), seed=4, frame=i, hand=hand).image


@pytest.mark.slow
def test_the_still_frame_read_after_the_request_is_the_set(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    empty = render_frame(Scene(), None, RenderStyle(), seed=4).image
    whole = render_set(DominoSet.DOUBLE_SIX, RenderStyle()).image
    rig.feed(empty, 4)  # a still, empty table
    ask(rig, "e1")
    assert rig.enrolling.holding
    rig.feed(empty)  # the frame that was being read when the request came
    assert rig.answers() == []
    rig.feed(whole, 4)  # the set laid: moving, then still
    [answer] = rig.answers()
    assert answer.error is None and answer.detail is not None and answer.detail["read"] == 28
    assert rig.view.profile == ("double-six", AT)
    assert rig.enrolling.holding  # until the set is taken away
    rig.feed(empty, 3)  # taken away: moving, then still
    assert not rig.enrolling.holding


def test_given_up_without_a_still_frame(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    rig.feed(with_hand(0))
    ask(rig, "e2")
    rig.wall[0] = 9.0
    rig.feed(with_hand(1))
    assert rig.answers() == []
    rig.wall[0] = 10.5
    rig.enrolling.idle()
    [answer] = rig.answers()
    assert answer.error is not None and answer.error.startswith("No still frame for 10 s")
    assert rig.view.profile is None and not (tmp_path / "set.json").exists()


def test_refused_while_the_camera_gives_no_frames_and_answered_when_it_stops(
    tmp_path: Path,
) -> None:
    rig = Rig(tmp_path)
    ask(rig, "e3")  # no frame yet
    assert rig.answers() == [CameraAnswer("e3", NO_FRAMES)] and not rig.enrolling.holding
    rig.feed(with_hand(0))
    ask(rig, "e4")
    rig.enrolling.offline()
    assert rig.answers()[-1] == CameraAnswer("e4", STOPPED) and not rig.enrolling.holding
