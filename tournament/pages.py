"""The desk's pages while it runs an event (aiohttp).

Public, for everyone in the hall:
- `GET /`: the standings page; `GET /screen`: the big screen, cycling standings, the
  round's seating and the clock; `GET /find`: a player finds their table and seat by name.
- `GET /events`: Server-Sent Events, `board` events with the public view (`connected`,
  `synced`, `event`, `round`, `standings`); `GET /api/view` the same view once,
  `GET /api/round` and `/api/standings` the payloads as published, `GET /api/stats`.

The director's, behind the password (a session cookie after `POST /director/login`):
- `GET /director`: the page (the login form without a session);
- `GET /director/events`: `director` events with the whole view (roster, tables, journal);
- `POST /director/command`: a desk command as JSON, answered with its reply;
- `GET /director/export/{seatings,results,standings}.csv` and
  `/director/export/scoresheets-r<N>.pdf`;
- `GET /director/game?table=T&game=G`: one game of the event told again, asked of its
  table (`history`, `frame`: `tournament.asks`) from `GET /director/api/game/{table}/{game_id}`
  and `GET /director/frame/{table}/{game_id}/{seq}`; its notes are `note` commands.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from aiohttp import web

from mqttweb.sse import Pages, closing
from mqttweb.web import Handler, static_page, while_serving
from tournament.auth import COOKIE, WRONG_DELAY_S, Sessions
from tournament.desk import DeskLink
from tournament.event import EventConfig
from tournament.runner import SUBSCRIPTIONS, EventDesk
from tournament.settings import DeskSettings

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
DESK = web.AppKey("event_desk", EventDesk)
LINK = web.AppKey("event_link", DeskLink)
SESSIONS = web.AppKey("sessions", Sessions)
PUBLIC = web.AppKey("public_pages", Pages)
DIRECTOR = web.AppKey("director_pages", Pages)


def _json(view: Callable[[], dict[str, Any]]) -> str:
    return json.dumps(view(), separators=(",", ":"), ensure_ascii=False)


def _authorised(request: web.Request) -> bool:
    return request.app[SESSIONS].valid(request.cookies.get(COOKIE))


def _director_only(handler: Handler) -> Handler:
    async def guarded(request: web.Request) -> web.StreamResponse:
        if not _authorised(request):
            return web.json_response({"error": "log in on /director first"}, status=401)
        return await handler(request)

    return guarded


async def director_page(request: web.Request) -> web.StreamResponse:
    page = "director.html" if _authorised(request) else "login.html"
    return web.FileResponse(STATIC / page, headers={"Cache-Control": "no-cache"})


async def login(request: web.Request) -> web.StreamResponse:
    sessions, address = request.app[SESSIONS], request.remote or "?"
    wait = sessions.locked(address)
    if wait:
        raise web.HTTPTooManyRequests(
            text=f"too many wrong passwords: try again in {wait:.0f} s",
            headers={"Retry-After": str(int(wait) + 1)},
        )
    form = await request.post()
    token = sessions.login(address, str(form.get("password", "")))
    if token is None:
        await asyncio.sleep(WRONG_DELAY_S)
        log.warning("http: a wrong director password from %s", address)
        raise web.HTTPFound("/director?wrong=1")
    response = web.HTTPFound("/director")
    response.set_cookie(COOKIE, token, httponly=True, samesite="Strict", path="/")
    raise response


async def logout(request: web.Request) -> web.StreamResponse:
    request.app[SESSIONS].logout(request.cookies.get(COOKIE))
    response = web.HTTPFound("/director")
    response.del_cookie(COOKIE, path="/")
    raise response


async def command(request: web.Request) -> web.StreamResponse:
    try:
        body = await request.json()
    except ValueError:
        body = None
    if isinstance(body, dict) and not body.get("id"):
        body["id"] = f"page-{uuid.uuid4().hex[:12]}"
    return web.json_response(request.app[DESK].command(body, "page"))


async def export(request: web.Request) -> web.StreamResponse:
    # fpdf2 and segno (with Pillow) weigh about 35 MB: loaded on the first export only
    from tournament import exports  # noqa: PLC0415

    ledger = request.app[DESK].ledger
    name = request.match_info["name"]
    csvs = {"seatings.csv": exports.seatings_csv, "results.csv": exports.results_csv,
            "standings.csv": exports.standings_csv}  # fmt: skip
    if name in csvs:
        return web.Response(text=csvs[name](ledger), content_type="text/csv", charset="utf-8")
    if name.startswith("scoresheets-r") and name.endswith(".pdf"):
        number = name.removeprefix("scoresheets-r").removesuffix(".pdf")
        if number.isdigit() and ledger.round(int(number)) is not None:
            pdf = exports.scoresheets_pdf(ledger, int(number))
            return web.Response(body=pdf, content_type="application/pdf")
    raise web.HTTPNotFound(text=f"no export {name}")


async def game_page(request: web.Request) -> web.StreamResponse:
    """A game's page; without a session, the way to log in."""
    if not _authorised(request):
        raise web.HTTPFound("/director")
    return web.FileResponse(STATIC / "game.html", headers={"Cache-Control": "no-cache"})


