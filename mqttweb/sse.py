"""Server-Sent Events: one stream per page, fed from a queue (shared by the table display
and the tournament desk's standings page)."""

from __future__ import annotations

import asyncio
import logging

from aiohttp import web

log = logging.getLogger(__name__)


async def stream(
    request: web.Request,
    queue: asyncio.Queue[str | None],
    *,
    event: str,
    heartbeat: float,
    opening: bytes = b"retry: 1000\n\n",
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
