"""The history's frames on MQTT: a subscriber of the table's bus.

`HistoryPublisher` publishes each `HistoryFrame` (a `frame` command's picture) once on
`<prefix>/history/frame`: not retained, QoS 1, the image's raw bytes (spec/mqtt.md,
"History"); the reply to the command follows it.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.core.bus import Bus
from service.history.events import HistoryFrame
from service.mqtt.link import MqttLink

__all__ = ["FRAME_QOS", "HistoryPublisher"]

FRAME_QOS = 1


@dataclass
class HistoryPublisher:
    link: MqttLink

    def subscribe(self, bus: Bus) -> None:
        bus.subscribe(HistoryFrame, self.frame)

    def frame(self, frame: HistoryFrame) -> None:
        self.link.publish_once(self.link.topics.history_frame, frame.image, FRAME_QOS)
