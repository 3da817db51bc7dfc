"""The phases a power cut may fall in on a camera table: the real `domino-table run`
reading a folder of frames (each a link to one picture the test changes: what the
camera shows), cut at every fsync of a calibration (from the moment the markers come
into view: the calibration the table makes by itself, then the `calibrate` command's)
and of an enrolment (from the `enrol` command: the set model, the reply), and after the
last. What `test_power_cut_camera.py` runs on both disks, and `test_weakened.py` on a
table with some durability taken away.

After each cut, before the table starts again, the disk holds the calibration (or the
set) whole or not at all, and whole once the table said so (its camera status, its
reply); then the table starts, the command sent again under its id is answered, and
nothing a subscriber saw is lost.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from engine.tiles import DominoSet
from tablesim.render import Camera, RenderStyle, Scene, Surface, TileStyle, render_frame
from tests.fixtures.mqtt_recorder import Seen
from tests.power.checks import no_errors, nothing_seen_lost, restarted
from tests.power.rig import MakePower, P, Power
from tests.power.sweep import attempts, held, power_back, restore, until_cut
from tests.vision.whole_sets import laid_out
from vision import Calibration
from vision.set_model.model import load_model

BLACK_ON_WOOD = RenderStyle(TileStyle.BLACK, Surface.WOOD)
# A 600 x 450 mm table in a 960 x 720 frame: the tiles as many pixels long as on a
# 900 x 600 mm table in a 1280 x 960 frame, the frame half as many pixels to read. (The
# 28 tiles of the set laid out on a smaller table stand too close to be read whole.)
SIZE_MM = (600, 450)
RESOLUTION = (960, 720)
SURFACE = f"[table.surface]\nwidth_mm = {SIZE_MM[0]}\nheight_mm = {SIZE_MM[1]}\n"
FRAMES = 2400  # links to the picture shown: 200 s at the frame rate below
FPS = "12"
# what a camera table imports as it starts: imported by the zygote once
CAMERA_MODULES = (
    "numpy", "cv2", "vision", "service.camera.source", "service.camera.events",
    "service.camera.commands", "service.camera.publisher", "service.history.camera",
)  # fmt: skip


def render_pictures(folder: Path) -> dict[str, Path]:
    """What the camera may show, as PNG files in `folder`: `blank` (no markers: no
    calibration), `table` (the empty table, its markers in view), `set` (the whole
    double-six laid out on it)."""
    width, height = RESOLUTION
    size = (float(SIZE_MM[0]), float(SIZE_MM[1]))
    camera = Camera.overhead(size, RESOLUTION)
    tile_mm = BLACK_ON_WOOD.tile_set.size_mm
    tiles = laid_out(list(DominoSet.DOUBLE_SIX.tiles()), size, tile_mm=tile_mm)
    images: dict[str, npt.NDArray[np.uint8]] = {
        "blank": np.full((height, width, 3), 90, np.uint8),
        "table": render_frame(Scene(size_mm=size), camera, BLACK_ON_WOOD, seed=2).image,
        "set": render_frame(
            Scene(tiles=tiles, size_mm=size, tile_mm=tile_mm), camera, BLACK_ON_WOOD
        ).image,
    }
    out = {}
    for name, image in images.items():
        out[name] = folder / f"{name}.png"
        assert cv2.imwrite(str(out[name]), image)
    return out


class Screen:
    """What the camera shows: a folder of links to one picture, which `show` changes
    whole (the picture is itself a link to one of `pictures`)."""

    def __init__(self, workdir: Path, pictures: dict[str, Path]) -> None:
        self.pictures = pictures
        self.folder = workdir / "frames"
        self.folder.mkdir()
        self.picture = workdir / "shown.png"
        self.show("blank")
        for n in range(FRAMES):
            (self.folder / f"{n:05d}.png").symlink_to(self.picture)

    def show(self, name: str) -> None:
        fresh = self.picture.with_name("next.png")
        fresh.unlink(missing_ok=True)
        fresh.symlink_to(self.pictures[name])
        os.replace(fresh, self.picture)


def camera_table(make_power: MakePower, disk: str, screen: Screen, **settings: str) -> Power:
    return make_power(
        disk, "--camera", str(screen.folder), "--fps", FPS,
        "--rules", "straight-block", "--seats", "2",
        settings=SURFACE + '[camera]\ntone = "light"',  # as a table of ivory tiles is set up
        **settings,
    )  # fmt: skip


def calibrated(seen: list[Seen]) -> bool:
    """The camera says it is calibrated, and frames arrive."""
    said = [s.json() for s in seen if s.topic == f"{P}/camera/status"]
    return bool(said) and said[-1]["state"] == "ok"


def replied_ok(power: Power, cmd_id: str) -> bool:
    reply = power.watch.reply(cmd_id)(power.watch.seen[power.watch.mark :])
    return reply is not None and bool(reply["ok"])


def whole_calibration(state: Path) -> Calibration | None:
    """The calibration on the disk: None when there is none; raises when it is damaged."""
    if not (state / "calibration.json").exists():
        return None
    return Calibration.load(state)


def ready(power: Power) -> None:
    """The table online, its camera calibrated and reading (since this start)."""
    since = len(power.watch.seen) - power.watch.mark
    power.watch.online(power.table)
    power.watch.wait(lambda seen: calibrated(seen[since:]), 60, power.table)


def start_again(power: Power) -> None:
    """After a cut: the disk checked, the table started on it, its camera reading."""
    power_back(power)
    since = len(power.watch.seen) - power.watch.mark
    power.table.start()
    restarted(power.watch, power.table, prior=power.prior)
    power.watch.wait(lambda seen: calibrated(seen[since:]), 60, power.table)


def sweep(power: Power, snapshot: str, begin: Callable[[], None], act: Callable[[], None],
          check: Callable[[], None], again: Callable[[], None]) -> list[str]:  # fmt: skip
    """The phase `act` cut at each of its fsyncs and after the last: each time from the
    disk `snapshot` kept, the table started and `begin()` done first; after each cut
    `check()` (the table dead, the disk as the cut left it), then the table started
    again and `again()`. The reference's fsyncs."""
    prior = dict(power.prior)
    restore(power, snapshot, prior)
    begin()
    act()
    points: list[str] = power.disk.counts()["trace"]
    for n, before in attempts(points):
        restore(power, snapshot, prior)
        begin()
        power.disk.arm_fsync(n, power.table.pid or 0, before=before)
        until_cut(power, act, n, points)
        check()
        start_again(power)
        again()
    return points


