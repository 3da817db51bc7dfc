"""The page in a real Chromium, fed by a real Mosquitto through the display server."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.display import samples
from tests.display.conftest import Controller, DisplayServer, screenshot


def test_mid_game_page_shows_the_retained_game(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    controller.state(samples.state())
    controller.status("online")
    page.goto(display_server.url)
    cards = page.locator("#scores .card")
    expect(cards).to_have_count(4)
    expect(cards.nth(0).locator(".name")).to_have_text("Ana")
    expect(cards.nth(0).locator(".score")).to_have_text("85")
    expect(cards.nth(3).locator(".score")).to_have_text("130")
    expect(page.locator("body")).to_have_class("live phase-play ")
    screenshot(page, "800x480-play")