async def game_api(request: web.Request) -> web.StreamResponse:
    """A game of the event as its table kept it, with the desk's notes on its result."""
    desk = request.app[DESK]
    table, game_id = request.match_info["table"], request.match_info["game_id"]
    found = desk.ledger.game_of(table, game_id)
    if found is None:
        return web.json_response(
            {"error": f"no game {game_id!r} at table {table} in this event"}, status=404
        )
    number, seated = found
    reply = await desk.asks.ask(table, {"action": "history", "game_id": game_id})
    notes = [n.payload() for n in desk.ledger.notes.get((table, game_id), [])]
    body = {
        "table": table, "round": number, "game_id": game_id, "status": seated.status.value,
        "seats": [s.payload() for s in seated.seats], "notes": notes,
        "screen": desk.event.table_url(table),
        "record": reply.get("detail") if reply.get("ok") else None,
        "error": None if reply.get("ok") else reply.get("error"),
    }  # fmt: skip
    return web.json_response(body)


async def game_frame(request: web.Request) -> web.StreamResponse:
    desk = request.app[DESK]
    table, game_id = request.match_info["table"], request.match_info["game_id"]
    if desk.ledger.game_of(table, game_id) is None:
        raise web.HTTPNotFound(text=f"no game {game_id!r} at table {table} in this event")
    try:
        seq = int(request.match_info["seq"])
    except ValueError:
        raise web.HTTPBadRequest(text="a seq is a whole number") from None
    image, reply = await desk.asks.frame(table, game_id, seq)
    if image is None:
        return web.json_response(
            {"error": reply.get("error")}, status=int(reply.get("status", 404))
        )
    kind = "image/png" if image.startswith(b"\x89PNG") else "image/jpeg"
    return web.Response(
        body=image, content_type=kind, headers={"Cache-Control": "private, max-age=86400"}
    )


def _events(key: web.AppKey[Pages], event: str) -> Handler:
    async def handler(request: web.Request) -> web.StreamResponse:
        heartbeat = request.app[DESK].settings.heartbeat_s
        return await request.app[key].serve(request, event=event, heartbeat=heartbeat)

    return handler


async def api(request: web.Request) -> web.StreamResponse:
    desk, what = request.app[DESK], request.match_info["what"]
    views: dict[str, Callable[[], Any]] = {
        "view": desk.public_view, "round": desk.round_payload, "stats": desk.stats,
        "standings": desk.standings_payload,
    }  # fmt: skip
    if what not in views:
        raise web.HTTPNotFound()
    body = views[what]()
    if body is None:
        return web.json_response({"error": "no round seated yet"}, status=404)
    return web.json_response(body)


def _pusher(app: web.Application) -> Callable[[], None]:
    """Coalesce the desk's changes into one push per 0.1 s to every open page."""
    pending = [False]

    def push() -> None:
        pending[0] = False
        app[PUBLIC].push()
        app[DIRECTOR].push()

    def changed() -> None:
        if not pending[0] and (app[PUBLIC].queues or app[DIRECTOR].queues):
            pending[0] = True
            asyncio.get_running_loop().call_later(0.1, push)

    return changed


def make_event_app(settings: DeskSettings, event: EventConfig) -> web.Application:
    app = web.Application()
    link = DeskLink(settings, SUBSCRIPTIONS)
    desk = EventDesk(settings, event, link.send)
    assert settings.director_password is not None
    app[DESK], app[LINK], app[SESSIONS] = desk, link, Sessions(settings.director_password)
    app[PUBLIC] = Pages(partial(_json, desk.public_view))
    app[DIRECTOR] = Pages(partial(_json, desk.director))
    desk.watchers.append(_pusher(app))
    routes = app.router
    for path, page in (("/", "index.html"), ("/screen", "screen.html"), ("/find", "find.html")):
        routes.add_get(path, static_page(STATIC / page))
    routes.add_get("/events", _events(PUBLIC, "board"))
    routes.add_get("/api/{what}", api)
    routes.add_get("/director", director_page)
    routes.add_post("/director/login", login)
    routes.add_post("/director/logout", logout)
    routes.add_get("/director/events", _director_only(_events(DIRECTOR, "director")))
    routes.add_post("/director/command", _director_only(command))
    routes.add_get("/director/export/{name}", _director_only(export))
    routes.add_get("/director/game", game_page)
    routes.add_get("/director/api/game/{table}/{game_id}", _director_only(game_api))
    routes.add_get("/director/frame/{table}/{game_id}/{seq}", _director_only(game_frame))
    routes.add_static("/static/", STATIC)
    app.cleanup_ctx.append(while_serving(partial(link.start, desk=desk), link.stop, desk.stop))
    app.on_shutdown.append(closing(app[PUBLIC], app[DIRECTOR]))
    return app
