"""The MQTT link as a subscriber of the table's bus: the events as the journal stored
them, the retained state and result, a confirmed result again, and command replies."""

from __future__ import annotations

from mqttweb.envelope import stamp
from service.core.bus import Bus
from service.core.table_events import (
    Answered,
    GameOver,
    Recorded,
    ResultConfirmed,
    StateChanged,
)
from service.mqtt.link import MqttLink


class MqttPublisher:
    """Publishes what the table core tells through one table's `MqttLink`."""

    def __init__(self, link: MqttLink, table: str, seats: int) -> None:
        self.link = link
        self.table = table
        self.seats = seats

    def subscribe(self, bus: Bus) -> None:
        bus.subscribe(Recorded, self.recorded)
        bus.subscribe(StateChanged, self.state_changed)
        bus.subscribe(GameOver, self.game_over)
        bus.subscribe(ResultConfirmed, lambda c: self.link.publish_result(c.game_id, c.result))
        bus.subscribe(Answered, self.answered)

    def recorded(self, recorded: Recorded) -> None:
        for event in recorded.events:
            self.link.publish_event(event.seq, event.kind, event.payload, stored=recorded.stored)

    def state_changed(self, changed: StateChanged) -> None:
        if changed.seats != self.seats:
            self.seats = changed.seats
            self.link.set_seats(changed.seats)  # Home Assistant: one score sensor per seat
        self.link.publish_state(stamp(self.table, changed.payload))

    def game_over(self, over: GameOver) -> None:
        self.link.publish_result(over.game_id, over.result.payload)

    def answered(self, answer: Answered) -> None:
        self.link.reply(answer.command_id, answer.error is None, answer.error, answer.detail)
