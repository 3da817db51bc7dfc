"""One kept game as one self-contained HTML page: to mail to an appeals committee.

Everything is inside the file: the styles, a few lines of script (the arrow keys step
from event to event), and every frame as a `data:` URI (a camera's JPEG as kept, a
board's surface drawn as PNG). It opens from a disk or a mail with no network. The page
tells the game hand by hand: each event a line (its seq, time, who, what, the alert in
the table's words), the tiles lying in play order after it, and the frame it was read
from beside it (a frame that shows several events once, the others link to it). The
alerts are listed at the top, each a link; the game's inputs close the page, as
`domino-table replay` reads them.
"""

from __future__ import annotations

import base64
import html
import json
from typing import Any

from service.history.store import GameRecord, HistoryStore
from service.history.surface import image_of
from service.history.words import hands, line, local_time, words

__all__ = ["html_page"]

_STYLE = """
:root { color-scheme: light; font-family: system-ui, sans-serif; }
body { margin: 0 auto; max-width: 1100px; padding: 1rem; color: #111; background: #fff; }
h1 { font-size: 1.4rem; margin: 0 0 .3rem; }
h2 { font-size: 1.15rem; border-bottom: 2px solid #222; padding-bottom: .2rem; }
.facts { margin: 0 0 .8rem; color: #333; }
nav a { margin-right: .6rem; }
ol.events { list-style: none; padding: 0; margin: 0; }
li.event { border-bottom: 1px solid #ccc; padding: .5rem 0; }
li.event:target, li.event.here { background: #fff7c2; }
.line { font-size: 1.05rem; }
.seq { font-variant-numeric: tabular-nums; color: #555; display: inline-block; min-width: 4ch; }
time { color: #555; margin-right: .5rem; font-variant-numeric: tabular-nums; }
.alert .line { font-weight: 600; }
.illegal .line { color: #a00000; }
.layout { color: #444; font-size: .9rem; margin-top: .2rem; }
figure { margin: .4rem 0 0; }
img { max-width: 100%; height: auto; border: 1px solid #999; }
figcaption, .same { color: #555; font-size: .85rem; }
pre { white-space: pre-wrap; font-size: .8rem; background: #f3f3f3; padding: .5rem; }
"""

_SCRIPT = """
const items = [...document.querySelectorAll("li.event")];
let at = -1;
document.addEventListener("keydown", (e) => {
  if (!["ArrowDown", "ArrowUp", "ArrowRight", "ArrowLeft"].includes(e.key)) return;
  e.preventDefault();
  const step = e.key === "ArrowDown" || e.key === "ArrowRight" ? 1 : -1;
  at = Math.max(0, Math.min(items.length - 1, at + step));
  items.forEach((li, i) => li.classList.toggle("here", i === at));
  items[at].scrollIntoView({ block: "center" });
});
"""


def html_page(record: GameRecord, store: HistoryStore, language: str | None = None) -> str:
    """The page of `record` (its frames read from `store`)."""
    s = record.summary
    lang = language or _language(record)
    w = words(lang)
    framed = set(record.frames)
    shown: dict[int, int] = {}  # picture -> the seq where it is shown
    parts = [
        "<!doctype html>",
        f'<html lang="{lang}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(s.game_id)} · {_e(', '.join(s.names))}</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<header><h1>{_e(s.game_id)}</h1>",
        f'<p class="facts">{_e(_facts(record))}</p>',
        _nav(record, lang),
        "</header><main>",
    ]
    layout: list[str] = []
    plays: dict[int, str] = {}
    for hand in hands(record.events):
        title = w["hand"].format(n=hand.number) if hand.number else w["before"]
        parts.append(f'<section id="hand-{hand.number}"><h2>{_e(title)}</h2><ol class="events">')
        if hand.number:
            layout, plays = [], {}
        for event in hand.events:
            _fold(event, layout, plays)
            parts.append(_item(event, s.names, lang, layout if event["seq"] in framed else None))
            if event["seq"] in framed:
                parts.append(_picture(store, s.game_id, int(event["seq"]), shown))
            parts.append("</li>")
        parts.append("</ol></section>")
    lines = "\n".join(json.dumps(i["input"], separators=(",", ":")) for i in record.inputs)
    parts += [
        "</main><footer><details><summary>Inputs (domino-table replay reads them)</summary>",
        f"<pre>{_e(lines)}</pre></details></footer>",
        f"<script>{_SCRIPT}</script></body></html>",
    ]
    return "\n".join(parts)


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _language(record: GameRecord) -> str:
    first = record.inputs[0]["input"] if record.inputs else {}
    value = first.get("language") if isinstance(first, dict) else None
    return str(value) if value in ("en", "es") else "en"


def _facts(record: GameRecord) -> str:
    s = record.summary
    table = next((str(e.get("table")) for e in record.events if e.get("table")), "")
    when = local_time(s.started, with_date=True)
    end = f" to {local_time(s.ended)}" if s.ended else ""
    scores = ", ".join(f"{n} {v}" for n, v in zip(s.names, s.scores, strict=False))
    return f"{table} · {s.rules} · {when}{end} · {s.hands} hands · {scores}"


def _nav(record: GameRecord, lang: str) -> str:
    w = words(lang)
    numbers = sorted({h.number for h in hands(record.events) if h.number})
    links = [f'<a href="#hand-{n}">{_e(w["hand"].format(n=n))}</a>' for n in numbers]
    alerts = [
        f'<a href="#seq-{e["seq"]}">#{e["seq"]} {_e(e.get("code"))}</a>'
        for e in record.events
        if e["type"] == "alert" and not e.get("resolved")
    ]
    out = f"<nav>{' '.join(links)}</nav>"
    if alerts:
        out += f'<nav class="alerts">⚠ {" ".join(alerts)}</nav>'
    return out


def _fold(event: dict[str, Any], layout: list[str], plays: dict[int, str]) -> None:
    """The tiles lying in play order after `event` (a play adds its tile, an undo takes
    the play it names back)."""
    if event["type"] == "play":
        layout.append(str(event.get("tile")))
        plays[int(event["seq"])] = str(event.get("tile"))
    elif event["type"] == "undo":
        tile = plays.pop(int(event.get("undone") or 0), None)
        if tile in layout:
            layout.reverse()
            layout.remove(tile)
            layout.reverse()


def _item(
    event: dict[str, Any], names: tuple[str, ...], lang: str, layout: list[str] | None
) -> str:
    classes = ["event", str(event["type"])]
    if event["type"] == "alert":
        classes.append(str(event.get("severity")))
    said = _e(line(event, names, lang))
    out = (
        f'<li id="seq-{event["seq"]}" class="{" ".join(classes)}"><div class="line">'
        f'<span class="seq">#{event["seq"]}</span> <time>{_e(local_time(event.get("ts")))}</time>'
        f"{said}</div>"
    )
    if layout is not None:
        out += f'<div class="layout">{_e(" · ".join(layout) or "—")}</div>'
    return out


def _picture(store: HistoryStore, game_id: str, seq: int, shown: dict[int, int]) -> str:
    picture = store.picture(game_id, seq)
    if picture is None:
        return ""
    first = shown.get(picture.key)
    if first is not None:
        return f'<div class="same"><a href="#seq-{first}">frame: as #{first}</a></div>'
    shown[picture.key] = seq
    image = image_of(picture)
    kind = "image/jpeg" if picture.kind == "jpeg" else "image/png"
    data = base64.b64encode(image).decode("ascii")
    return (
        f'<figure><img src="data:{kind};base64,{data}" alt="#{seq}" loading="lazy">'
        f"<figcaption>#{seq}</figcaption></figure>"
    )
