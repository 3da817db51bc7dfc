"""The table process is killed (SIGKILL) while publishing: after a restart every event arrives."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from service.mqtt.link import MqttLink
from service.store.journal import Journal
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_recorder import Recorder, mqtt_settings, state_payload
from tests.service.mqtt.link_child import link_child

pytestmark = pytest.mark.process

P = "domino/t1"

KEEP_PUBLISHING = """
n = 0
while True:
    n += 1
    seqs = journal.append(Undo(), [("play", play_payload(n))])
    link.publish_journaled(seqs)
    print(seqs[-1], flush=True)
"""


def test_every_event_arrives_after_the_table_is_killed(tmp_path: Path, broker: Mosquitto) -> None:
    rec = Recorder(broker.host, broker.port, [f"{P}/event/#"], client_id="desk", persistent=True)
    assert rec.subscribed.wait(5)
    with rec, link_child(broker, tmp_path, KEEP_PUBLISHING) as proc:
        assert proc.stdout is not None
        while int(proc.stdout.readline() or 0) < 100:
            assert proc.poll() is None, "the table process died"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(5)
        with Journal(tmp_path, "t1") as journal:
            last = journal.last_seq()
            assert last >= 100
            link = MqttLink(
                mqtt_settings(broker.host, broker.port),
                "t1",
                journal,
                state=lambda: state_payload(seq=last),
                on_command=print,
            )
            link.start()
            try:
                assert link.wait_connected(10)
                want = set(range(1, last + 1))
                seen = rec.wait_for(lambda s: {x.json()["seq"] for x in s} >= want, 20)
                first: dict[int, bytes] = {}
                for s in seen:
                    assert first.setdefault(s.json()["seq"], s.payload) == s.payload
            finally:
                link.stop()
