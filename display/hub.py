"""The loop side of the display: MQTT messages in, page updates and replies out.

Runs entirely on the asyncio loop (`MqttLink` hands every paho callback in with
`call_soon_threadsafe`). Each open page has a one-slot queue holding the latest view:
a slow page skips views, it never falls behind.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from typing import Any

from display.camera import CameraFeed
from display.outputs import OutputsFeed
from display.payloads import Json, parse_json
from display.settings import DisplayServerSettings
from display.view import TableView
from mqttweb.history_frames import HistoryFrames
from mqttweb.sse import Pages

log = logging.getLogger(__name__)


class Hub:
    """Folds MQTT into a `TableView`, fans the view out, matches command replies."""

    def __init__(
        self, settings: DisplayServerSettings, clock: Callable[[], float] = time.time
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.view = TableView(settings.table, settings.language)
        self.camera = CameraFeed(clock)  # the Camera page's (its own pages and stream)
        self.outputs = OutputsFeed(settings.awtrix, settings.awtrix_app, settings.wled, clock)
        self.history = HistoryFrames()  # the History page's frames (`history/frame`)
        self.pages = Pages(self.snapshot_json)  # the table view's open pages
        self.replies: dict[str, asyncio.Future[Json]] = {}
        self.reread_state: Callable[[], None] = lambda: None
        self._routes: dict[str, Callable[[str, bytes], None]] = {
            "state": self._state,
            "status": self._status,
            "event": self._event,
            "result": self._result,
            "cmd": self._reply,
        }

    # ---- MQTT in (Listener) ---------------------------------------------------------

    def on_connection(self, connected: bool) -> None:
        self.view.on_broker(connected, self.clock())
        self.push()

    def on_refused(self, reason: str) -> None:
        self.view.on_refused(reason, self.clock())
        self.push()

    def on_message(self, topic: str, payload: bytes) -> None:
        if self.outputs.on_message(topic, payload):  # the table's clock and strip: /outputs
            return
        prefix = self.settings.prefix + "/"
        if not topic.startswith(prefix):
            return
        rest = topic[len(prefix) :]
        if rest == "history/frame":
            self.history.on_message(payload)
            return
        if rest.startswith("camera/"):  # the Camera page's; the view keeps a summary
            if self.camera.on_message(rest, payload):
                self.view.camera = self.camera.summary()
                self.push()
            return
        route = self._routes.get(rest.split("/", 1)[0])
        if route is None:
            return
        try:
            route(rest, payload)
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            # network input: a payload of the wrong shape must not stop the display
            log.warning("mqtt: %s has an unexpected shape (%s): ignored", topic, exc)
            return
        self.push()

    def _state(self, rest: str, payload: bytes) -> None:
        if not payload:
            log.info("mqtt: retained state cleared")
            return
        state = parse_json(rest, payload)
        if state is not None:
            self.view.on_state(state, self.clock())

    def _status(self, rest: str, payload: bytes) -> None:
        self.view.on_status(payload.decode("utf-8", "replace"), self.clock())

    def _event(self, rest: str, payload: bytes) -> None:
        event = parse_json(rest, payload)
        kind = rest.removeprefix("event/")
        if event is not None and "/" not in kind and self.view.on_event(kind, event):
            self.reread_state()

    def _result(self, rest: str, payload: bytes) -> None:
        result = parse_json(rest, payload) if payload else None
        if result is not None:
            self.view.on_result(rest.removeprefix("result/"), result)

    def _reply(self, rest: str, payload: bytes) -> None:
        reply = parse_json(rest, payload) if rest == "cmd/reply" else None
        future = self.replies.get(str(reply.get("id"))) if reply else None
        if reply is not None and future is not None and not future.done():
            future.set_result(reply)

    # ---- pages out --------------------------------------------------------------------

    def snapshot_json(self) -> str:
        return json.dumps(self.view.snapshot(self.clock()), separators=(",", ":"))

    def push(self) -> None:
        self.pages.push()

    # ---- commands -------------------------------------------------------------------

    async def command(
        self,
        command: dict[str, Any],
        publish: Callable[[Json], bool],
        *,
        timeout: float | None = None,
    ) -> Json:
        """Publish `command` and wait for its reply (at most `timeout` s, default the
        settings' `reply_timeout_s`); a reply-shaped dict either way."""
        wait_s = timeout if timeout is not None else self.settings.reply_timeout_s
        command_id = str(command["id"])
        future = self.replies.get(command_id)
        if future is None:
            future = asyncio.get_running_loop().create_future()
            self.replies[command_id] = future
        try:
            if not publish(command):
                return _failure(command_id, "broker", "The display has lost the table's broker.")
            return await asyncio.wait_for(asyncio.shield(future), wait_s)
        except TimeoutError:
            log.warning(
                "cmd: no reply to %s (%s) in %.1f s",
                command_id,
                command["action"],
                wait_s,
            )
            return _failure(command_id, "timeout", "The table did not answer in time.")
        finally:
            self.replies.pop(command_id, None)


def _failure(command_id: str, why: str, sentence: str) -> Json:
    return {"id": command_id, "ok": False, "error": sentence, "display_error": why}
