"""`domino-table doctor` on the camera sources a Pi table uses: the Pi camera module
(picamera2) and a V4L2 device path."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

import pytest

from config.loader import load_settings
from service.doctor import Finding, Status, check_camera


def findings(tmp_path: Path, source: object) -> Finding:
    settings = load_settings(
        None,
        {"camera.enabled": True, "camera.source": source, "state.dir": str(tmp_path)},
    )
    (found,) = check_camera(settings, timeout=0.5)
    return found


def fake_picamera2(monkeypatch: pytest.MonkeyPatch, cameras: list[dict[str, Any]]) -> None:
    module = types.ModuleType("picamera2")

    class Picamera2:
        @staticmethod
        def global_camera_info() -> list[dict[str, Any]]:
            return cameras

    module.Picamera2 = Picamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)


def test_pi_camera_without_picamera2_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails, as on a bare venv
    found = findings(tmp_path, "picamera")
    assert found.status is Status.PROBLEM
    assert found.detail.startswith("picamera2 cannot be imported")
    assert found.fix is not None and "python3-picamera2" in found.fix


def test_pi_camera_module_missing_or_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_picamera2(monkeypatch, [])
    found = findings(tmp_path, "picamera")
    assert found.status is Status.PROBLEM and "no Pi camera module found" in found.detail
    assert found.fix is not None and "ribbon" in found.fix
    fake_picamera2(monkeypatch, [{"Model": "imx708", "Num": 0}])
    found = findings(tmp_path, "picamera")
    assert found == Finding("camera", Status.OK, "Pi camera: imx708 (1 found)")


def test_a_device_path_that_is_not_there(tmp_path: Path) -> None:
    found = findings(tmp_path, "/dev/video57")
    assert found.status is Status.PROBLEM
    assert found.detail == "/dev/video57 does not exist (camera.source = /dev/video57)"
    assert found.fix is not None and "video group" in found.fix
