"""The power-cut tests' set-up: a disk (lossy or real), the zygote that forks the table,
a subscriber, the table; `make_power(...)` makes them, and they are taken down after."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.emulator import BoardEmulator
from tests.fixtures.lossy_fs import LossyFs
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.real_disk import RealDisk, build_shim
from tests.fixtures.table_zygote import Zygote
from tests.power.rig import MakePower, Power, PowerTable, Watch


@pytest.fixture(scope="session")
def fsync_shim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_shim(tmp_path_factory.mktemp("fsync-cut"))


@pytest.fixture
def make_power(broker: Mosquitto, tmp_path: Path, fsync_shim: Path) -> Iterator[MakePower]:
    """`make_power(disk, *table_args, board=..., modules=..., **table_settings)`."""
    made: list[Power] = []
    parts: list[Any] = []

    def make(
        disk_kind: str, *extra: str, board: bool = False, modules: tuple[str, ...] = (),
        **settings: Any,
    ) -> Power:  # fmt: skip
        disk: LossyFs | RealDisk
        if disk_kind == "lossy":
            disk = LossyFs(tmp_path / "disk", tmp_path).start()
            parts.append(disk)
            preload: dict[str, str] = {}
            env = None
        else:
            assert disk_kind == "real", disk_kind
            disk = RealDisk(tmp_path / "disk", tmp_path, fsync_shim).start()
            parts.append(disk)
            preload, env = disk.preload(), disk.table_env()
        zygote = Zygote(tmp_path, env=preload, modules=modules).start()
        parts.append(zygote)
        emulator = None
        if board:
            emulator = BoardEmulator(link=tmp_path / "board", speed=3, seed=4).start()
            parts.append(emulator)
            extra = ("--serial", str(tmp_path / "board"), *extra)
        watch = Watch(broker)
        parts.append(watch)
        table = PowerTable(disk, zygote, broker, tmp_path, *extra, env=env, **settings)
        power = Power(disk, zygote, watch, table, emulator)
        made.append(power)
        return power

    try:
        yield make
    finally:
        for power in made:
            power.table.kill()
        for part in reversed(parts):  # the watch, the board, the zygote, then the disk
            part.close() if isinstance(part, Watch) else part.stop()
