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
import os
from collections.abc import Callable
from functools import partial
from pathlib import Path

from aiohttp import web

from mqttweb.sse import Pages, closing
from mqttweb.web import serve_until_cancelled, static_page, while_serving
from tournament import event, pages
from tournament.desk import Desk, DeskLink
from tournament.errors import ListenError, TournamentError
from tournament.settings import DeskSettings

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
DESK = web.AppKey("desk", Desk)
LINK = web.AppKey("link", DeskLink)
PAGES = web.AppKey("pages", Pages)


def board_json(desk: Desk) -> str:
    view = {"connected": desk.connected, "synced": desk.synced, "standings": desk.standings}
    return json.dumps(view, separators=(",", ":"))


async def standings(request: web.Request) -> web.Response:
    payload = request.app[DESK].standings
    if payload is None:
        return web.json_response({"error": "no standings published yet"}, status=404)
    return web.json_response(payload)


async def stats(request: web.Request) -> web.Response:
    return web.json_response(request.app[DESK].stats())


async def events(request: web.Request) -> web.StreamResponse:
    heartbeat = request.app[DESK].settings.heartbeat_s
    return await request.app[PAGES].serve(request, event="board", heartbeat=heartbeat)


def make_app(settings: DeskSettings) -> web.Application:
    """The aiohttp app; its start-up connects the desk to MQTT, its clean-up disconnects."""
    app = web.Application()
    link = DeskLink(settings)
    desk = Desk(settings, link.publish)
    pages = Pages(partial(board_json, desk))
    app[DESK], app[LINK], app[PAGES] = desk, link, pages
    desk.watchers.append(pages.push)
    app.router.add_get("/", static_page(STATIC / "index.html"))
    app.router.add_get("/events", events)
    app.router.add_get("/api/standings", standings)
    app.router.add_get("/api/stats", stats)
    app.router.add_static("/static/", STATIC)
    app.cleanup_ctx.append(while_serving(partial(link.start, desk=desk), link.stop, desk.stop))
    app.on_shutdown.append(closing(pages))
    return app


def app_for(settings: DeskSettings) -> web.Application:
    """The standings-only desk, or with an event file the desk running the event."""
    if settings.event_file is None:
        return make_app(settings)
    return pages.make_event_app(settings, event.load(settings.event_file))


async def serve(
    settings: DeskSettings,
    ready: asyncio.Event | None = None,
    listening: Callable[[int], None] | None = None,
) -> None:
    """Run the desk and its pages until cancelled. The log, and `listening(port)` if
    given, say where the pages are, with the port the system chose when `http_port` is 0;
    a port that cannot be had is a `ListenError` (the desk's MQTT link is closed again
    first)."""
    host, bound = settings.http_host, False

    def started(port: int) -> None:
        nonlocal bound
        bound = True
        if listening is not None:
            listening(port)
        log.info("http: standings on http://%s:%d/", host, port)

    try:
        await serve_until_cancelled(
            app_for(settings), host, settings.http_port, started=started, ready=ready
        )
    except OSError as exc:
        if bound or isinstance(exc, TournamentError):
            raise
        why = os.strerror(exc.errno) if exc.errno else str(exc)
        raise ListenError(
            f"the pages cannot listen on {host}:{settings.http_port} ({why}): give "
            "another --http-port (0: any free one, said in the log) or --http-host"
        ) from exc
