"""`domino-table doctor` on the camera sources a Pi table uses: the Pi camera module
(picamera2, imported for real in a child interpreter: here a package of our own put
first on its path) and a V4L2 device path."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from cli.doctor.camera import check_camera
from cli.doctor.findings import Finding, Status
from config.loader import load_settings


def findings(tmp_path: Path, source: object) -> Finding:
    settings = load_settings(
        None,
        {"camera.enabled": True, "camera.source": source, "state.dir": str(tmp_path)},
    )
    (found,) = check_camera(settings, timeout=0.5)
    return found


def fake_picamera2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: str) -> None:
    """A `picamera2` package with `module` as its code, first on the probe's path."""
    folder = tmp_path / "site"
    (folder / "picamera2").mkdir(parents=True, exist_ok=True)
    (folder / "picamera2" / "__init__.py").write_text(textwrap.dedent(module))
    monkeypatch.setenv("PYTHONPATH", str(folder))


def listing(cameras: str) -> str:
    return f"""
        class Picamera2:
            @staticmethod
            def global_camera_info():
                return {cameras}
        """


@pytest.mark.process
def test_pi_camera_without_picamera2_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))  # nothing there: a bare venv
    found = findings(tmp_path, "picamera")
    assert found.status is Status.PROBLEM
    assert found.detail == (
        "picamera2 cannot be imported (ModuleNotFoundError: No module named 'picamera2')"
    )
    assert found.fix is not None and "python3-picamera2" in found.fix


@pytest.mark.process
def test_pi_camera_module_missing_or_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_picamera2(tmp_path, monkeypatch, listing("[]"))
    found = findings(tmp_path, "picamera")
    assert found.status is Status.PROBLEM and "no Pi camera module found" in found.detail
    assert found.fix is not None and "ribbon" in found.fix
    fake_picamera2(tmp_path, monkeypatch, listing('[{"Model": "imx708", "Num": 0}]'))
    found = findings(tmp_path, "picamera")
    assert found == Finding("camera", Status.OK, "Pi camera: imx708 (1 found)")


@pytest.mark.process
def test_a_numpy_the_camera_stack_was_not_built_for_is_named_with_its_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What Raspberry Pi OS's python3-simplejpeg raises under a pip-installed numpy 2
    (tests/install/ builds a real module that fails numpy's check)."""
    fake_picamera2(
        tmp_path,
        monkeypatch,
        'raise ValueError("numpy.dtype size changed, may indicate binary incompatibility. '
        'Expected 96 from C header, got 88 from PyObject")',
    )
    found = findings(tmp_path, "picamera")
    assert found.status is Status.PROBLEM
    assert found.detail.startswith("picamera2 cannot be imported (ValueError: numpy.dtype size")
    assert found.fix is not None and "scripts/install-pi.sh" in found.fix
    assert "pins numpy to the system's" in found.fix


@pytest.mark.process
def test_an_import_that_crashes_is_reported_and_doctor_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_picamera2(tmp_path, monkeypatch, "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)")
    found = findings(tmp_path, "picamera")
    assert found.status is Status.PROBLEM
    assert found.detail == "picamera2 cannot be imported (the import crashed (SIGSEGV))"


@pytest.mark.process
def test_libcamera_failing_to_list_cameras(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_picamera2(
        tmp_path,
        monkeypatch,
        """
        class Picamera2:
            @staticmethod
            def global_camera_info():
                raise RuntimeError("Failed to start the camera manager")
        """,
    )
    found = findings(tmp_path, "picamera")
    assert found.status is Status.PROBLEM
    assert found.detail == (
        "libcamera cannot list cameras: RuntimeError: Failed to start the camera manager"
    )


def test_a_device_path_that_is_not_there(tmp_path: Path) -> None:
    found = findings(tmp_path, "/dev/video57")
    assert found.status is Status.PROBLEM
    assert found.detail == "/dev/video57 does not exist (camera.source = /dev/video57)"
    assert found.fix is not None and "video group" in found.fix
