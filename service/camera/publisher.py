"""The camera's status and snapshots on MQTT: a subscriber of the table's bus.

`CameraPublisher` publishes each `CameraReport` as `<prefix>/camera/status` (retained,
QoS 1, in the table's language, which it learns from the table's state) and each
`CameraPicture` as `<prefix>/camera/snapshot` (retained, QoS 0, the JPEG's bytes).
"""

from __future__ import annotations

from dataclasses import dataclass

from mqttweb.envelope import encode, stamp
from service.camera.events import CameraPicture, CameraReport
from service.camera.status import status_payload
from service.core.bus import Bus
from service.core.table_events import StateChanged
from service.mqtt.link import MqttLink

__all__ = ["CameraPublisher"]

STATUS_QOS = 1
SNAPSHOT_QOS = 0


@dataclass
class CameraPublisher:
    link: MqttLink
    table: str
    language: str = "en"

    def subscribe(self, bus: Bus) -> None:
        bus.subscribe(CameraReport, self.report)
        bus.subscribe(CameraPicture, self.picture)
        bus.subscribe(StateChanged, self.state_changed)

    def report(self, report: CameraReport) -> None:
        payload = stamp(self.table, status_payload(report.facts, self.language))
        self.link.publish_retained(self.link.topics.camera_status, encode(payload), STATUS_QOS)

    def picture(self, picture: CameraPicture) -> None:
        self.link.publish_retained(self.link.topics.camera_snapshot, picture.jpeg, SNAPSHOT_QOS)

    def state_changed(self, changed: StateChanged) -> None:
        self.language = str(changed.payload.get("language") or self.language)
