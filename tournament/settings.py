"""The desk's settings, validated once at start-up."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from mqttweb.client import MqttTls, port_problem
from tournament.errors import SettingsError


@dataclass(frozen=True)
class DeskSettings:
    """Where the central broker is, where to serve the board and keep the desk's state,
    and the event it runs (with the director's password for its page).

    `publish_interval_s` is the least time between two standings publications: a burst
    of messages (a whole table catching up after its link returned) is one update.
    """

    state_dir: Path
    mqtt_host: str = "localhost"
    mqtt_port: int = 1883
    mqtt_username: str | None = None
    mqtt_password: str | None = field(default=None, repr=False)
    http_host: str = "0.0.0.0"
    http_port: int = 8090
    publish_interval_s: float = 0.25
    sync_timeout_s: float = 5.0
    heartbeat_s: float = 5.0
    mqtt_tls: MqttTls | None = None  # None: plain MQTT
    event_file: Path | None = None  # None: standings only, no event
    director_password: str | None = field(default=None, repr=False)
    resend_s: float = 3.0  # a table's new_game is sent again until it answers

    def __post_init__(self) -> None:
        problem = port_problem(self.mqtt_port, self.http_port)
        if problem is not None:
            raise SettingsError(problem)
        if self.publish_interval_s < 0:
            raise SettingsError("the publish interval cannot be negative")
        if self.resend_s <= 0:
            raise SettingsError("the resend interval must be positive seconds")
        if self.sync_timeout_s <= 0 or self.heartbeat_s <= 0:
            raise SettingsError("sync timeout and heartbeat must be positive seconds")
        if self.mqtt_password is not None and self.mqtt_username is None:
            raise SettingsError("an MQTT password needs an MQTT username (--mqtt-username)")
