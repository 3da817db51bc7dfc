"""The History page in a real Chromium: a real table service (in this process, a board's
reports handed to it) keeps a game on a real Mosquitto, a real display server asks it
with `history` and `frame`; the page lists the game, tells it event by event with the
layout folded from the events and the frame beside each, steps by buttons, keys and a
swipe, jumps to a hand and to an alert, in English and Spanish, in the sun theme (axe:
AAA) and the dark one (AA), on the 800x480 screen and a phone."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from config.loader import load_settings
from engine import Tile
from engine.geometry import Placer
from engine.surface import SeenTile, Snapshot
from service.app import TableService
from tests.display.axe import AA, AAA, contrast_failures
from tests.display.conftest import Controller, DisplayServer, screenshot
from tests.fixtures.browser import screen
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_recorder import Recorder
from tests.fixtures.service_process import replies

TABLE = "t1"
P = f"domino/{TABLE}"


class Table:
    """A walnut table for two whose board reports are handed to the service directly."""

    def __init__(self, broker: Mosquitto, state: Path) -> None:
        settings = load_settings(
            None,
            {
                "table.id": TABLE,
                "table.rules": "walnut",
                "table.seats": 2,
                "table.names": ["Ana", "Ben"],
                "mqtt.host": broker.host,
                "mqtt.port": broker.port,
                "state.dir": str(state),
            },
        )
        self.broker = broker
        self.rec = Recorder(broker.host, broker.port, [f"{P}/#"])
        self.service = TableService(settings)
        self.service.start()
        self.rec.wait_for(lambda s: any(x.payload == b"online" for x in s), timeout=20)
        self.placer = Placer(900, 600)
        self.surface: list[SeenTile] = []
        self.n = 0

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [s.json() for s in self.rec.seen if s.topic == f"{P}/event/{kind}"]

    def report(self) -> None:
        self.service.submit(Snapshot(tuple(self.surface), at=time.monotonic()))

    def lay(self, tile: str) -> None:
        game, rec = self.service.core.game, self.service.core.reconciler
        assert game is not None and rec is not None
        t = Tile.parse(tile)
        end = next((e for e in game.layout.ends if e.pip in (t.high, t.low)), None)
        placed = [p for p in rec.placed() if p is not None]
        self.surface.append(self.placer.place(game.layout, placed, t, end))
        want = len(self.events("play")) + 1
        self.report()
        self.rec.wait_for(lambda s: len(self.events("play")) >= want)

    def tell(self, body: dict[str, Any]) -> dict[str, Any]:
        self.n += 1
        ident = f"t-{self.n}"
        self.rec.client.publish(f"{P}/cmd", json.dumps({"id": ident, **body}), qos=1)
        got = self.rec.wait_for(lambda s: ident in replies(s))
        reply = replies(got)[ident]
        assert reply["ok"], reply
        return reply

    def close(self) -> None:
        self.service.stop()
        self.rec.close()


def a_game(table: Table) -> None:
    """Hand 1: 6-6 led (who led is told), 6-4, 4-1 scoring, a knock; a tile laid far
    from the layout (an illegal alert), taken away; the hand ended, counted. Hand 2
    begun on a cleared table: 5-5."""
    table.lay("6-6")
    table.tell({"action": "lead", "seat": 1})
    table.lay("6-4")
    table.lay("4-1")
    table.tell({"action": "pass", "seat": 0})
    table.surface.append(SeenTile(3, 2, 100, 100, 124, 100))  # joins nothing
    table.report()
    table.rec.wait_for(
        lambda s: any(a["code"] == "NOT_TOUCHING" for a in table.events("alert")), 10
    )
    table.surface.pop()
    table.report()
    table.rec.wait_for(
        lambda s: any(a["resolved"] for a in table.events("alert") if a["code"] == "NOT_TOUCHING"),
        10,
    )
    table.tell({"action": "end_hand"})
    table.tell({"action": "count", "seat": 0, "pips": 12})
    table.tell({"action": "count", "seat": 1, "pips": 20})
    table.surface = []
    table.report()  # the table cleared: the next hand
    table.rec.wait_for(
        lambda s: (
            any(e["hand"] == 2 for e in table.events("play")) or len(table.events("hand")) >= 1
        )
    )
    table.lay("5-5")
    assert table.service.history.wait_idle(20)


@pytest.fixture
def played(broker: Mosquitto, tmp_path: Path) -> Iterator[Table]:
    table = Table(broker, tmp_path / "state")
    try:
        a_game(table)
        yield table
    finally:
        table.close()


@pytest.fixture
def history_display(played: Table, start_display: Callable[..., DisplayServer]) -> DisplayServer:
    return start_display(table=TABLE)


def open_game(page: Page, server: DisplayServer, query: str = "") -> None:
    page.goto(f"{server.url}/history{query}")
    expect(page.locator(".game-card")).to_have_count(1)
    page.locator(".game-card").click()
    expect(page.locator("#events li")).not_to_have_count(0)


def current_line(page: Page) -> str:
    return page.locator("#event-now .now-line").inner_text()


FRAME_SHOWN = """() => {
    const img = document.getElementById("frame");
    return img.complete && img.naturalWidth > 0 && !document.getElementById("frame-link").hidden;
}"""


def frame_loaded(page: Page) -> int:
    """Once the frame beside the event is shown: its width in pixels."""
    page.wait_for_function(FRAME_SHOWN)
    return int(page.evaluate("document.getElementById('frame').naturalWidth"))


def test_a_game_is_told_event_by_event_with_its_layout_and_its_frame(
    played: Table, history_display: DisplayServer, page: Page
) -> None:
    open_game(page, history_display)
    events = page.locator("#events li")
    published = sorted(
        (s.json() for s in played.rec.seen if "/event/" in s.topic), key=lambda e: e["seq"]
    )
    game_id = played.service.core.game_id
    kept = [e for e in published if e["game_id"] == game_id]
    expect(events).to_have_count(len(kept))
    expect(page.locator("#event-now")).to_contain_text("Game started: walnut")
    expect(page.locator("#frame-none")).to_have_text("No frame kept for this event")

    # step to the lead: Ben laid it, told after the table asked
    page.locator("#next").click()
    expect(page.locator("#event-now .now-line")).to_have_text("Ben (told at #4) played 6-6")
    assert frame_loaded(page) >= 900  # the board's surface, drawn
    expect(page.locator("svg.layout .tile")).to_have_count(1)
    screenshot(page, "history-800x480-lead")

    # the keys step too; the layout is the events' up to the one shown
    for _ in range(5):  # the table asks who led, is told, is answered; 6-4; 4-1
        page.keyboard.press("ArrowRight")
    expect(page.locator("#event-now .now-line")).to_have_text("Ben played 4-1")
    expect(page.locator("svg.layout .tile")).to_have_count(3)
    expect(page.locator("svg.layout .tile.last-play")).to_have_attribute("data-tile", "4-1")
    expect(page.locator("#step-at")).to_have_text(f"Event 7 of {len(kept)}")
    assert page.url.endswith(f"seq={page.locator('#event-now .now').get_attribute('data-seq')}")

    # jump to the alert: the tile lying where it may not, drawn outlined, its words
    page.locator(".alert-chip.sev-illegal").click()
    expect(page.locator("#event-now .now")).to_have_class("now now-alert sev-illegal")
    expect(page.locator("#event-now .now-line")).to_contain_text("3-2")
    expect(page.locator("svg.layout .illegal-tile")).to_have_count(1)
    frame_loaded(page)
    screenshot(page, "history-800x480")
    page.keyboard.press("ArrowRight")  # taken away: cleared
    expect(page.locator("#event-now .now-line")).to_contain_text("Cleared: ")
    expect(page.locator("svg.layout .illegal-tile")).to_have_count(0)

    # a swipe to the left on the layout: the next event
    before = page.locator("#event-now .now").get_attribute("data-seq")
    box = page.locator("#layout-box").bounding_box()
    assert box is not None
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + box["width"] * 0.8, y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.2, y, steps=5)
    page.mouse.up()
    expect(page.locator("#event-now .now")).not_to_have_attribute("data-seq", str(before))

    # the hand's result, then hand 2 on a cleared table
    page.locator('.hand-chip[data-hand="2"]').click()
    expect(page.locator("#event-now .now-line")).to_have_text("? played 5-5: +10")
    expect(page.locator("svg.layout .tile")).to_have_count(1)
    expect(page.locator("svg.layout .last-points")).to_have_text("+10")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#event-now .now-line")).to_contain_text("Blocked: Ana wins the hand")
    expect(page.locator("svg.layout .tile")).to_have_count(3)  # the tiles lay until cleared


def test_the_page_in_spanish_in_the_sun_and_on_a_phone(
    played: Table, history_display: DisplayServer, browser: Browser
) -> None:
    for theme, rule in (("sun", AAA), ("dark", AA)):
        for width, height in ((800, 480), (390, 844)):
            with screen(browser, width, height, timeout_ms=10_000) as context:
                page = context.new_page()
                open_game(page, history_display, f"?lang=es&theme={theme}")
                expect(page.locator("#event-now")).to_contain_text("Empieza la partida: walnut")
                page.locator(".alert-chip.sev-illegal").click()
                expect(page.locator("#step-at")).to_contain_text("Suceso ")
                frame_loaded(page)
                failures = contrast_failures(page, rule)
                assert failures == [], f"{theme} {width}x{height}: {failures}"
                page.locator("#next").click()
                expect(page.locator("#event-now .now-line")).to_contain_text("Resuelto: ")
                assert page.evaluate("document.documentElement.scrollWidth") <= width
                # the bar on one line: the way to all games no taller than the way back
                back, every = (page.locator(x).bounding_box() for x in ("#back", "#all-games"))
                assert back and every and every["height"] <= back["height"], (back, every)
                screenshot(page, f"history-{width}x{height}-{theme}-es")
                page.locator("#all-games").click()
                expect(page.locator("#games h1")).to_have_text("Partidas guardadas")
                failures = contrast_failures(page, rule)
                assert failures == [], f"the list, {theme} {width}x{height}: {failures}"


def test_the_tables_page_links_to_the_history(
    played: Table, history_display: DisplayServer, page: Page
) -> None:
    page.goto(history_display.url)
    page.locator("#history-link").click()
    expect(page).to_have_url(f"{history_display.url}/history")
    expect(page.locator(".game-card")).to_have_count(1)
    expect(page.locator(".game-card")).to_contain_text("Ana 2 · Ben 0")


def test_a_table_that_does_not_answer_is_said(
    start_display: Callable[..., DisplayServer], page: Page
) -> None:
    server = start_display(table="nobody", history_timeout_s=2.0)
    page.goto(f"{server.url}/history")
    expect(page.locator("#history-message")).to_have_text("Asking the table…")
    expect(page.locator(".h-error")).to_contain_text(
        "The table did not give its record: The table did not answer in time.", timeout=10_000
    )


def test_a_table_that_says_it_is_offline_is_said_at_once(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    controller.status("offline")
    page.goto(f"{display_server.url}/history?lang=es")
    expect(page.locator(".h-error")).to_contain_text(
        "La mesa no dio su historial: The table is offline", timeout=3_000
    )
