"""A WLED strip round the table's edge, one segment per seat (spec/mqtt.md).

`<topic>/api` gets WLED's JSON API, `{"on": true, "seg": [...]}`, one segment per seat
(`{"id", "start", "stop", "on", "col": [[r, g, b]]}`), whenever what it shows changes:

- while a hand is played, the seat whose turn it is lit white (its team's colour in a
  partnership game), the others off;
- while an illegal alert stands, every segment red, until it is resolved;
- at game over, the winner's segment (or the winning team's) green;
- otherwise (between hands, and when the table stops cleanly) every segment off.
"""

from __future__ import annotations

from typing import Any

from config.outputs import Segment, WledSettings
from service.outputs.base import DeviceLink, Output, encode
from service.outputs.scoreboard import Scoreboard

Rgb = tuple[int, int, int]
WHITE: Rgb = (255, 255, 255)
RED: Rgb = (255, 0, 0)
GREEN: Rgb = (0, 255, 0)
OFF: Rgb = (0, 0, 0)
TEAM_COLOURS: tuple[Rgb, ...] = (
    (0, 90, 255),  # blue
    (255, 110, 0),  # orange
    (190, 0, 255),  # violet
    (0, 220, 220),  # cyan
    (255, 220, 0),  # yellow
)
"""Teams' colours: never the red of an alert nor the green of a win."""


def lit(board: Scoreboard | None, seats: int) -> list[Rgb | None]:
    """Each seat's segment: its colour, or None for off."""
    if board is None:
        return [None] * seats
    if board.illegal:
        return [RED] * seats
    if board.phase == "over":
        return [GREEN if seat in board.winners else None for seat in range(seats)]
    out: list[Rgb | None] = [None] * seats
    if board.turn is not None and 0 <= board.turn < seats:
        team = board.team_of(board.turn)
        out[board.turn] = WHITE if team is None else TEAM_COLOURS[team % len(TEAM_COLOURS)]
    return out


def strip(colours: list[Rgb | None], segments: tuple[Segment, ...]) -> dict[str, Any]:
    """WLED's JSON API payload: one segment per seat, on in its colour or off."""
    return {
        "on": True,
        "seg": [
            {
                "id": seat,
                "start": start,
                "stop": stop,
                "on": colour is not None,
                "col": [list(colour or OFF)],
            }
            for seat, ((start, stop), colour) in enumerate(zip(segments, colours, strict=True))
        ],
    }


class WledOutput(Output):
    """The strip at `settings.topic`, fed from the table's bus through `link`."""

    def __init__(self, settings: WledSettings, link: DeviceLink) -> None:
        super().__init__()
        self.link = link
        self.topic = f"{settings.topic}/api"
        self.segments = settings.seats
        self._shown: bytes | None = None

    def on_board(self, board: Scoreboard) -> None:
        self._show(lit(board, len(self.segments)))

    def close(self) -> None:
        """The table stops cleanly: every segment off."""
        self._show([None] * len(self.segments))

    def _show(self, colours: list[Rgb | None]) -> None:
        shown = encode(strip(colours, self.segments))
        if shown != self._shown:
            self._shown = shown
            self.link.publish_device(self.topic, shown, keep=True)
