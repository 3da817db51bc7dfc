"""The open pages of one stream: a one-slot queue each, holding the latest text, so a slow
page skips updates and never falls behind (the table view's and the Camera page's)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class Pages:
    """Queues of the pages open on one stream; `text()` makes what a page is sent."""

    def __init__(self, text: Callable[[], str]) -> None:
        self.text = text
        self.queues: set[asyncio.Queue[str | None]] = set()

    def add(self) -> asyncio.Queue[str | None]:
        """A new page: its queue, holding the latest text already."""
        queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=1)
        queue.put_nowait(self.text())
        self.queues.add(queue)
        return queue

    def remove(self, queue: asyncio.Queue[str | None]) -> None:
        self.queues.discard(queue)

    def push(self) -> None:
        if not self.queues:
            return
        text = self.text()
        for queue in self.queues:
            replace_latest(queue, text)

    def close(self) -> None:
        """End every page's stream."""
        for queue in self.queues:
            replace_latest(queue, None)


def replace_latest(queue: asyncio.Queue[str | None], item: str | None) -> None:
    """Put `item` in a one-slot queue, dropping what the page has not read yet."""
    if queue.full():
        queue.get_nowait()
    queue.put_nowait(item)
