"""The sun and dark themes in Chromium: every text of the page passes WCAG AAA (7:1) in
the sun theme and AA in the dark one, as axe-core judges it, in every part of the page a
game shows (alerts of each severity, an undo's tiles to return, a hand's result, game
over, the dialogs, a toast, the stale banner); the scores grow; `auto` follows the time
of day; each screen can switch. Screenshots at 800x480 and 390x844."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.display import samples
from tests.display.axe import AA, AAA, contrast_failures
from tests.display.conftest import Controller, DisplayServer, screenshot
from tests.fixtures.browser import screen

SIZES = [(800, 480), (390, 844)]


@pytest.fixture(params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def sized(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    width, height = request.param
    with screen(browser, width, height, timeout_ms=10_000) as context:
        yield context.new_page()


def playing_with_alerts() -> dict[str, Any]:
    """A hand in play with an alert of each severity standing."""
    return samples.state(
        seq=30,
        alerts=[
            samples.alert(27, code="UNREADABLE", alert_id="w1", severity="warning",
                          message="The camera cannot read a tile near Ben.", tile=None),
            samples.alert(28, code="BOARD_OFFLINE", alert_id="f1", severity="fault",
                          message="The board is not answering: check its cable.", seat=None,
                          tile=None),
            samples.alert(29),
        ],
    )  # fmt: skip


def undo_with_draws(seq: int, draws: int) -> dict[str, Any]:
    return samples.common(seq, hand=3, undone=20, points=10, draws=draws)


def check_every_view(page: Page, controller: Controller, url: str, rule: str, name: str) -> None:
    """Walk the page through what a game shows; axe judges each view."""
    failures: list[str] = []

    def judge(view: str) -> None:
        failures.extend(f"{view}: {line}" for line in contrast_failures(page, rule))

    size = page.viewport_size or {"width": 0, "height": 0}
    controller.state(playing_with_alerts())
    controller.status("online")
    page.goto(url)
    expect(page.locator("#alerts .alert")).to_have_count(3)
    judge("three alerts")
    screenshot(page, f"{size['width']}x{size['height']}-{name}-alerts")
    controller.state(samples.state(seq=31))
    controller.event("undo", undo_with_draws(32, 2))
    expect(page.locator("#undo-draws")).to_be_visible()
    judge("an undo with tiles to return")
    screenshot(page, f"{size['width']}x{size['height']}-{name}")
    controller.state(samples.state(seq=32, last=None))
    page.locator("#actions [data-action=more]").click()
    expect(page.locator("#more")).to_be_visible()
    judge("the More dialog")
    page.keyboard.press("Escape")
    page.locator("#actions [data-action=scores]").click()
    expect(page.locator("#sheet")).to_be_visible()
    judge("the scoresheet")
    page.keyboard.press("Escape")
    page.locator("#actions [data-action=pass]").click()  # no reply: a toast says so
    expect(page.locator("#toast")).to_be_visible()
    judge("a toast")
    controller.event("hand", samples.hand(33))
    controller.state(samples.state(seq=33, scores=(105, 40, 6, 130), phase="hand_over", turn=None))
    expect(page.locator("#result .hand-panel")).to_be_visible()
    judge("a hand's result")
    over = samples.state(seq=34, scores=(105, 40, 6, 155), phase="over", turn=None,
                         tournament="Spring Open", round=2, confirmed_by=[1])  # fmt: skip
    controller.event("game", samples.game_over(34))
    controller.state(over)
    expect(page.locator("#confirm-result")).to_be_visible()
    judge("game over, confirming the result")
    screenshot(page, f"{size['width']}x{size['height']}-{name}-game-over")
    controller.status("offline")
    expect(page.locator(".banner-controller_offline")).to_be_visible()
    judge("the controller offline")
    assert not failures, "\n".join(failures)


def test_every_text_passes_aaa_in_the_sun(
    controller: Controller, display_server: DisplayServer, sized: Page
) -> None:
    check_every_view(sized, controller, f"{display_server.url}/?theme=sun", AAA, "sun")
    expect(sized.locator("html")).to_have_attribute("data-theme", "sun")


def test_every_text_passes_aa_in_the_dark(
    controller: Controller, display_server: DisplayServer, sized: Page
) -> None:
    check_every_view(sized, controller, f"{display_server.url}/?theme=dark", AA, "dark")
    expect(sized.locator("html")).to_have_attribute("data-theme", "dark")


NOT_THIN_OR_GREY = """() => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node.parentElement;
        if (!node.textContent.trim() || !el || !el.checkVisibility()) continue;
        if (el.closest("svg")) continue;  // the layout's labels: measured by contrast
        const style = getComputedStyle(el);
        const [r, g, b] = style.color.match(/[\\d.]+/g).map(Number);
        const grey = r === g && g === b && r > 0 && r < 255;
        if (Number(style.fontWeight) < 700 || grey) {
            out.push(`${node.textContent.trim().slice(0, 30)}: ${style.fontWeight} ${style.color}`);
        }
    }
    return out;
}"""


def test_no_thin_or_grey_text_in_the_sun_and_the_scores_are_larger(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    controller.state(samples.state())
    controller.status("online")
    page.goto(f"{display_server.url}/?theme=dark")
    expect(page.locator(".card.turn")).to_be_visible()
    dark = page.locator(".card .score").first.bounding_box()
    page.goto(f"{display_server.url}/?theme=sun")
    expect(page.locator(".card.turn")).to_be_visible()
    assert page.evaluate(NOT_THIN_OR_GREY) == []
    sun = page.locator(".card .score").first.bounding_box()
    assert dark is not None and sun is not None and sun["height"] > dark["height"] * 1.1
    for i in range(4):  # and every score still whole on the screen, inside its card
        card = page.locator(".card").nth(i).bounding_box()
        score = page.locator(".card .score").nth(i).bounding_box()
        assert card is not None and score is not None
        assert score["x"] + score["width"] <= card["x"] + card["width"]
        assert score["y"] + score["height"] <= card["y"] + card["height"] <= 480


@pytest.mark.parametrize(
    ("now", "day", "theme"),
    [
        ("2026-06-21T12:00:00", ("07:00", "19:00"), "sun"),
        ("2026-06-21T06:59:00", ("07:00", "19:00"), "dark"),
        ("2026-06-21T19:00:00", ("07:00", "19:00"), "dark"),
        ("2026-06-21T22:30:00", ("20:00", "02:00"), "sun"),  # a day that wraps past midnight
        ("2026-06-21T03:00:00", ("20:00", "02:00"), "dark"),
    ],
)
def test_auto_follows_the_time_of_day(
    browser: Browser,
    start_display: Callable[..., DisplayServer],
    now: str,
    day: tuple[str, str],
    theme: str,
) -> None:
    server = start_display(theme="auto", day_starts=day[0], day_ends=day[1])
    context = browser.new_context(viewport={"width": 800, "height": 480}, timezone_id="UTC")
    try:
        page = context.new_page()
        page.clock.install(time=f"{now}Z")
        page.goto(server.url)
        expect(page.locator("html")).to_have_attribute("data-theme", theme)
        expect(page.locator("html")).to_have_attribute("data-theme-mode", "auto")
    finally:
        context.close()


def test_auto_turns_to_sun_when_the_day_starts_while_the_page_is_open(
    browser: Browser, start_display: Callable[..., DisplayServer]
) -> None:
    # a long heartbeat: the page's dead-link watch sleeps while its clock is run ahead
    server = start_display(theme="auto", heartbeat_s=60.0)
    context = browser.new_context(viewport={"width": 800, "height": 480}, timezone_id="UTC")
    try:
        page = context.new_page()
        page.clock.install(time="2026-06-21T06:59:40Z")
        page.goto(server.url)
        expect(page.locator("html")).to_have_attribute("data-theme", "dark")
        page.clock.run_for(31_000)  # 07:00:11: the page looks again every 30 s
        expect(page.locator("html")).to_have_attribute("data-theme", "sun")
    finally:
        context.close()


def test_each_screen_switches_its_own_theme_and_keeps_it(
    start_display: Callable[..., DisplayServer], controller: Controller, page: Page
) -> None:
    server = start_display(theme="dark")  # the display's choice
    controller.state(samples.state())
    controller.status("online")
    page.goto(server.url)
    html, switch = page.locator("html"), page.locator("#theme")
    expect(html).to_have_attribute("data-theme", "dark")
    expect(switch).to_have_text("Dark")
    switch.click()
    expect(switch).to_have_text("Auto")
    switch.click()
    expect(switch).to_have_text("Sun")
    expect(html).to_have_attribute("data-theme", "sun")
    page.reload()  # this screen keeps its choice
    expect(html).to_have_attribute("data-theme", "sun")
    expect(page.locator("#theme")).to_have_attribute("aria-label", re.compile("^Look: Sun"))
    page.goto(f"{server.url}/?theme=dark&lang=es")  # the address says otherwise, once
    expect(html).to_have_attribute("data-theme", "dark")
    expect(page.locator("#theme")).to_have_text("Oscuro")
    page.locator("#theme").click()  # from there, the next; the address no longer holds
    expect(page.locator("#theme")).to_have_text("Auto")
    assert "theme=" not in page.url and "lang=es" in page.url
