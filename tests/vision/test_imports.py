"""The camera path, and what the service imports to run a real camera, load neither the
simulated table (`tablesim`: its renderer, its players) nor the engine's computer
players: each is imported in a fresh interpreter and its `sys.modules` looked at."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.process

SIMULATION = ("tablesim", "engine.players")


def loaded_by(*modules: str) -> list[str]:
    """The simulation's modules in `sys.modules` after importing `modules` afresh."""
    code = (
        "import importlib, json, sys\n"
        f"for name in {list(modules)!r}:\n"
        "    importlib.import_module(name)\n"
        f"prefixes = {SIMULATION!r}\n"
        "print(json.dumps(sorted(m for m in sys.modules\n"
        "    if any(m == p or m.startswith(p + '.') for p in prefixes))))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert run.returncode == 0, run.stderr
    found: list[str] = json.loads(run.stdout)
    return found


@pytest.mark.parametrize(
    "module",
    [
        "vision",
        "vision.camera_path.pipeline",
        "vision.sources",
        "vision.frames",
        "service.camera.source",
    ],
)
def test_the_camera_path_loads_no_simulated_table(module: str) -> None:
    assert loaded_by(module) == []


def test_the_simulated_camera_does_load_it() -> None:
    """The check sees the simulation when it is there."""
    found = loaded_by("tablesim.camera")
    assert {"tablesim.camera", "tablesim.render", "engine.players"} <= set(found)
