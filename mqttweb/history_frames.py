"""The pictures that came on `<prefix>/history/frame`, kept for whoever asked for them:
the display's History page and the desk's game page.

The table publishes a frame once, on the `frame` command that asked for it; each names
its game and seq inside (`mqttweb.frame_mark`). `HistoryFrames` keeps the latest ones
(at most `FRAMES_KEPT_BYTES`) by (game, seq), and hands each to whoever waits for it.
Runs on the loop.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict

from mqttweb.frame_mark import read_mark

__all__ = ["FRAMES_KEPT_BYTES", "HistoryFrames", "Key"]

log = logging.getLogger(__name__)

FRAMES_KEPT_BYTES = 24_000_000

Key = tuple[str, int]


class HistoryFrames:
    """The pictures that came on `history/frame`, by (game, seq). The loop's only."""

    def __init__(self, kept_bytes: int = FRAMES_KEPT_BYTES) -> None:
        self.kept_bytes = kept_bytes
        self._images: OrderedDict[Key, bytes] = OrderedDict()
        self._waiting: dict[Key, list[asyncio.Future[bytes]]] = {}

    def on_message(self, payload: bytes) -> None:
        mark = read_mark(payload)
        if mark is None or not isinstance(mark.get("game_id"), str):
            log.warning("mqtt: history/frame names no event (%d bytes): ignored", len(payload))
            return
        seq = mark.get("seq")
        if type(seq) is not int:
            return
        key = (mark["game_id"], seq)
        self._images[key] = payload
        self._images.move_to_end(key)
        while (
            sum(len(v) for v in self._images.values()) > self.kept_bytes and len(self._images) > 1
        ):
            self._images.popitem(last=False)
        for future in self._waiting.pop(key, []):
            if not future.done():
                future.set_result(payload)

    def get(self, key: Key) -> bytes | None:
        image = self._images.get(key)
        if image is not None:
            self._images.move_to_end(key)
        return image

    def expect(self, key: Key) -> asyncio.Future[bytes]:
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(key, []).append(future)
        return future

    def forget(self, key: Key, future: asyncio.Future[bytes]) -> None:
        waiting = self._waiting.get(key, [])
        if future in waiting:
            waiting.remove(future)
        if not waiting:
            self._waiting.pop(key, None)
