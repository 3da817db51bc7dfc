"""A tournament's game on the page, in a real Chromium: the round and its clock in the
bar, "last hand" once the clock ran out, and the players confirming the result."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.display import samples
from tests.display.conftest import Controller, DisplayServer, screenshot

SEATED: dict[str, Any] = {
    "tournament": "Spring Open",
    "round": 2,
    "players": ["p1", "p2", "p3", "p4"],
    "ends_at": "2026-11-22T04:45:00.000Z",
}


def test_the_round_its_clock_and_the_last_hand_are_shown(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    controller.state(samples.state(**SEATED, last_hand=False))
    controller.status("online")
    page.goto(display_server.url)
    expect(page.locator("#round")).to_have_text("Spring Open · round 2")
    expect(page.locator("#ends-at")).to_have_text(re.compile(r"^until \d\d:\d\d$"))
    expect(page.locator("#phase")).to_have_text("Ben to play")
    controller.state(samples.state(seq=21, **SEATED, last_hand=True))
    expect(page.locator("#last-hand")).to_have_text("Time is up: last hand")
    expect(page.locator("#phase")).to_contain_text("Ben to play")
    screenshot(page, "800x480-last-hand")


def test_the_players_confirm_a_result_on_time(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    controller.state(samples.state(**SEATED, last_hand=True))
    controller.status("online")
    page.goto(display_server.url)
    expect(page.locator("#last-hand")).to_be_visible()
    over = samples.game_over(22) | SEATED | {"reason": "time"}
    controller.event("game", over)
    final = samples.state(seq=22, phase="over", turn=None, scores=(105, 40, 6, 155),
                          **SEATED, last_hand=True)  # fmt: skip
    controller.state(final)
    expect(page.locator("#game-over-title")).to_have_text("Dev wins the game!")
    expect(page.locator("#game-over-reason")).to_have_text("Time is up: the last hand is scored")
    expect(page.locator("#last-hand")).to_have_count(0)  # the game is over
    buttons = page.locator("#confirm-result button[data-action=confirm]")
    expect(buttons).to_have_text(["Ana", "Ben", "Carla", "Dev"])
    screenshot(page, "800x480-game-over-on-time")
    controller.answer = lambda c: samples.reply(c["id"])
    buttons.nth(1).click()
    expect(page.locator("#toast-text")).to_have_text("Confirm the result: done")
    sent = controller.commands[-1]
    assert (sent["action"], sent["seat"]) == ("confirm", 1)
    controller.state(final | {"seq": 22, "confirmed_by": [1]})
    expect(page.locator("#confirm-result .confirmed")).to_have_text("Ben confirmed")
    expect(buttons).to_have_text(["Ana", "Carla", "Dev"])
    screenshot(page, "800x480-confirm-result")


def test_a_casual_game_asks_for_no_confirmation(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    controller.state(samples.state())
    controller.status("online")
    page.goto(display_server.url)
    controller.event("game", samples.game_over(22) | {"reason": "target"})
    controller.state(samples.state(seq=22, phase="over", turn=None, scores=(105, 40, 6, 155)))
    expect(page.locator("#game-over-title")).to_have_text("Dev wins the game!")
    expect(page.locator("#confirm-result")).to_have_count(0)
    expect(page.locator("#game-over-reason")).to_have_count(0)
    expect(page.locator("#round")).to_have_count(0)
