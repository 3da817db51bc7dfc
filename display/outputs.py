"""What a table's AWTRIX clock and WLED strip were sent, for the `/outputs` preview page.

The table drives lights of its own over the same broker (spec/mqtt.md, "Outputs for
devices that are not ours"): an AWTRIX 3 custom app on `<prefix>/custom/<app>` and
notifications on `<prefix>/notify`, a WLED strip's segments on `<topic>/api`. The
display listens to them like the devices do, and `OutputsFeed` keeps the latest app,
the latest strip and the last notifications, numbered so a page shows each once. The
page draws them as the matrix and the strip would: from the same payloads. Runs on
the loop.
"""

from __future__ import annotations

import json
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from display.payloads import Json
from display.view import iso
from mqttweb.sse import Pages

log = logging.getLogger(__name__)

KEPT_NOTES = 8


def device_topics(awtrix: str | None, app: str, wled: str | None) -> dict[str, str]:
    """Topic -> what it carries ("app", "note", "strip"), for the devices configured."""
    topics: dict[str, str] = {}
    if awtrix is not None:
        topics |= {f"{awtrix}/custom/{app}": "app", f"{awtrix}/notify": "note"}
    if wled is not None:
        topics[f"{wled}/api"] = "strip"
    return topics


class OutputsFeed:
    """The clock's and the strip's latest messages; `pages` are the open preview pages."""

    def __init__(
        self,
        awtrix: str | None,
        app: str,
        wled: str | None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.awtrix, self.app_name, self.wled = awtrix, app, wled
        self.topics = device_topics(awtrix, app, wled)
        self.clock = clock
        self.app: Json | None = None  # None: no app (never sent, or deleted)
        self.app_received: float | None = None
        self.strip: Json | None = None
        self.strip_received: float | None = None
        self.notes: deque[Json] = deque(maxlen=KEPT_NOTES)
        self.noted = 0
        self.pages = Pages(self.snapshot_json)

    def on_message(self, topic: str, payload: bytes) -> bool:
        """True when `topic` is one of the devices' (whatever its payload)."""
        kind = self.topics.get(topic)
        if kind is None:
            return False
        body = _json_object(topic, payload)
        if kind == "app":
            if not payload or body is not None:  # an empty payload deletes the app
                self.app, self.app_received = body, self.clock()
                self.pages.push()
        elif body is not None and kind == "note":
            self.noted += 1
            self.notes.append({"n": self.noted, "received": iso(self.clock()), "note": body})
            self.pages.push()
        elif body is not None:
            self.strip, self.strip_received = body, self.clock()
            self.pages.push()
        return True

    def snapshot(self) -> Json:
        return {
            "awtrix": {"prefix": self.awtrix, "app": self.app_name} if self.awtrix else None,
            "wled": {"topic": self.wled} if self.wled else None,
            "app": self.app,
            "app_received": iso(self.app_received),
            "strip": self.strip,
            "strip_received": iso(self.strip_received),
            "notes": list(self.notes),
        }

    def snapshot_json(self) -> str:
        return json.dumps(self.snapshot(), separators=(",", ":"))


def _json_object(topic: str, payload: bytes) -> dict[str, Any] | None:
    if not payload:
        return None
    try:
        body = json.loads(payload)
    except ValueError:
        log.warning("mqtt: %s is not JSON: ignored", topic)
        return None
    if not isinstance(body, dict):
        log.warning("mqtt: %s is not a JSON object: ignored", topic)
        return None
    return body
