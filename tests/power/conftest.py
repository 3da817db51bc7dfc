"""The power-cut tests' set-up: a disk (lossy or real), the zygote that forks the table,
a subscriber, the table; `make_power(...)` makes them, and they are taken down after.
Made once for all the tests (of a worker): the cut's build, a zygote per disk (which has
imported what a board table and a camera table import), the camera's pictures."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.emulator import BoardEmulator
from tests.fixtures.lossy_fs import LossyFs
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.real_disk import RealDisk, build_shim
from tests.fixtures.table_zygote import Zygote
from tests.fixtures.tiers import needs
from tests.power.camera import CAMERA_MODULES, render_pictures
from tests.power.rig import MakePower, Power, PowerTable, Watch


@pytest.fixture(scope="session")
@needs("process")
def fsync_shim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_shim(tmp_path_factory.mktemp("fsync-cut"))


@pytest.fixture(scope="session")
@needs("process")
def zygotes(
    tmp_path_factory: pytest.TempPathFactory, fsync_shim: Path
) -> Iterator[Callable[[str], Zygote]]:
    """`zygotes(disk)`: the zygote for tables on that disk (on the real one, with the
    cut preloaded), started on first use."""
    made: dict[str, Zygote] = {}

    def get(disk_kind: str) -> Zygote:
        if disk_kind not in made:
            env = {"LD_PRELOAD": str(fsync_shim)} if disk_kind == "real" else {}
            folder = tmp_path_factory.mktemp(f"zygote-{disk_kind}")
            made[disk_kind] = Zygote(folder, env=env, modules=CAMERA_MODULES).start()
        return made[disk_kind]

    try:
        yield get
    finally:
        for zygote in made.values():
            zygote.stop()


@pytest.fixture(scope="session")
def camera_pictures(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return render_pictures(tmp_path_factory.mktemp("pictures"))


@pytest.fixture
@needs("process")
def make_power(
    broker: Mosquitto, tmp_path: Path, fsync_shim: Path, zygotes: Callable[[str], Zygote]
) -> Iterator[MakePower]:
    """`make_power(disk, *table_args, board=..., **table_settings)`."""
    made: list[Power] = []
    parts: list[Any] = []

    def make(disk_kind: str, *extra: str, board: bool = False, **settings: Any) -> Power:
        disk: LossyFs | RealDisk
        if disk_kind == "lossy":
            disk = LossyFs(tmp_path / "disk", tmp_path).start()
            env = None
        else:
            assert disk_kind == "real", disk_kind
            disk = RealDisk(tmp_path / "disk", tmp_path, fsync_shim).start()
            env = disk.table_env()
        parts.append(disk)
        emulator = None
        if board:
            emulator = BoardEmulator(link=tmp_path / "board", speed=3, seed=4).start()
            parts.append(emulator)
            extra = ("--serial", str(tmp_path / "board"), *extra)
        watch = Watch(broker)
        parts.append(watch)
        zygote = zygotes(disk_kind)
        table = PowerTable(disk, zygote, broker, tmp_path, *extra, env=env, **settings)
        power = Power(disk, zygote, watch, table, emulator)
        made.append(power)
        return power

    try:
        yield make
    finally:
        for power in made:
            power.table.kill()
        for part in reversed(parts):  # the watch, the board, then the disk
            part.close() if isinstance(part, Watch) else part.stop()
