"""The table's MQTT link as the outputs' way to their devices (real Mosquitto): QoS 0, not
retained, nothing sent while the broker is away, and the latest of each kept topic sent
again when the link connects."""

from __future__ import annotations

from pathlib import Path

from service.mqtt.link import MqttLink
from service.store.journal import Journal
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_recorder import Recorder, mqtt_settings, state_payload

APP, NOTIFY = "awtrix_t1/custom/domino", "awtrix_t1/notify"


def test_kept_device_messages_go_again_on_connect_and_moments_do_not(
    tmp_path: Path, broker: Mosquitto
) -> None:
    journal = Journal(tmp_path / "state", "t1")
    link = MqttLink(mqtt_settings(broker.host, broker.port), "t1", journal,
                    state=state_payload, on_command=lambda _: None)  # fmt: skip
    devices = Recorder(broker.host, broker.port, ["awtrix_t1/#"], client_id="clock")
    try:
        assert devices.subscribed.wait(10)
        # before the link is up: nothing is sent, nothing waits
        link.publish_device(APP, b'{"text":[{"t":"Xi 0","c":"FFFFFF"}]}', keep=True)
        link.publish_device(APP, b'{"text":[{"t":"Xi 10","c":"FFFFFF"}]}', keep=True)
        link.publish_device(NOTIFY, b'{"text":"Xi +10","color":"00FF00","duration":3}', keep=False)
        link.start()
        assert link.wait_connected(10)
        got = devices.wait_for(lambda s: any(x.topic == APP for x in s))
        assert [x.payload for x in got if x.topic == APP] == [
            b'{"text":[{"t":"Xi 10","c":"FFFFFF"}]}'
        ]
        assert not [x for x in got if x.topic == NOTIFY]  # a moment past is not told late
        link.publish_device(NOTIFY, b'{"text":"Bo +5","color":"00FF00","duration":3}', keep=False)
        got = devices.wait_for(lambda s: any(x.topic == NOTIFY for x in s))
        assert all(not x.retain for x in got)
        # the broker restarts: the kept app goes again once the link is back
        devices.subscribed.clear()
        broker.restart()
        assert devices.subscribed.wait(30)
        link.publish_device(APP, b"", keep=True)  # the app deleted while the link may be away
        devices.wait_for(lambda s: [x.payload for x in s if x.topic == APP][-1:] == [b""], 30)
    finally:
        link.stop()
        devices.close()
        journal.close()
