"""The desk asking a table for its record of a game: the `history` and `frame` commands
(spec/mqtt.md, "History") on `domino/<table>/cmd`, over the central broker.

`TableAsks.ask(table, body)` publishes a command and waits for its reply on
`domino/<table>/cmd/reply` (matched by its id, which only the desk uses); a `frame`'s
picture comes on `domino/<table>/history/frame`, named inside (`mqttweb.frame_mark`),
and is kept per table (`mqttweb.history_frames`). They only read: nothing is journaled.
Runs on the loop.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections.abc import Callable
from typing import Any

from mqttweb.envelope import encode
from mqttweb.history_frames import HistoryFrames

__all__ = ["ASK_PREFIX", "FRAME_WAIT_S", "TableAsks"]

log = logging.getLogger(__name__)

ASK_PREFIX = "desk-history-"
ASK_TIMEOUT_S = 15.0  # a long game's events make a large reply
FRAME_WAIT_S = 5.0  # after the reply: the picture published just before it
Send = Callable[[str, bytes, bool], bool]
Reply = dict[str, Any]


class TableAsks:
    """Commands that ask a table, and their replies and pictures."""

    def __init__(self, send: Send) -> None:
        self.send = send
        self._waiting: dict[str, asyncio.Future[Reply]] = {}
        self._frames: dict[str, HistoryFrames] = {}

    def frames(self, table: str) -> HistoryFrames:
        return self._frames.setdefault(table, HistoryFrames(kept_bytes=8_000_000))

    async def ask(self, table: str, body: dict[str, Any], timeout: float = ASK_TIMEOUT_S) -> Reply:
        """Send `body` to `table` and wait for its reply; a reply-shaped dict either way."""
        command_id = f"{ASK_PREFIX}{uuid.uuid4().hex}"
        future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._waiting[command_id] = future
        try:
            if not self.send(f"domino/{table}/cmd", encode({"id": command_id, **body}), False):
                return {"ok": False, "error": "The desk has lost the broker.", "status": 503}
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            return {"ok": False, "error": f"Table {table} did not answer in time.", "status": 504}
        finally:
            self._waiting.pop(command_id, None)

    async def frame(self, table: str, game_id: str, seq: int) -> tuple[bytes | None, Reply]:
        """The picture of event `seq` of `game_id` at `table` (kept, or asked for), and
        the reply (its `error` when there is none)."""
        frames = self.frames(table)
        image = frames.get((game_id, seq))
        if image is not None:
            return image, {"ok": True}
        waiter = frames.expect((game_id, seq))
        try:
            reply = await self.ask(table, {"action": "frame", "game_id": game_id, "seq": seq})
            if not reply.get("ok"):
                return None, reply
            return await asyncio.wait_for(waiter, FRAME_WAIT_S), reply
        except TimeoutError:
            return None, {"ok": False, "error": "The table's frame did not come.", "status": 504}
        finally:
            frames.forget((game_id, seq), waiter)

    def on_reply(self, payload: bytes) -> bool:
        """A reply on a table's `cmd/reply`: True when it answers one of the desk's asks."""
        try:
            reply = json.loads(payload)
        except (UnicodeDecodeError, ValueError):
            return False
        command_id = reply.get("id") if isinstance(reply, dict) else None
        if not isinstance(command_id, str) or not command_id.startswith(ASK_PREFIX):
            return False
        future = self._waiting.get(command_id)
        if future is not None and not future.done():
            future.set_result(reply)
        return True

    def on_frame(self, table: str, payload: bytes) -> None:
        self.frames(table).on_message(payload)
