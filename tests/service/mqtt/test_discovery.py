"""Home Assistant discovery: retained configs, availability, and republish when HA restarts."""

from __future__ import annotations

from pathlib import Path

from tests.fixtures.mqtt_fake import FakeBroker
from tests.fixtures.mqtt_recorder import Recorder
from tests.service.mqtt.test_link import P, Table

SEATS = [f"homeassistant/sensor/t1_seat{n}/config" for n in range(4)]
ALERT = "homeassistant/sensor/t1_alert/config"


def test_discovery_configs_and_republish(tmp_path: Path, mqtt_fake: FakeBroker) -> None:
    table = Table(tmp_path, mqtt_fake, discovery=True)
    ha = Recorder(mqtt_fake.host, mqtt_fake.port, ["homeassistant/sensor/#"])
    try:
        assert ha.subscribed.wait(5)
        table.link.start()
        assert table.link.wait_connected(5)
        seen = ha.wait_for(lambda s: len(s) >= 5)
        assert sorted(s.topic for s in seen) == sorted([*SEATS, ALERT])
        assert all(s.retain is False for s in seen)  # live delivery; retained on the broker
        configs = {s.topic: s.json() for s in seen}
        for n, topic in enumerate(SEATS):
            config = configs[topic]
            assert config["availability_topic"] == f"{P}/status"
            assert config["state_topic"] == f"{P}/state"
            assert f"value_json.seats[{n}].score" in config["value_template"]
            assert config["unique_id"] == f"domino_table_t1_seat{n}"
            assert config["device"]["identifiers"] == ["domino-table-t1"]
        assert "value_json.alerts" in configs[ALERT]["value_template"]

        # Home Assistant restarted: it says so, and gets every config again.
        ha.client.publish("homeassistant/status", b"online", qos=1).wait_for_publish(5)
        seen = ha.wait_for(lambda s: len(s) >= 10)
        assert sorted(s.topic for s in seen[5:]) == sorted([*SEATS, ALERT])
        ha.client.publish("homeassistant/status", b"offline", qos=1).wait_for_publish(5)

        # A two-seat game: the sensors of seats 2 and 3 are removed (empty retained config).
        table.link.set_seats(2)
        seen = ha.wait_for(lambda s: sum(not x.payload for x in s) >= 2)
        assert sorted(s.topic for s in seen if not s.payload) == SEATS[2:]
    finally:
        table.close()
        ha.close()
    late = Recorder(mqtt_fake.host, mqtt_fake.port, ["homeassistant/sensor/#"])
    try:  # what Home Assistant finds when it starts later: the configs, retained
        seen = late.wait_for(lambda s: len(s) >= 3)
        assert sorted(s.topic for s in seen) == sorted([*SEATS[:2], ALERT])
        assert all(s.retain for s in seen)
    finally:
        late.close()


def test_no_discovery_when_off(tmp_path: Path, mqtt_fake: FakeBroker) -> None:
    table = Table(tmp_path, mqtt_fake)
    ha = Recorder(mqtt_fake.host, mqtt_fake.port, ["homeassistant/#", f"{P}/status"])
    try:
        assert ha.subscribed.wait(5)
        table.link.start()
        assert table.link.wait_connected(5)
        seen = ha.wait_for(lambda s: any(x.payload == b"online" for x in s))
        assert not [s for s in seen if s.topic.startswith("homeassistant/")]
    finally:
        table.close()
        ha.close()
