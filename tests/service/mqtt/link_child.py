"""The table's MQTT link alone in a child Python process, for tests that kill it with
SIGKILL: `MqttLink` for table t1 on a journal in `state_dir`, connected to the broker,
then the test's `body` (a script that may use `journal`, `link` and `play_payload`);
what the body prints comes back on the child's stdout pipe.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.fixtures.mosquitto import Mosquitto

ROOT = Path(__file__).resolve().parents[2]

CONNECTED = """
import sys, time
from pathlib import Path
from engine.inputs import Undo
from service.store.journal import Journal
from service.mqtt.link import MqttLink
from tests.fixtures.mqtt_recorder import mqtt_settings, play_payload, state_payload
host, port, state_dir = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
journal = Journal(state_dir, "t1")
link = MqttLink(mqtt_settings(host, port), "t1", journal, state=state_payload, on_command=print)
link.start()
assert link.wait_connected(10)
"""


@contextmanager
def link_child(broker: Mosquitto, state_dir: Path, body: str) -> Iterator[subprocess.Popen[str]]:
    """The child running `body` once its link is connected; killed after if still alive."""
    proc = subprocess.Popen(
        [sys.executable, "-c", CONNECTED + body, broker.host, str(broker.port), str(state_dir)],
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        text=True,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