def finish(power: Power) -> None:
    """A clean stop: nothing seen is lost (the journal read from outside), no error."""
    assert power.table.stop() == 0
    nothing_seen_lost(power.watch, power.table)
    no_errors(power.table)


def calibration_sweep(power: Power, screen: Screen) -> list[str]:
    """From the markers coming into view: the table calibrates by itself and saves it,
    then the `calibrate` command calibrates again, saves it and stores its reply. The
    fsyncs of the reference."""
    table, watch = power.table, power.watch
    power.disk.snapshot("empty")

    def begin() -> None:
        screen.show("blank")
        table.start()
        watch.online(table)
        watch.caught_up(table)
        power.disk.counts()

    def calibrate() -> None:
        screen.show("table")
        watch.wait(calibrated, 60, table)
        watch.send({"id": "cal", "action": "calibrate"})
        reply = watch.wait(watch.reply("cal"), 60, table)
        assert reply["ok"], reply
        watch.caught_up(table)

    def check() -> None:
        said = calibrated(watch.seen[watch.mark :]) or replied_ok(power, "cal")
        table.kill()
        power.disk.crash()  # what the disk holds now: a calibration whole, or none
        kept = whole_calibration(table.state)
        assert kept is not None or not said, "a calibration the table confirmed is lost"

    def again() -> None:
        watch.send({"id": "cal", "action": "calibrate"})  # again, under its id
        reply = watch.wait(watch.reply("cal"), 60, table)
        assert reply["ok"], reply["error"]
        assert whole_calibration(table.state) is not None

    points = sweep(power, "empty", begin, calibrate, check, again)
    finish(power)
    return points


def enrolment_sweep(power: Power, screen: Screen) -> list[str]:
    """From the `enrol` command, the whole set lying in view: its model saved, the reply
    stored. The fsyncs of the reference."""
    table, watch = power.table, power.watch
    screen.show("table")
    table.start()
    ready(power)
    watch.caught_up(table)
    table.power_cut()
    watch.gone()
    power.disk.snapshot("calibrated")
    power.prior = held(power)
    screen.show("set")  # from here on, the whole set lies in view

    def begin() -> None:
        table.start()
        ready(power)
        watch.caught_up(table)
        power.disk.counts()

    def enrol() -> None:
        watch.send({"id": "enrol", "action": "enrol", "set": "double-six"})
        reply = watch.wait(watch.reply("enrol"), 120, table)
        assert reply["ok"], reply
        watch.caught_up(table)

    def check() -> None:
        said = replied_ok(power, "enrol")
        table.kill()
        power.disk.crash()
        kept = load_model(table.state)  # raises when the file is there but damaged
        assert kept is not None or not said, "a set the table said it enrolled is lost"

    def again() -> None:
        watch.send({"id": "enrol", "action": "enrol", "set": "double-six"})
        assert watch.wait(watch.reply("enrol"), 120, table)["ok"]
        assert load_model(table.state) is not None

    points = sweep(power, "calibrated", begin, enrol, check, again)
    assert "/state/set.json.tmp" in points, points
    finish(power)
    return points
