"""An AWTRIX 3 LED matrix (a Ulanzi TC001 clock) as the scoreboard (spec/mqtt.md).

- `<prefix>/custom/<app>` after every change of scores or turn: a custom app whose `text`
  is coloured fragments, every seat's (or team's) short name and score in seat order,
  the turn seat in a colour of its own; at game over the winner first and in green.
  `hold` and `lifetime` are the clock's. An empty payload deletes the app when the table
  stops cleanly.
- `<prefix>/notify` for each illegal or fault alert (red, 5 s, the message cut to 60
  characters) and for each play that scores (green, 3 s, "Ana +15").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from config.outputs import AwtrixSettings
from service.outputs.base import DeviceLink, Output, encode
from service.outputs.scoreboard import Entry, Scoreboard
from service.outputs.words import joined, say

NAME = "FFFFFF"
SCORE = "00C8FF"
TURN = "FFD200"  # the seat (or team) whose turn it is: name and score
WON = "00FF00"
ILLEGAL = "FF0000"
SCORED = "00FF00"
NOTIFY_CHARS = 60
NOTIFY_ALERTS = frozenset({"illegal", "fault"})


def custom_app(board: Scoreboard) -> dict[str, Any]:
    """The custom app's payload: `{"text": [{"t": ..., "c": "RRGGBB"}, ...]}`."""
    entries = board.entries()
    fragments: list[dict[str, str]] = []
    if board.phase == "over" and board.winners:
        names = joined(board.language, [board.name(s) for s in board.winners])
        key = "wins_team" if len(board.winners) > 1 else "wins"
        fragments.append({"t": say(board.language, key, name=names) + ":", "c": WON})
    for entry in entries:
        fragments += _fragments(entry, board.phase == "over", first=not fragments)
    return {"text": fragments}


def _fragments(entry: Entry, over: bool, *, first: bool) -> list[dict[str, str]]:
    name, score = (
        (WON, WON) if over and entry.won else (TURN, TURN) if entry.turn else (NAME, SCORE)
    )
    return [
        {"t": ("" if first else " ") + entry.short + " ", "c": name},
        {"t": str(entry.score), "c": score},
    ]


def notification(
    kind: str, event: Mapping[str, Any], board: Scoreboard | None
) -> dict[str, Any] | None:
    """The notification one event makes, or None: a red one for a raised illegal or fault
    alert, a green one for a play that scored."""
    if kind == "alert" and event["severity"] in NOTIFY_ALERTS and not event["resolved"]:
        return {"text": cut(str(event["message"]), NOTIFY_CHARS), "color": ILLEGAL, "duration": 5}
    if kind == "play" and event["points"] > 0:
        name = board.name(event.get("seat")) if board is not None else ""
        text = f"{name} +{event['points']}" if name else f"+{event['points']}"
        return {"text": text, "color": SCORED, "duration": 3}
    return None


def cut(text: str, limit: int) -> str:
    """`text` in at most `limit` characters: whole words and "..." when it was longer."""
    if len(text) <= limit:
        return text
    head = text[: limit - 3]
    if " " in head:
        head = head[: head.rindex(" ")]
    return head.rstrip(" ,.;:") + "..."


class AwtrixOutput(Output):
    """The clock at `settings.prefix`, fed from the table's bus through `link`."""

    def __init__(self, settings: AwtrixSettings, link: DeviceLink) -> None:
        super().__init__()
        self.link = link
        self.app_topic = f"{settings.prefix}/custom/{settings.app}"
        self.notify_topic = f"{settings.prefix}/notify"
        self._shown: bytes | None = None

    def on_board(self, board: Scoreboard) -> None:
        shown = encode(custom_app(board))
        if shown != self._shown:  # only what changed: scores, the turn, the winner
            self._shown = shown
            self.link.publish_device(self.app_topic, shown, keep=True)

    def on_event(self, kind: str, event: Mapping[str, Any]) -> None:
        note = notification(kind, event, self.board)
        if note is not None:
            self.link.publish_device(self.notify_topic, encode(note), keep=False)

    def close(self) -> None:
        """The table stops cleanly: the app is deleted (an empty payload)."""
        self._shown = None
        self.link.publish_device(self.app_topic, b"", keep=True)
