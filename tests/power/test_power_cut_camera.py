"""A power cut during a calibration and during an enrolment, on a camera table: the real
`domino-table run` reading a folder of frames (each a link to one picture the test
changes: what the camera shows), its state on the lossy file system, cut at every fsync
from the moment the markers come into view (the calibration the table makes by itself,
then the `calibrate` command's) or from the `enrol` command (the set model, the reply).

After each cut, before the table starts again, the disk holds the calibration (or the
set) whole or not at all, and whole once the table said so (its camera status, its
reply); then the table starts, the command sent again under its id is answered, and
nothing a subscriber saw is lost.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from engine.tiles import DominoSet
from tablesim.render import Camera, RenderStyle, Scene, Surface, TileStyle, render_frame
from tests.fixtures.lossy_fs import LossyFs
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_recorder import Seen
from tests.power.checks import no_errors, nothing_seen_lost, restarted
from tests.power.rig import P, PowerTable, Watch, events_by_seq
from tests.vision.whole_sets import render_set
from vision import Calibration
from vision.set_model.model import load_model

pytestmark = pytest.mark.slow

BLACK_ON_WOOD = RenderStyle(TileStyle.BLACK, Surface.WOOD)
FRAMES = 4000  # links to the picture shown: 1000 s at 4 frames a second


class Screen:
    """What the camera shows: a folder of links to one picture, changed whole."""

    def __init__(self, workdir: Path) -> None:
        self.folder = workdir / "frames"
        self.folder.mkdir()
        self.picture = workdir / "shown.png"
        self.blank = np.full((960, 1280, 3), 90, np.uint8)  # no markers: uncalibrated
        self.table = render_frame(Scene(), Camera.overhead(), BLACK_ON_WOOD, seed=2).image
        self.set = render_set(DominoSet.DOUBLE_SIX, BLACK_ON_WOOD).image
        self.show(self.blank)
        for n in range(FRAMES):
            (self.folder / f"{n:05d}.png").symlink_to(self.picture)

    def show(self, image: npt.NDArray[np.uint8]) -> None:
        fresh = self.picture.with_name("next.png")
        assert cv2.imwrite(str(fresh), image)
        os.replace(fresh, self.picture)


@dataclass
class CameraRig:
    fs: LossyFs
    watch: Watch
    table: PowerTable
    screen: Screen
    cuts: list[str] = field(default_factory=list)


@pytest.fixture
def rig(broker: Mosquitto, tmp_path: Path) -> Iterator[CameraRig]:
    fs = LossyFs(tmp_path / "disk", tmp_path).start()
    screen = Screen(tmp_path)
    watch = Watch(broker)
    table = PowerTable(
        fs, broker, tmp_path, "--camera", str(screen.folder), "--fps", "4",
        "--rules", "straight-block", "--seats", "2",
        settings='[camera]\ntone = "light"',  # as a table of ivory tiles is set up
    )  # fmt: skip
    try:
        yield CameraRig(fs, watch, table, screen)
    finally:
        table.kill()
        watch.close()
        fs.stop()


def camera_states(seen: list[Seen]) -> list[str]:
    return [s.json()["state"] for s in seen if s.topic == f"{P}/camera/status"]


def calibrated(seen: list[Seen]) -> bool:
    """The camera is calibrated and has read a still frame: its commands are served."""
    said = [s.json() for s in seen if s.topic == f"{P}/camera/status"]
    return bool(said) and said[-1]["state"] == "ok" and said[-1]["reading"] is not None


def replied_ok(watch: Watch, cmd_id: str) -> bool:
    reply = watch.reply(cmd_id)(watch.seen[watch.mark :])
    return reply is not None and bool(reply["ok"])


def whole_calibration(state: Path) -> Calibration | None:
    """The calibration on the disk: None when there is none; raises when it is damaged."""
    if not (state / "calibration.json").exists():
        return None
    return Calibration.load(state)


def start_again(rig: CameraRig, prior: dict[int, bytes] | None = None) -> None:
    """Power back on: the table starts, and its camera reads again (since this start)."""
    rig.table.power_cut()
    rig.watch.gone()
    since = len(rig.watch.seen) - rig.watch.mark
    rig.table.start()
    restarted(rig.watch, rig.table, prior=prior)
    rig.watch.wait(lambda seen: calibrated(seen[since:]), 60, rig.table)


def cut_points(rig: CameraRig, act: Any) -> list[str]:
    """The fsyncs `act()` makes on a table started on the disk as it is (a reference run)."""
    rig.watch.mark = len(rig.watch.seen)
    rig.table.start()
    rig.watch.online(rig.table)
    rig.fs.counts()
    act(None)
    time.sleep(1.0)
    points: list[str] = rig.fs.counts()["trace"]
    rig.table.kill()
    rig.watch.gone()
    return points


@pytest.mark.timeout(900)  # two camera starts a cut, on a loaded runner
def test_a_calibration_cut_at_every_fsync_keeps_it_whole(rig: CameraRig) -> None:
    """From the markers coming into view: the table calibrates by itself and saves it,
    then the `calibrate` command calibrates again, saves it and stores its reply."""
    started = time.monotonic()
    fs, table, watch, screen = rig.fs, rig.table, rig.watch, rig.screen
    fs.snapshot("empty")

    def calibrate(arm: tuple[int, bool] | None) -> None:
        if arm is not None:
            fs.arm_fsync(arm[0], table.pid, before=arm[1])
        screen.show(screen.table)
        watch.wait(calibrated, 60, table)
        watch.send({"id": "cal", "action": "calibrate"})
        reply = watch.wait(watch.reply("cal"), 60, table)
        assert reply["ok"], reply

    points = cut_points(rig, calibrate)
    assert points.count("/state/calibration.json.tmp") == 2, points  # by itself, by command
    attempts = [(n, before) for n in range(1, len(points) + 1)
                for before in ((True, False) if n == len(points) else (True,))]  # fmt: skip
    for n, before in attempts:
        fs.restore("empty")
        screen.show(screen.blank)
        table.new_boot()
        watch.mark = len(watch.seen)
        table.start()
        watch.online(table)
        with contextlib.suppress(AssertionError):  # the table died at its cut, as armed
            calibrate((n, before))
        assert not table.alive(), f"no cut at fsync {n} ({points[n - 1]})"
        rig.cuts.append(fs.counts()["killed"]["where"])
        said = calibrated(watch.seen[watch.mark :]) or replied_ok(watch, "cal")
        table.kill()
        fs.crash()  # what the disk holds now: a calibration whole, or none
        kept = whole_calibration(table.state)
        assert kept is not None or not said, "a calibration the table confirmed is lost"
        start_again(rig)
        watch.send({"id": "cal", "action": "calibrate"})  # again, under its id
        again = watch.wait(watch.reply("cal"), 60, table)
        assert again["ok"], (n, before, again["error"])
        assert whole_calibration(table.state) is not None
        if (n, before) != attempts[-1]:
            table.kill()
            watch.gone()
    assert table.stop() == 0
    nothing_seen_lost(watch, table)
    no_errors(table)
    print(f"\ncalibration: {len(rig.cuts)} cuts at {len(points)} fsyncs {points}, "
          f"{time.monotonic() - started:.1f} s; where: {rig.cuts}")  # fmt: skip


@pytest.mark.timeout(900)  # the set read again after each cut, on a loaded runner
def test_an_enrolment_cut_at_every_fsync_keeps_the_set_whole(rig: CameraRig) -> None:
    """From the `enrol` command, the whole set lying in view: its model saved, the reply
    stored."""
    started = time.monotonic()
    fs, table, watch, screen = rig.fs, rig.table, rig.watch, rig.screen
    screen.show(screen.table)
    table.start()
    watch.online(table)
    watch.wait(calibrated, 60, table)
    laid = events_by_seq(watch.seen)  # what the disk kept below holds
    screen.show(screen.set)
    time.sleep(4)  # the set laid out, seen before the command comes
    table.kill()
    watch.gone()
    fs.crash(keep=True)
    fs.snapshot("set laid")

    def enrol(arm: tuple[int, bool] | None) -> None:
        if arm is not None:
            fs.arm_fsync(arm[0], table.pid, before=arm[1])
        watch.send({"id": "enrol", "action": "enrol", "set": "double-six"})
        reply = watch.wait(watch.reply("enrol"), 120, table)
        assert reply["ok"], reply

    fs.restore("set laid")

    def ready_then_enrol(arm: tuple[int, bool] | None) -> None:
        watch.wait(calibrated, 60, table)
        enrol(arm)

    points = cut_points(rig, ready_then_enrol)
    assert "/state/set.json.tmp" in points, points
    attempts = [(n, before) for n in range(1, len(points) + 1)
                for before in ((True, False) if n == len(points) else (True,))]  # fmt: skip
    for n, before in attempts:
        fs.restore("set laid")
        table.new_boot()
        watch.mark = len(watch.seen)
        table.start()
        watch.online(table)
        with contextlib.suppress(AssertionError):  # the table died at its cut, as armed
            ready_then_enrol((n, before))
        assert not table.alive(), f"no cut at fsync {n} ({points[n - 1]})"
        rig.cuts.append(fs.counts()["killed"]["where"])
        said = replied_ok(watch, "enrol")
        table.kill()
        fs.crash()
        kept = load_model(table.state)  # raises when the file is there but damaged
        assert kept is not None or not said, "a set the table said it enrolled is lost"
        start_again(rig, prior=laid)
        watch.send({"id": "enrol", "action": "enrol", "set": "double-six"})
        assert watch.wait(watch.reply("enrol"), 120, table)["ok"]
        assert load_model(table.state) is not None
        if (n, before) != attempts[-1]:
            table.kill()
            watch.gone()
    assert table.stop() == 0
    nothing_seen_lost(watch, table)
    no_errors(table)
    print(f"\nenrolment: {len(rig.cuts)} cuts at {len(points)} fsyncs {points}, "
          f"{time.monotonic() - started:.1f} s; where: {rig.cuts}")  # fmt: skip
