"""The aiohttp plumbing the display and the tournament desk share: a page from their
`static/` folder, their MQTT link's lifetime beside the app's, and the server that runs
until cancelled."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

from aiohttp import web

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
CleanupContext = Callable[[web.Application], AsyncIterator[None]]


def static_page(path: Path) -> Handler:
    """A handler answering with the file at `path`, never cached (a new version shows at once)."""

    async def page(request: web.Request) -> web.StreamResponse:
        return web.FileResponse(path, headers={"Cache-Control": "no-cache"})

    return page


def while_serving(
    start: Callable[[asyncio.AbstractEventLoop], None], *stops: Callable[[], None]
) -> CleanupContext:
    """For `app.cleanup_ctx`: `start(loop)` as the app starts (the MQTT link connects),
    each of `stops` in turn as it is cleaned up."""

    async def context(app: web.Application) -> AsyncIterator[None]:
        start(asyncio.get_running_loop())
        yield
        for stop in stops:
            stop()

    return context


async def serve_until_cancelled(
    app: web.Application,
    host: str,
    port: int,
    *,
    ssl_context: ssl.SSLContext | None = None,
    started: Callable[[int], None] = lambda port: None,
    ready: asyncio.Event | None = None,
) -> None:
    """Serve `app` on `host:port` until cancelled; once it listens, `started(port)` with
    the port it listens on (the one the system chose for port 0), which logs where, and
    then `ready` is set. The app is cleaned up on the way out, also when the port cannot
    be had (the OSError of the bind is raised then)."""
    runner = web.AppRunner(app, shutdown_timeout=2.0)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port, ssl_context=ssl_context)
        await site.start()
        started(int(runner.addresses[0][1]))
        if ready is not None:
            ready.set()
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
