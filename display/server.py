"""The display's web server (aiohttp): the page, its live view and its commands.

- `GET /`: the page; `GET /static/...`: its scripts, styles and icons; `GET /alerts.js`:
  the alert codes and their hints, made from the engine's (`display.alerts`); `GET
  /look.js`: the theme the display was started with and its day hours.
- `GET /events`: Server-Sent Events. `view` events carry the whole view as JSON, the
  first one at once on connect; a `ping` event every `heartbeat_s` lets the page tell a
  live link from a dead one.
- `GET /api/view`: the current view, once.
- `GET /camera`: the Camera page; `GET /camera/events`: its Server-Sent Events (`camera`
  events: the camera's status and its latest snapshot's number); `GET
  /camera/snapshot.jpg`: that snapshot (404 until one came); `GET
  /camera/mat.pdf?set=double-six&paper=a4`: the enrolment mat to print (`mat`).
- `GET /outputs`: what the table's AWTRIX clock and WLED strip were sent, drawn as they
  would show it; `GET /outputs/events`: its Server-Sent Events (`outputs` events).
- `GET /history`: the History page, the games the table kept told again; its data
  asked of the table with the `history` and `frame` commands (`display.history`).
- `POST /api/cmd`: a command as JSON; answers the controller's reply (matched by id)
  or, with `ok: false`, why there was none (HTTP 400, 415, 503 or 504). With a command
  PIN set, a command without the right PIN in its `X-Display-Pin` header is refused
  (HTTP 401; 429 while its client is locked out) and never published.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from pathlib import Path

from aiohttp import web

from display.alerts import alerts_module
from display.commands import build_command
from display.errors import CommandError
from display.history import add_routes as add_history_routes
from display.hub import Hub
from display.mqtt_link import MqttLink
from display.pin import HEADER, PinGuard
from display.settings import DisplayServerSettings
from mqttweb.sse import Pages, closing
from mqttweb.web import serve_until_cancelled, static_page, while_serving

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
HUB = web.AppKey("hub", Hub)
LINK = web.AppKey("link", MqttLink)
SETTINGS = web.AppKey("settings", DisplayServerSettings)
PIN_GUARD = web.AppKey("pin_guard", PinGuard)
ALERTS_JS = web.AppKey("alerts_js", str)
STATUS_OF_FAILURE = {"broker": 503, "timeout": 504}


async def alert_codes(request: web.Request) -> web.Response:
    return web.Response(
        text=request.app[ALERTS_JS],
        content_type="text/javascript",
        headers={"Cache-Control": "no-cache"},
    )


async def look_js(request: web.Request) -> web.Response:
    """The display's theme settings, for `static/theme.js` (a classic script in <head>)."""
    look = json.dumps(request.app[SETTINGS].look)
    return web.Response(
        text=f"window.DISPLAY_LOOK = {look};\n",
        content_type="text/javascript",
        headers={"Cache-Control": "no-cache"},
    )


async def view(request: web.Request) -> web.Response:
    return web.Response(text=request.app[HUB].snapshot_json(), content_type="application/json")


async def events(request: web.Request) -> web.StreamResponse:
    return await _stream(request, request.app[HUB].pages, "view")


async def camera_events(request: web.Request) -> web.StreamResponse:
    return await _stream(request, request.app[HUB].camera.pages, "camera")


async def _stream(request: web.Request, pages: Pages, event: str) -> web.StreamResponse:
    """A page's `event` stream; it opens with a `ping` giving the heartbeat's seconds."""
    heartbeat = request.app[SETTINGS].heartbeat_s
    opening = f"retry: 1000\nevent: ping\ndata: {heartbeat}\n\n".encode()
    return await pages.serve(request, event=event, heartbeat=heartbeat, opening=opening)


async def outputs_events(request: web.Request) -> web.StreamResponse:
    return await _stream(request, request.app[HUB].outputs.pages, "outputs")


async def camera_snapshot(request: web.Request) -> web.Response:
    jpeg = request.app[HUB].camera.jpeg
    if jpeg is None:
        raise web.HTTPNotFound(text="the table has published no camera snapshot yet")
    return web.Response(body=jpeg, content_type="image/jpeg", headers={"Cache-Control": "no-store"})


