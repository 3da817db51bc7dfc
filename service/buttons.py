"""The board's edge buttons (`BTN,<id>,<DOWN|UP|HOLD>`) as the same commands MQTT carries.

| button | press | command |
|---|---|---|
| 0-9 | DOWN | `pass` for that seat; while the table asks who led (`LEAD_UNKNOWN`), `lead` |
| 12 | DOWN | `draw` for the turn seat |
| 13 | DOWN | `confirm` the counts the table made |
| 14 | DOWN | `next_hand` |
| 15 | HOLD | `undo` (held, so it is never pressed by accident) |

Other buttons and actions do nothing.
"""

from __future__ import annotations

import itertools
from typing import Any

from firmware_bridge.adapter import ButtonEvent
from firmware_bridge.messages import ButtonAction
from service.table_events import StateChanged

SEAT_BUTTONS = range(10)
_SIMPLE = {
    (12, ButtonAction.DOWN): "draw",
    (13, ButtonAction.DOWN): "confirm",
    (14, ButtonAction.DOWN): "next_hand",
    (15, ButtonAction.HOLD): "undo",
}
_ids = itertools.count(1)


def command_for(event: ButtonEvent, table: StateChanged | None) -> dict[str, Any] | None:
    """The command a board button means now (given the table's latest state), or None."""
    cmd_id = f"board-{event.at:.3f}-{next(_ids)}"
    action = _SIMPLE.get((event.button, event.action))
    if action is not None:
        return {"id": cmd_id, "action": action}
    if event.button not in SEAT_BUTTONS or event.action is not ButtonAction.DOWN:
        return None
    if table is None or event.button >= table.seats:
        return None
    action = "lead" if table.lead_wanted else "pass"
    return {"id": cmd_id, "action": action, "seat": event.button}
