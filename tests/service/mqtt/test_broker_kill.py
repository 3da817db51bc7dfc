"""The broker is killed (SIGKILL) and restarted while events are published: none is lost."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_recorder import Recorder
from tests.service.mqtt.test_link import P, Table, wait_acked

N = 150


def test_every_event_arrives_across_a_broker_kill(tmp_path: Path, broker: Mosquitto) -> None:
    # A subscriber with a persistent session, as a display or a desk would use.
    rec = Recorder(broker.host, broker.port, [f"{P}/event/#"], client_id="desk", persistent=True)
    table = Table(tmp_path, broker)
    try:
        assert rec.subscribed.wait(5)
        table.link.start()
        assert table.link.wait_connected(5)
        saved_after = time.time()
        db = broker.workdir / "mosquitto.db"
        deadline = time.monotonic() + 10  # the broker saves its sessions every second
        while not (db.exists() and db.stat().st_mtime > saved_after + 0.1):
            assert time.monotonic() < deadline, "mosquitto did not save its sessions"
            time.sleep(0.05)
        published = threading.Event()

        def publish() -> None:
            for n in range(1, N + 1):
                table.play(n)
                time.sleep(0.005)
            published.set()

        writer = threading.Thread(target=publish)
        writer.start()
        while table.journal.last_seq() < N // 4:
            time.sleep(0.005)
        broker.kill()
        time.sleep(0.3)
        broker.start()
        writer.join(30)
        assert published.is_set()
        try:
            seen = rec.wait_for(lambda s: {x.json()["seq"] for x in s} >= set(range(1, N + 1)), 20)
        except AssertionError:
            got = {x.json()["seq"] for x in rec.seen}
            missing = sorted(set(range(1, N + 1)) - got)
            pending = [e.seq for e in table.journal.pending()]
            raise AssertionError(f"missing seqs {missing}; journal pending {pending}") from None
        first: dict[int, bytes] = {}
        for s in seen:
            seq = s.json()["seq"]
            assert first.setdefault(seq, s.payload) == s.payload, f"seq {seq} came back different"
        assert sorted(first) == list(range(1, N + 1))
        wait_acked(table.journal, 15)
    finally:
        table.close()
        rec.close()