async def camera_mat(request: web.Request) -> web.Response:
    """The enrolment mat of `set` on `paper`, as a PDF to download and print."""
    from engine.tiles import DominoSet, TileError  # noqa: PLC0415
    from mat import MatError, mat_for  # noqa: PLC0415
    from mat.pdf import mat_pdf  # noqa: PLC0415 - fpdf2 loads on the first mat asked for

    name = request.query.get("set", "double-six")
    paper = request.query.get("paper", "a4")
    try:
        mat = mat_for(DominoSet.named(name), paper)
    except (TileError, MatError) as exc:
        raise web.HTTPBadRequest(text=str(exc)) from exc
    body = await asyncio.to_thread(mat_pdf, mat)
    filename = f"enrolment-mat-{mat.domino_set}-{mat.paper}.pdf"
    return web.Response(
        body=body,
        content_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


async def command(request: web.Request) -> web.Response:
    if request.content_type != "application/json":
        # a cross-site form cannot send this type without the browser asking first
        error = "send the command as application/json"
        return web.json_response({"ok": False, "error": error, "display_error": "bad"}, status=415)
    refusal = await _pin_refusal(request)
    if refusal is not None:
        return refusal
    try:
        body = await request.json()
    except ValueError:  # not JSON, or not UTF-8
        body = None
    try:
        cmd = build_command(body)
    except CommandError as exc:
        return web.json_response(
            {"ok": False, "error": str(exc), "display_error": "bad"}, status=400
        )
    log.info("cmd: %s %s", cmd["id"], cmd["action"])
    reply = await request.app[HUB].command(cmd, request.app[LINK].publish_command)
    status = STATUS_OF_FAILURE.get(str(reply.get("display_error")), 200)
    return web.json_response(reply, status=status)


async def _pin_refusal(request: web.Request) -> web.Response | None:
    """None when no PIN is set or the request carries the right one; else the refusal."""
    if PIN_GUARD not in request.app:
        return None
    guard = request.app[PIN_GUARD]
    client = request.remote or "unknown"
    locked = guard.locked_for(client)
    if locked > 0:
        wait = max(1, round(locked))
        error = f"too many wrong PINs from this device: try again in {wait} s"
        body = {"ok": False, "error": error, "display_error": "pin_locked", "retry_after": wait}
        return web.json_response(body, status=429, headers={"Retry-After": str(wait)})
    given = request.headers.get(HEADER, "")
    if not given:
        error = "this display needs its command PIN"
        return web.json_response(
            {"ok": False, "error": error, "display_error": "pin_needed"}, status=401
        )
    if guard.check(client, given):
        return None
    log.warning("cmd: wrong command PIN from %s; command not sent", client)
    await asyncio.sleep(request.app[SETTINGS].pin_delay_s)
    error = "wrong PIN: the command was not sent"
    return web.json_response(
        {"ok": False, "error": error, "display_error": "pin_wrong"}, status=401
    )


def make_app(settings: DisplayServerSettings) -> web.Application:
    """The aiohttp app; its start-up connects to MQTT, its clean-up disconnects."""
    app = web.Application()
    app[SETTINGS] = settings
    app[ALERTS_JS] = alerts_module()
    hub = Hub(settings)
    link = MqttLink(settings, hub)
    hub.reread_state = link.reread_state
    app[HUB] = hub
    app[LINK] = link
    if settings.command_pin is not None:
        app[PIN_GUARD] = PinGuard(
            settings.command_pin, tries=settings.pin_tries, lockout_s=settings.pin_lockout_s
        )
    app.router.add_get("/", static_page(STATIC / "index.html"))
    app.router.add_get("/alerts.js", alert_codes)
    app.router.add_get("/look.js", look_js)
    app.router.add_get("/events", events)
    app.router.add_get("/api/view", view)
    app.router.add_post("/api/cmd", command)
    app.router.add_get("/camera", static_page(STATIC / "camera.html"))
    app.router.add_get("/camera/events", camera_events)
    app.router.add_get("/camera/snapshot.jpg", camera_snapshot)
    app.router.add_get("/camera/mat.pdf", camera_mat)
    app.router.add_get("/outputs", static_page(STATIC / "outputs.html"))
    app.router.add_get("/outputs/events", outputs_events)
    app.router.add_get("/history", static_page(STATIC / "history.html"))
    add_history_routes(app, HUB, LINK)
    app.router.add_static("/static/", STATIC)
    app.cleanup_ctx.append(while_serving(link.start, link.stop))
    app.on_shutdown.append(closing(hub.pages, hub.camera.pages, hub.outputs.pages))
    return app


async def serve(
    settings: DisplayServerSettings,
    ready: asyncio.Event | None = None,
    listening: Callable[[int], None] | None = None,
) -> None:
    """Run the display until cancelled; once it listens, `listening(port)` is told the
    port (the one the system chose for `http_port` 0) and `ready` is set."""

    def started(port: int) -> None:
        if listening is not None:
            listening(port)
        log.info(
            "http: serving table %s on %s://%s:%d/; %s",
            settings.table,
            "https" if settings.https is not None else "http",
            settings.http_host,
            port,
            "its command buttons ask for the command PIN"
            if settings.command_pin is not None
            else "its command buttons are open to anyone who can reach the page (--no-pin)",
        )

    app = make_app(settings)
    await serve_until_cancelled(
        app,
        settings.http_host,
        settings.http_port,
        ssl_context=settings.https,
        started=started,
        ready=ready,
    )
