"""`domino-table run --camera sim`: a rendered game read through the camera path, on MQTT."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_recorder import Recorder
from tests.fixtures.service_process import TOPICS, Service

pytestmark = pytest.mark.process

P = "domino/t1"


def test_run_with_a_simulated_camera_scores_plays(broker: Mosquitto, tmp_path: Path) -> None:
    rec = Recorder(broker.host, broker.port, TOPICS)
    service = Service(broker, tmp_path / "state", "--camera", "sim", "--fps", "10",
                      "--rules", "straight-block", "--seats", "2")  # fmt: skip
    service.start()
    try:
        got = rec.wait_for(
            lambda s: len([x for x in s if x.topic == f"{P}/event/play"]) >= 3, timeout=90
        )
        plays = [x.json() for x in got if x.topic == f"{P}/event/play"]
        assert plays[0]["seat"] is None  # the lead: who laid it is told afterwards
        assert all(p["seat"] in (0, 1) for p in plays[1:])
        assert all(isinstance(p["xa"], int) for p in plays)  # table mm from the calibration
        (calibration,) = (tmp_path / "state").glob("calibration.json")
        assert calibration.stat().st_size > 0
        assert not rec.errors
    finally:
        service.stop()
        rec.close()
