"""The standings page (aiohttp), live over Server-Sent Events; with an event file, the
event's pages instead (`tournament.pages`).

- `GET /`: the page; `GET /static/...`: its script and style.
- `GET /events`: Server-Sent Events. `board` events carry `{"connected", "synced",
  "standings"}` (`standings`: the last published payload, or null before the first),
  the first one at once on connect; a `ping` event every `heartbeat_s`.
- `GET /api/standings`: the last published standings payload (404 before the first).
- `GET /api/stats`: messages taken in, publications, the lag behind the tables.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path

from aiohttp import web

from mqttweb.sse import stream
from tournament import event, pages
from tournament.desk import Desk, DeskLink
from tournament.settings import DeskSettings

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
DESK = web.AppKey("desk", Desk)
LINK = web.AppKey("link", DeskLink)
PAGES = web.AppKey("pages", set[asyncio.Queue[str | None]])


def board_json(desk: Desk) -> str:
    view = {"connected": desk.connected, "synced": desk.synced, "standings": desk.standings}
    return json.dumps(view, separators=(",", ":"))


async def index(request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def standings(request: web.Request) -> web.Response:
    payload = request.app[DESK].standings
    if payload is None:
        return web.json_response({"error": "no standings published yet"}, status=404)
    return web.json_response(payload)


async def stats(request: web.Request) -> web.Response:
    return web.json_response(request.app[DESK].stats())


async def events(request: web.Request) -> web.StreamResponse:
    desk, pages = request.app[DESK], request.app[PAGES]
    queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=1)
    queue.put_nowait(board_json(desk))
    pages.add(queue)
    try:
        return await stream(request, queue, event="board", heartbeat=desk.settings.heartbeat_s)
    finally:
        pages.discard(queue)


def _replace(queue: asyncio.Queue[str | None], item: str | None) -> None:
    """Put `item` in a one-slot queue, dropping what the page has not read yet."""
    if queue.full():
        queue.get_nowait()
    queue.put_nowait(item)


def make_app(settings: DeskSettings) -> web.Application:
    """The aiohttp app; its start-up connects the desk to MQTT, its clean-up disconnects."""
    app = web.Application()
    link = DeskLink(settings)
    desk = Desk(settings, link.publish)
    pages: set[asyncio.Queue[str | None]] = set()
    app[DESK], app[LINK], app[PAGES] = desk, link, pages

    def push() -> None:
        if pages:
            text = board_json(desk)
            for queue in pages:
                _replace(queue, text)

    desk.watchers.append(push)
    app.router.add_get("/", index)
    app.router.add_get("/events", events)
    app.router.add_get("/api/standings", standings)
    app.router.add_get("/api/stats", stats)
    app.router.add_static("/static/", STATIC)
    app.cleanup_ctx.append(_mqtt)
    app.on_shutdown.append(_close_pages)
    return app


async def _mqtt(app: web.Application) -> AsyncIterator[None]:
    app[LINK].start(asyncio.get_running_loop(), app[DESK])
    yield
    app[LINK].stop()
    app[DESK].stop()


async def _close_pages(app: web.Application) -> None:
    for queue in app[PAGES]:
        _replace(queue, None)


def app_for(settings: DeskSettings) -> web.Application:
    """The standings-only desk, or with an event file the desk running the event."""
    if settings.event_file is None:
        return make_app(settings)
    return pages.make_event_app(settings, event.load(settings.event_file))


async def serve(settings: DeskSettings, ready: asyncio.Event | None = None) -> None:
    """Run the desk and its pages until cancelled."""
    runner = web.AppRunner(app_for(settings), shutdown_timeout=2.0)
    await runner.setup()
    site = web.TCPSite(runner, settings.http_host, settings.http_port)
    await site.start()
    log.info("http: standings on http://%s:%d/", settings.http_host, settings.http_port)
    if ready is not None:
        ready.set()
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
