"""The Last Will: a table process killed with SIGKILL shows `offline`, retained."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_recorder import Recorder
from tests.service.mqtt.link_child import link_child

pytestmark = pytest.mark.process

P = "domino/t1"

READY = """
print("ready", flush=True)
time.sleep(60)
"""


def test_kill_9_leaves_offline_retained(tmp_path: Path, broker: Mosquitto) -> None:
    rec = Recorder(broker.host, broker.port, [f"{P}/status"])
    with rec, link_child(broker, tmp_path, READY) as proc:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        rec.wait_for(lambda seen: [s.payload for s in seen][-1:] == [b"online"])
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(5)
        rec.wait_for(lambda seen: [s.payload for s in seen][-1:] == [b"offline"], timeout=15)
    with Recorder(broker.host, broker.port, [f"{P}/status"]) as late:  # a newcomer
        (seen,) = late.wait_for(lambda s: len(s) >= 1)
        assert seen.payload == b"offline" and seen.retain  # sees it retained
