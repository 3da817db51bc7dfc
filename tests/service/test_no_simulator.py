"""The running service loads no simulator: a table with a board (the emulator runs in the
test, on a real pseudo-terminal), a camera reading a folder of frames and a real broker,
run in a fresh interpreter; once it has read frames and met the board, its `sys.modules`
hold no module of the simulated table, the demo, the board emulator or the engine's
computer players. The import contract "the service loads no simulator" keeps the
imports out; this keeps out what is loaded by name at run time (`camera.source`'s entry
points). The same check on a table whose camera is `sim` does see the simulator."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from firmware_bridge.emulator import BoardEmulator
from tests.fixtures.mosquitto import Mosquitto

pytestmark = pytest.mark.process

SIMULATORS = (
    "tablesim",
    "demo",
    "firmware_bridge.emulator",
    "firmware_bridge.script",
    "engine.players",
    "engine.playout",
)

RUN = """
import json, sys, time
from config.loader import load_settings
from service.app import TableService

overrides = json.loads(sys.argv[1])
with TableService(load_settings(None, overrides)) as service:
    deadline = time.monotonic() + 60
    def ready():
        board = service.board is None or service.core.state()["sources"].get("board")
        return service.camera.frames >= 3 and board and service.mqtt.wait_connected(0.1)
    while not ready() and time.monotonic() < deadline:
        time.sleep(0.1)
    frames, sources = service.camera.frames, service.core.state()["sources"]
prefixes = tuple(sys.argv[2].split(","))
loaded = sorted(m for m in sys.modules if any(m == p or m.startswith(p + ".") for p in prefixes))
print(json.dumps({"frames": frames, "sources": sources, "loaded": loaded}))
"""


def run_service(overrides: dict[str, object]) -> dict[str, object]:
    run = subprocess.run(
        [sys.executable, "-c", RUN, json.dumps(overrides), ",".join(SIMULATORS)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    found: dict[str, object] = json.loads(run.stdout.splitlines()[-1])
    return found


def test_the_running_service_loads_no_simulator(broker: Mosquitto, tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    for n in range(5):  # a folder is read once, frame by frame
        cv2.imwrite(str(frames / f"{n}.png"), np.full((480, 640, 3), 90 + n, np.uint8))
    with BoardEmulator(link=tmp_path / "board"):
        found = run_service(
            {
                "state.dir": str(tmp_path / "state"),
                "mqtt.host": broker.host,
                "mqtt.port": broker.port,
                "serial.enabled": True,
                "serial.port": str(tmp_path / "board"),
                "camera.enabled": True,
                "camera.source": str(frames),
            }
        )
    assert isinstance(found["frames"], int) and found["frames"] >= 3  # the camera ran
    assert found["sources"] == {"board": True, "camera": True}
    assert found["loaded"] == []


IMPORT_ALL = """
import json, pkgutil, sys, importlib
import service
for info in pkgutil.walk_packages(service.__path__, "service."):
    importlib.import_module(info.name)
prefixes = tuple(sys.argv[1].split(","))
print(json.dumps(sorted(m for m in sys.modules
                        if any(m == p or m.startswith(p + ".") for p in prefixes))))
"""


def test_every_module_of_the_service_imported_loads_no_simulator() -> None:
    """(Before the simulated camera was found by name, `service.demo` imported the
    simulated table, and `service.camera` named it.)"""
    run = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL, ",".join(SIMULATORS)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == []


def test_a_table_whose_camera_is_sim_does_load_it(broker: Mosquitto, tmp_path: Path) -> None:
    """The check sees the simulator when it is there: `sim` is found by its entry point."""
    found = run_service(
        {
            "state.dir": str(tmp_path / "state"),
            "mqtt.host": broker.host,
            "mqtt.port": broker.port,
            "camera.enabled": True,
            "camera.source": "sim",
        }
    )
    assert isinstance(found["frames"], int) and found["frames"] >= 3
    assert isinstance(found["loaded"], list)
    assert {"demo.sim_camera", "tablesim.camera"} <= set(found["loaded"])
