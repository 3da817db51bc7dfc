"""The Last Will: a table process killed with SIGKILL shows `offline`, retained."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.fixtures.mosquitto import Mosquitto
from tests.service.mqtt_recorder import Recorder

ROOT = Path(__file__).resolve().parents[2]
P = "domino/t1"

CHILD = """
import sys, time
from pathlib import Path
from service.journal import Journal
from service.mqtt_link import MqttLink
from tests.service.mqtt_recorder import mqtt_settings, state_payload
host, port, state_dir = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
journal = Journal(state_dir, "t1")
link = MqttLink(mqtt_settings(host, port), "t1", journal, state=state_payload, on_command=print)
link.start()
assert link.wait_connected(10)
print("ready", flush=True)
time.sleep(60)
"""


def test_kill_9_leaves_offline_retained(tmp_path: Path, broker: Mosquitto) -> None:
    rec = Recorder(broker.host, broker.port, [f"{P}/status"])
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, broker.host, str(broker.port), str(tmp_path)],
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        text=True,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        rec.wait_for(lambda seen: [s.payload for s in seen][-1:] == [b"online"])
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(5)
        rec.wait_for(lambda seen: [s.payload for s in seen][-1:] == [b"offline"], timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
        rec.close()
    late = Recorder(broker.host, broker.port, [f"{P}/status"])  # a newcomer sees it retained
    try:
        (seen,) = late.wait_for(lambda s: len(s) >= 1)
        assert seen.payload == b"offline" and seen.retain
    finally:
        late.close()
