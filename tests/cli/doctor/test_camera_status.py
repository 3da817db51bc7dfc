"""`domino-table doctor` reads the running service's `camera/status` from a real broker
and says it in words: the state, and each warning with what to do."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from click.testing import CliRunner
from paho.mqtt.enums import CallbackAPIVersion

from cli.doctor.camera import check_camera_status
from cli.doctor.command import doctor
from cli.doctor.findings import Status
from config.loader import load_settings
from config.settings import Settings
from mqttweb.envelope import stamp
from service.camera.status import CalibrationFacts, CameraFacts, CameraState, Warned, status_payload
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.spec import validate

AT = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


def settings_for(broker: Mosquitto, tmp_path: Path, camera: bool = True) -> Settings:
    return load_settings(
        None,
        {
            "table.id": "t1",
            "camera.enabled": camera,
            "camera.source": "sim",
            "mqtt.host": broker.host,
            "mqtt.port": broker.port,
            "state.dir": str(tmp_path),
        },
    )


def publish(broker: Mosquitto, facts: CameraFacts) -> None:
    payload = stamp("t1", status_payload(facts))
    validate("camera_status", payload)
    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.connect(broker.host, broker.port)
    client.loop_start()
    info = client.publish("domino/t1/camera/status", json.dumps(payload), qos=1, retain=True)
    info.wait_for_publish(5)
    client.loop_stop()
    client.disconnect()


def test_a_camera_that_sees_well(broker: Mosquitto, tmp_path: Path) -> None:
    publish(broker, CameraFacts(CameraState.OK, (1280, 960),
                                CalibrationFacts("markers", (0, 1, 2, 3), 0.21, AT), 9.8,
                                (85.0, 120.0), None, (AT, 5, 0)))  # fmt: skip
    [found] = check_camera_status(settings_for(broker, tmp_path), 3.0)
    assert found.status is Status.OK
    assert found.detail == (
        "status ok: 1280 x 960 at 9.8 fps, calibrated by markers (0.21 px), a frame read in "
        "85.0 ms (p95 120.0), last reading 5 tiles, 0 unsure"
    )


@pytest.mark.process
def test_a_camera_not_calibrated_with_a_marker_missing_and_glare(
    broker: Mosquitto, tmp_path: Path
) -> None:
    warnings = (
        Warned("MARKERS_MISSING", {"missing": "2", "seen": "0, 1, 3"}),
        Warned("GLARE", {"percent": 3.2, "x": "520 mm", "y": "300 mm"}),
    )
    none = CalibrationFacts("none", (0, 1, 3))
    publish(
        broker, CameraFacts(CameraState.UNCALIBRATED, (1280, 960), none, 10.0, warnings=warnings)
    )
    state, markers, glare = check_camera_status(settings_for(broker, tmp_path), 3.0)
    assert state.status is Status.PROBLEM and state.detail.startswith("status uncalibrated: ")
    assert state.fix is not None and "Calibrate" in state.fix
    assert markers.detail == "MARKERS_MISSING: Corner marker 2 not in view (seen: 0, 1, 3)"
    assert markers.fix is not None and markers.fix.startswith("lay all four on the play area")
    assert glare.detail.startswith("GLARE: Glare washes out 3.2 % of the play area (around 520 mm")
    assert glare.fix is not None and glare.fix.startswith("move or dim the lamp")
    runner = CliRunner()
    settings_file = tmp_path / "settings.toml"
    settings_file.write_text(
        f'[table]\nid = "t1"\n[camera]\nenabled = true\nsource = "sim"\n'
        f'[mqtt]\nhost = "{broker.host}"\nport = {broker.port}\n[state]\ndir = "{tmp_path}"\n'
    )
    result = runner.invoke(doctor, ["--settings", str(settings_file), "--timeout", "2"])
    assert "camera  GLARE: Glare washes out" in result.output, result.output
    assert "fix: lay the four markers on the play area's corners" in result.output


def test_no_status_on_the_broker(broker: Mosquitto, tmp_path: Path) -> None:
    [found] = check_camera_status(settings_for(broker, tmp_path), 1.0)
    assert found.status is Status.SKIPPED and "not running" in found.detail
    assert check_camera_status(settings_for(broker, tmp_path, camera=False), 1.0) == []


def test_an_offline_camera(broker: Mosquitto, tmp_path: Path) -> None:
    publish(broker, CameraFacts(CameraState.OFFLINE))
    [found] = check_camera_status(settings_for(broker, tmp_path), 3.0)
    assert found.status is Status.PROBLEM
    assert found.detail == "status offline: the table service gets no frames from the camera"
