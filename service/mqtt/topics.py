"""The topics of one table, from its prefix (`domino/<table id>` by default)."""

from __future__ import annotations

from dataclasses import dataclass

HA_STATUS = "homeassistant/status"


class TopicError(ValueError):
    """A name that cannot be one level of a topic (it holds '/', '+', '#' or nothing)."""


def topic_level(name: str) -> str:
    """`name` when it can be one topic level, else `TopicError`."""
    if not name or any(char in name for char in "/+#\0"):
        raise TopicError(f"{name!r} cannot be a topic level: avoid '/', '+', '#' and ''")
    return name


@dataclass(frozen=True)
class Topics:
    prefix: str

    @property
    def status(self) -> str:
        return f"{self.prefix}/status"

    @property
    def state(self) -> str:
        return f"{self.prefix}/state"

    @property
    def cmd(self) -> str:
        return f"{self.prefix}/cmd"

    @property
    def cmd_reply(self) -> str:
        return f"{self.prefix}/cmd/reply"

    @property
    def camera_status(self) -> str:
        return f"{self.prefix}/camera/status"

    @property
    def camera_snapshot(self) -> str:
        return f"{self.prefix}/camera/snapshot"

    @property
    def history_frame(self) -> str:
        return f"{self.prefix}/history/frame"

    def event(self, kind: str) -> str:
        return f"{self.prefix}/event/{topic_level(kind)}"

    def result(self, game_id: str) -> str:
        return f"{self.prefix}/result/{topic_level(game_id)}"
