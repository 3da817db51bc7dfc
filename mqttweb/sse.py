"""Server-Sent Events: the open pages of one stream, a one-slot queue each, and the
stream that feeds a page from its queue (shared by the table display and the tournament
desk's pages).

A page's queue holds only the latest text, so a slow page skips updates and never falls
behind.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

log = logging.getLogger(__name__)

OPENING = b"retry: 1000\n\n"


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
        """Send every open page the latest text."""
        if not self.queues:
            return
        text = self.text()
        for queue in self.queues:
            replace_latest(queue, text)

    def close(self) -> None:
        """End every page's stream."""
        for queue in self.queues:
            replace_latest(queue, None)

    async def serve(
        self, request: web.Request, *, event: str, heartbeat: float, opening: bytes = OPENING
    ) -> web.StreamResponse:
        """One page's stream of `event`s, from opening until it leaves or `close()`."""
        queue = self.add()
        try:
            return await stream(request, queue, event=event, heartbeat=heartbeat, opening=opening)
        finally:
            self.remove(queue)


def replace_latest(queue: asyncio.Queue[str | None], item: str | None) -> None:
    """Put `item` in a one-slot queue, dropping what the page has not read yet."""
    if queue.full():
        queue.get_nowait()
    queue.put_nowait(item)


async def stream(
    request: web.Request,
    queue: asyncio.Queue[str | None],
    *,
    event: str,
    heartbeat: float,
    opening: bytes = OPENING,
) -> web.StreamResponse:
    """Send each text from `queue` as an `event` until None comes (or the page leaves).

    A `ping` goes out when nothing was sent for `heartbeat` seconds, so a page can tell a
    quiet stream from a lost one. The caller registers and unregisters the queue.
    """
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no",
        }
    )
    await response.prepare(request)
    try:
        await response.write(opening)
        while True:
            try:
                text = await asyncio.wait_for(queue.get(), heartbeat)
            except TimeoutError:
                await response.write(b"event: ping\ndata: {}\n\n")
                continue
            if text is None:
                break
            await response.write(f"event: {event}\ndata: {text}\n\n".encode())
    except ConnectionResetError:
        log.debug("http: a page closed its event stream")
    return response


def closing(*streams: Pages) -> Callable[[web.Application], Awaitable[None]]:
    """For `app.on_shutdown`: end the stream of every page open on `streams`."""

    async def close(app: web.Application) -> None:
        for pages in streams:
            pages.close()

    return close
