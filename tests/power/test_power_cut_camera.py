"""A power cut during a calibration and during an enrolment, on a camera table, on both
disks: cut at every fsync, the calibration and the set whole or not there after each
cut, and there once the table said so (`tests/power/camera.py`).

Each test prints what it tried (`pytest -s`): the cuts, and where each fell.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.power.camera import Screen, calibration_sweep, camera_table, enrolment_sweep
from tests.power.rig import DISKS, MakePower, Power

pytestmark = pytest.mark.slow


def report(what: str, power: Power, points: list[str], started: float) -> None:
    assert len(power.cuts) == len(points) + 1
    print(f"\n{what}: {len(power.cuts)} cuts at {len(points)} fsyncs {points}, "
          f"{power.table.starts} starts, {time.monotonic() - started:.1f} s; "
          f"where: {power.cuts}")  # fmt: skip


@pytest.mark.parametrize("disk", DISKS)
def test_a_calibration_cut_at_every_fsync_keeps_it_whole(
    make_power: MakePower, tmp_path: Path, camera_pictures: dict[str, Path], disk: str
) -> None:
    started = time.monotonic()
    screen = Screen(tmp_path, camera_pictures)
    power = camera_table(make_power, disk, screen)
    points = calibration_sweep(power, screen)
    assert points.count("/state/calibration.json.tmp") == 2, points  # by itself, by command
    report(f"calibration ({disk} disk)", power, points, started)


@pytest.mark.parametrize("disk", DISKS)
def test_an_enrolment_cut_at_every_fsync_keeps_the_set_whole(
    make_power: MakePower, tmp_path: Path, camera_pictures: dict[str, Path], disk: str
) -> None:
    started = time.monotonic()
    screen = Screen(tmp_path, camera_pictures)
    power = camera_table(make_power, disk, screen)
    points = enrolment_sweep(power, screen)
    assert "/state/set.json.tmp" in points, points
    report(f"enrolment ({disk} disk)", power, points, started)
