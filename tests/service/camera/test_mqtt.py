"""The camera's view over the fake broker: a table service whose camera plays a rendered
game publishes `camera/status` (retained, schema-valid) and `camera/snapshot` (retained
JPEG), answers `snapshot`, `calibrate` and `enrol`, says `offline` when it stops, and
shows in Home Assistant as a camera; a table without a camera refuses those commands."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from config.loader import load_settings
from config.settings import Settings
from demo.sim_camera import SimOptions, frames
from service.app import TableService
from service.camera.commands import NO_CAMERA
from tests.fixtures.mqtt_fake import FakeBroker
from tests.fixtures.mqtt_recorder import Recorder, Seen
from tests.fixtures.service_process import send

P = "domino/t1"
STATUS, SNAPSHOT, REPLY = f"{P}/camera/status", f"{P}/camera/snapshot", f"{P}/cmd/reply"
HA_CAMERA = "homeassistant/camera/t1_camera/config"


def settings_for(broker: FakeBroker, state: Path, camera: bool) -> Settings:
    return load_settings(
        None,
        {
            "table.id": "t1",
            "table.rules": "straight-block",
            "table.seats": 2,
            "serial.enabled": False,
            "camera.enabled": camera,
            "camera.source": "sim",
            "mqtt.host": broker.host,
            "mqtt.port": broker.port,
            "mqtt.discovery": True,
            "state.dir": str(state),
        },
    )


def reply_to(rec: Recorder, ident: str, timeout: float = 30.0) -> dict[str, Any]:
    def answered(seen: list[Seen]) -> bool:
        return any(s.topic == REPLY and s.json()["id"] == ident for s in seen)

    seen = rec.wait_for(answered, timeout)
    reply: dict[str, Any] = next(
        s.json() for s in seen if s.topic == REPLY and s.json()["id"] == ident
    )
    return reply


def jpeg(seen: Seen) -> np.ndarray:
    image = cv2.imdecode(np.frombuffer(seen.payload, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None, "camera/snapshot is not a JPEG"
    return image


def statuses(seen: list[Seen]) -> list[dict[str, Any]]:
    return [s.json() for s in seen if s.topic == STATUS]


@pytest.mark.slow
def test_a_camera_table_publishes_what_it_sees_and_answers(
    mqtt_fake: FakeBroker, tmp_path: Path
) -> None:
    settings = settings_for(mqtt_fake, tmp_path / "state", camera=True)
    rec = Recorder(
        mqtt_fake.host, mqtt_fake.port, [f"{P}/camera/#", REPLY, "homeassistant/camera/#"]
    )
    service = TableService(settings, camera_frames=frames(SimOptions(seed=3, pace_s=3.0)))
    service.start()
    try:
        rec.wait_for(lambda s: any(x.get("state") == "ok" for x in statuses(s)), timeout=60)
        rec.wait_for(lambda s: any(x.topic == SNAPSHOT for x in s), timeout=60)
        assert jpeg(rec.on(SNAPSHOT)[-1]).shape == (960, 1280, 3)
        ok = next(x for x in statuses(rec.seen) if x["state"] == "ok")
        assert ok["calibration"]["method"] == "markers" and ok["frame"]["width"] == 1280
        camera = json.loads(rec.on(HA_CAMERA)[-1].payload)
        assert camera["topic"] == SNAPSHOT and camera["availability_topic"] == f"{P}/status"

        pictures = len(rec.on(SNAPSHOT))
        send(mqtt_fake, {"id": "snap-1", "action": "snapshot"})
        assert reply_to(rec, "snap-1")["ok"] is True
        assert len(rec.on(SNAPSHOT)) > pictures  # published before the reply

        send(mqtt_fake, {"id": "cal-1", "action": "calibrate"})
        calibrated = reply_to(rec, "cal-1")
        assert calibrated["ok"] is True and calibrated["error"] is None
        assert calibrated["detail"]["markers_seen"] == [0, 1, 2, 3]
        assert calibrated["detail"]["method"] == "markers"

        # a game's layout is no whole set: the reply says what it missed
        send(mqtt_fake, {"id": "enrol-1", "action": "enrol", "set": "double-six"})
        enrol = reply_to(rec, "enrol-1")
        assert enrol["ok"] is False and enrol["error"].startswith("Not enrolled: ")
        assert enrol["detail"]["expected"] == 28 and enrol["detail"]["missing"]

        late = Recorder(mqtt_fake.host, mqtt_fake.port, [f"{P}/camera/#"])  # retained for newcomers
        got = late.wait_for(lambda s: {x.topic for x in s} >= {STATUS, SNAPSHOT})
        assert all(x.retain for x in got)
        late.close()
    finally:
        service.stop()
    last = Recorder(mqtt_fake.host, mqtt_fake.port, [STATUS])
    try:
        [said] = last.wait_for(lambda s: len(s) >= 1)
        assert said.json()["state"] == "offline" and said.json()["frame"] is None
    finally:
        last.close()
        rec.close()


def test_a_table_without_a_camera_refuses_its_commands(
    mqtt_fake: FakeBroker, tmp_path: Path
) -> None:
    settings = settings_for(mqtt_fake, tmp_path / "state", camera=False)
    rec = Recorder(mqtt_fake.host, mqtt_fake.port, [REPLY, "homeassistant/camera/#", f"{P}/status"])
    service = TableService(settings)
    service.start()
    try:
        rec.wait_for(lambda s: any(x.payload == b"online" for x in s), timeout=20)
        for n, action in enumerate(("snapshot", "calibrate", "enrol")):
            send(mqtt_fake, {"id": f"c{n}", "action": action})
            reply = reply_to(rec, f"c{n}")
            assert reply["ok"] is False and reply["error"] == NO_CAMERA
        # no camera entity in Home Assistant: its config is emptied
        emptied = rec.wait_for(lambda s: any(x.topic == HA_CAMERA for x in s))
        assert [x.payload for x in emptied if x.topic == HA_CAMERA] == [b""]
    finally:
        service.stop()
        rec.close()
