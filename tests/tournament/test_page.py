"""The standings page in Chromium: drawn from the desk's event stream, redrawn live."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.fixtures.browser import screen
from tests.fixtures.mosquitto import Mosquitto
from tests.tournament.desk_process import DeskProcess
from tests.tournament.tables import publish_once, result_payload

pytestmark = pytest.mark.process

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A page in the shared browser (tests/fixtures/browser.py)."""
    with screen(browser, 1280, 720, timeout_ms=10_000) as context:
        yield context.new_page()


def test_the_page_shows_the_ranking_and_the_tables_and_follows_new_results(
    broker: Mosquitto, tmp_path: Path, page: Page
) -> None:
    desk = DeskProcess(broker.host, broker.port, tmp_path / "desk")
    desk.start()
    try:
        publish_once(broker.host, broker.port, "domino/t1/status", b"online")
        publish_once(broker.host, broker.port, "domino/t1/state", {"game_id": "g2", "hand": 3})
        first = result_payload("t1", "g1", ["Ana", "Bo"], [100, 94], winner=0)
        publish_once(broker.host, broker.port, "domino/t1/result/g1", first)
        desk.get_json("/api/stats")  # serving
        page.goto(desk.url("/"))
        rows = page.locator("#entries tr")
        expect(rows).to_have_count(2)
        expect(rows.nth(0)).to_have_text("1Ana11+6100")
        expect(rows.nth(1)).to_have_text("2Bo10-694")
        expect(page.locator("#tables li")).to_have_text(["t1 · onlinehand 3"])
        expect(page.locator("#link")).to_have_text("live")
        # a second game, and a table going offline: the page follows without a reload
        second = result_payload("t2", "g1", ["Bo", "Cy"], [150, 20], winner=0)
        publish_once(broker.host, broker.port, "domino/t2/result/g1", second)
        publish_once(broker.host, broker.port, "domino/t1/status", b"offline")
        expect(rows.nth(0)).to_have_text("1Bo21+124244")
        expect(page.locator("#tables li.offline")).to_have_count(1)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "tournament-standings.png"))
        desk.kill()  # the page says so when the desk is gone
        expect(page.locator("#link")).to_have_text("desk lost")
    finally:
        desk.stop()
