"""Home Assistant discovery: one retained config per seat's score, one for the alert,
and on a table with a camera an MQTT camera showing `camera/snapshot`.

The sensors read `<prefix>/state` with value templates; every entity is available while
`<prefix>/status` says `online`, so the table shows up in Home Assistant with no YAML.
On a table without a camera, the camera's config is published empty (which removes an
entity left from when it had one).
"""

from __future__ import annotations

from typing import Any

from service.mqtt.topics import Topics

DISCOVERY_PREFIX = "homeassistant"


def seat_config_topic(table_id: str, seat: int) -> str:
    return f"{DISCOVERY_PREFIX}/sensor/{table_id}_seat{seat}/config"


def alert_config_topic(table_id: str) -> str:
    return f"{DISCOVERY_PREFIX}/sensor/{table_id}_alert/config"


def camera_config_topic(table_id: str) -> str:
    return f"{DISCOVERY_PREFIX}/camera/{table_id}_camera/config"


def _device(table_id: str, topics: Topics) -> dict[str, Any]:
    return {
        "availability_topic": topics.status,
        "payload_available": "online",
        "payload_not_available": "offline",
        "device": {
            "identifiers": [f"domino-table-{table_id}"],
            "name": f"Domino table {table_id}",
            "manufacturer": "domino-table",
            "model": "Smart domino table",
        },
    }


def _common(table_id: str, topics: Topics) -> dict[str, Any]:
    return {"state_topic": topics.state} | _device(table_id, topics)


def seat_config(table_id: str, topics: Topics, seat: int) -> dict[str, Any]:
    """The config of seat `seat`'s score sensor (seats count from 0, as in the spec)."""
    has_seat = f"value_json.seats | length > {seat}"
    return _common(table_id, topics) | {
        "name": f"Seat {seat + 1} score",
        "unique_id": f"domino_table_{table_id}_seat{seat}",
        "object_id": f"{table_id}_seat{seat}",
        "icon": "mdi:counter",
        "state_class": "measurement",
        "value_template": f"{{{{ value_json.seats[{seat}].score if {has_seat} else none }}}}",
        "json_attributes_topic": topics.state,
        "json_attributes_template": (
            f"{{{{ {{'name': value_json.seats[{seat}].name, 'game_id': value_json.game_id}}"
            f" | tojson if {has_seat} else '{{}}' }}}}"
        ),
    }


def alert_config(table_id: str, topics: Topics) -> dict[str, Any]:
    """The config of the sensor showing the latest standing alert's message."""
    return _common(table_id, topics) | {
        "name": "Alert",
        "unique_id": f"domino_table_{table_id}_alert",
        "object_id": f"{table_id}_alert",
        "icon": "mdi:alert",
        "value_template": ("{{ value_json.alerts[-1].message if value_json.alerts else 'none' }}"),
    }


def camera_config(table_id: str, topics: Topics) -> dict[str, Any]:
    """The config of the camera entity: the latest snapshot (raw JPEG bytes)."""
    return _device(table_id, topics) | {
        "name": "Camera",
        "unique_id": f"domino_table_{table_id}_camera",
        "object_id": f"{table_id}_camera",
        "topic": topics.camera_snapshot,
        "icon": "mdi:cctv",
    }


def discovery_messages(
    table_id: str, topics: Topics, seats: int, camera: bool = False
) -> list[tuple[str, dict[str, Any]]]:
    """Every config to publish (retained) for a table with `seats` seats; an empty config
    removes an entity (the camera's, on a table without one)."""
    out = [(seat_config_topic(table_id, n), seat_config(table_id, topics, n)) for n in range(seats)]
    out.append((alert_config_topic(table_id), alert_config(table_id, topics)))
    out.append((camera_config_topic(table_id), camera_config(table_id, topics) if camera else {}))
    return out
