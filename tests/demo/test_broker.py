"""The demo's private Mosquitto: starts on a free port, carries messages, stops cleanly."""

from __future__ import annotations

import shutil
import socket
from pathlib import Path

import pytest

from demo import broker as broker_module
from demo.broker import BrokerError, LocalBroker, find_mosquitto
from tests.fixtures.mqtt_recorder import Recorder


@pytest.mark.broker
def test_starts_carries_messages_and_stops(tmp_path: Path) -> None:
    with LocalBroker(tmp_path / "b") as b:
        assert b.running and b.host == "127.0.0.1" and b.port > 0
        rec = Recorder(b.host, b.port, ["x/#"])
        try:
            assert rec.subscribed.wait(5)
            rec.client.publish("x/y", b"hello", qos=1).wait_for_publish(5)
            (seen,) = rec.wait_for(lambda s: len(s) >= 1)
            assert seen.payload == b"hello"
        finally:
            rec.close()
        port = b.port
    assert not b.running
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
    b.stop()  # idempotent


@pytest.mark.broker
def test_temporary_folder_is_removed() -> None:
    b = LocalBroker()
    b.start()
    folder = b.workdir
    assert (folder / "mosquitto.conf").exists()
    b.stop()
    assert not folder.exists()


def test_missing_mosquitto_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setattr(broker_module, "SEARCH_PATH", ("/nonexistent/mosquitto",))
    with pytest.raises(BrokerError) as info:
        find_mosquitto()
    assert "sudo apt-get install mosquitto" in str(info.value)
    assert "--mqtt-host" in str(info.value)


def test_a_taken_port_is_reported(tmp_path: Path) -> None:
    with socket.socket() as holder:
        # the holder takes a port the system chooses: a port picked as free beforehand
        # could be taken by another process before the holder binds it
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        b = LocalBroker(tmp_path / "b", port=port)
        with pytest.raises(BrokerError, match=f"port {port} on 127.0.0.1 is already in use"):
            b.start()
        assert not b.running
