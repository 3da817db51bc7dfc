"""The camera's side of the display: its status and snapshot, for the Camera page.

`CameraFeed` keeps the latest `camera/status` (JSON) and `camera/snapshot` (JPEG) the
table published and pushes a small JSON to every open Camera page (a one-slot queue per
page, as the table view's): the status, when it came, and the snapshot's number, so a
page loads `/camera/snapshot.jpg?n=<n>` only when there is a new one. Runs on the loop.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable

from display.payloads import Json, parse_json
from display.view import iso
from mqttweb.sse import Pages

log = logging.getLogger(__name__)


class CameraFeed:
    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.status: Json | None = None
        self.status_received: float | None = None
        self.jpeg: bytes | None = None
        self.picture = 0  # how many snapshots came: the page's cache key
        self.picture_received: float | None = None
        self.pages = Pages(self.snapshot_json)

    def on_message(self, rest: str, payload: bytes) -> bool:
        """A message on `camera/...`; True when the status changed (the table's own view
        shows a summary of it)."""
        if rest == "camera/snapshot":
            self._snapshot(payload)
            return False
        if rest == "camera/status":
            return self._status(payload)
        return False

    def _snapshot(self, payload: bytes) -> None:
        if not payload.startswith(b"\xff\xd8"):
            log.warning("mqtt: camera/snapshot is not a JPEG (%d bytes): ignored", len(payload))
            return
        self.jpeg = payload
        self.picture += 1
        self.picture_received = self.clock()
        self.pages.push()

    def _status(self, payload: bytes) -> bool:
        status = parse_json("camera/status", payload) if payload else None
        if status is None or not isinstance(status.get("state"), str):
            return False
        self.status = status
        self.status_received = self.clock()
        self.pages.push()
        return True

    def summary(self) -> Json | None:
        """What the table's page shows of the camera: its state and warnings' codes."""
        if self.status is None:
            return None
        warnings = self.status.get("warnings")
        codes = (
            [w.get("code") for w in warnings if isinstance(w, dict)]
            if isinstance(warnings, list)
            else []
        )
        return {"state": self.status["state"], "warnings": codes}

    def snapshot(self) -> Json:
        """The JSON a Camera page gets."""
        picture = None
        if self.jpeg is not None:
            picture = {
                "n": self.picture,
                "received": iso(self.picture_received),
                "bytes": len(self.jpeg),
            }
        return {
            "status": self.status,
            "status_received": iso(self.status_received),
            "picture": picture,
        }

    def snapshot_json(self) -> str:
        return json.dumps(self.snapshot(), separators=(",", ":"))
