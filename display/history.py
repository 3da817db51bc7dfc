"""The History page's side of the display server: the table's record, asked over MQTT.

The display knows the table only through MQTT, and so does this page: the server asks
the table with the `history` and `frame` commands (spec/mqtt.md, "History") and hands
the page what came back.

- `GET /history`: the page (`static/history.html`).
- `GET /history/api/games`: the reply's `detail` to `history` without a game: the game
  in play (or the last) and the games kept.
- `GET /history/api/game/{game_id}`: the `detail` of `history` for that game: its
  events as published, the seqs that have a frame. The layout at any event is for the
  page to build from the events.
- `GET /history/frame/{game_id}/{seq}`: the frame of that event (JPEG, or PNG for a
  board table), from `<prefix>/history/frame`, where the table publishes it once on
  `frame`. Each picture names its game and seq inside (`mqttweb.frame_mark`), so the
  pictures other screens ask for at the same time are told apart; the latest ones are
  kept (`mqttweb.history_frames`) and served again without asking.

A command the table refuses is HTTP 404 with its sentence; no broker or a table that
says it is offline 503, no answer 504.
These commands only read: they need no PIN.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any

from aiohttp import web

from display.hub import Hub
from display.payloads import Json

__all__ = ["add_routes"]

log = logging.getLogger(__name__)

FRAME_WAIT_S = 5.0  # after the reply: the picture published just before it, on its way
STATUS = {"broker": 503, "timeout": 504}
OFFLINE = "The table is offline: its record of games can be asked once it is back."


def _failure(reply: Json) -> web.Response:
    status = STATUS.get(str(reply.get("display_error")), 404)
    return web.json_response({"ok": False, "error": reply.get("error")}, status=status)


def add_routes(app: web.Application, hub_key: web.AppKey[Hub], link_key: web.AppKey[Any]) -> None:
    """The History page's routes (the page itself is served beside the others)."""

    async def ask(request: web.Request, body: dict[str, Any]) -> Json:
        command = {"id": f"display-history-{uuid.uuid4().hex}", **body}
        hub = request.app[hub_key]
        if hub.view.status == "offline":  # said by the table (or its Last Will)
            return {"ok": False, "error": OFFLINE, "display_error": "broker"}
        return await hub.command(
            command, request.app[link_key].publish_command, timeout=hub.settings.history_timeout_s
        )

    async def games(request: web.Request) -> web.Response:
        reply = await ask(request, {"action": "history"})
        if not reply.get("ok"):
            return _failure(reply)
        return web.json_response(reply.get("detail") or {})

    async def game(request: web.Request) -> web.Response:
        reply = await ask(request, {"action": "history", "game_id": request.match_info["game_id"]})
        if not reply.get("ok"):
            return _failure(reply)
        return web.json_response(reply.get("detail") or {})

    async def frame(request: web.Request) -> web.Response:
        game_id = request.match_info["game_id"]
        try:
            seq = int(request.match_info["seq"])
        except ValueError:
            raise web.HTTPBadRequest(text="a seq is a whole number") from None
        frames = request.app[hub_key].history
        key = (game_id, seq)
        image = frames.get(key)
        if image is None:
            waiter = frames.expect(key)
            try:
                reply = await ask(request, {"action": "frame", "game_id": game_id, "seq": seq})
                if not reply.get("ok"):
                    return _failure(reply)
                image = await asyncio.wait_for(waiter, FRAME_WAIT_S)
            except TimeoutError:
                return web.json_response(
                    {"ok": False, "error": "The table's frame did not come."}, status=504
                )
            finally:
                frames.forget(key, waiter)
        kind = "image/png" if image.startswith(b"\x89PNG") else "image/jpeg"
        return web.Response(
            body=image, content_type=kind, headers={"Cache-Control": "private, max-age=86400"}
        )

    app.router.add_get("/history/api/games", games)
    app.router.add_get("/history/api/game/{game_id}", game)
    app.router.add_get("/history/frame/{game_id}/{seq}", frame)
