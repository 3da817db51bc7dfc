"""The command PIN: the page asks for it, the server refuses commands without it (HTTP
401, never published) and locks out a client guessing it. A real Mosquitto, the display
server and, for the page, Debian's Chromium."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from playwright.sync_api import Page, expect

from display.cli import display
from tests.display import samples
from tests.display.conftest import Controller, DisplayServer, screenshot, start_display_on
from tests.fixtures.display_http import post_command
from tests.fixtures.mosquitto import Mosquitto

PIN = "2468"


@pytest.fixture
def pin_display(broker: Mosquitto) -> Iterator[DisplayServer]:
    server = start_display_on(
        broker, command_pin=PIN, pin_tries=3, pin_lockout_s=3.0, pin_delay_s=0.05
    )
    try:
        yield server
    finally:
        server.stop()


def open_live(page: Page, controller: Controller, server: DisplayServer, query: str = "") -> None:
    controller.state(samples.state())
    controller.status("online")
    controller.answer = lambda c: samples.reply(c["id"])
    page.goto(server.url + query)
    expect(page.locator("body")).to_have_class("live phase-play ")


def test_a_wrong_pin_is_refused_and_changes_nothing_the_right_one_is_applied(
    controller: Controller, pin_display: DisplayServer, page: Page
) -> None:
    open_live(page, controller, pin_display)
    # everything is shown to everyone: the scores need no PIN
    expect(page.locator("#scores .card .score")).to_have_text(["85", "40", "6", "130"])
    page.locator("#actions [data-action=pass]").click()
    dialog = page.get_by_role("dialog", name="Command PIN")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_label("PIN")).to_be_focused()
    screenshot(page, "800x480-pin")
    dialog.get_by_label("PIN").fill("1357")
    dialog.get_by_role("button", name="Send").click()
    expect(page.locator("#toast-text")).to_have_text("Pass: wrong PIN, nothing was sent")
    expect(page.locator("#toast")).to_have_attribute("data-kind", "no")
    expect(dialog).to_be_hidden()
    time.sleep(0.5)  # what a published command would have needed to reach the table
    assert controller.commands == []
    # the wrong PIN is forgotten: the next press asks again
    page.locator("#actions [data-action=pass]").click()
    expect(dialog).to_be_visible()
    dialog.get_by_label("PIN").fill(PIN)
    dialog.get_by_label("PIN").press("Enter")
    expect(page.locator("#toast-text")).to_have_text("Pass: done")
    assert [c["action"] for c in controller.commands] == ["pass"]
    # the right PIN is kept for the page's next commands
    page.locator("#actions [data-action=draw]").click()
    expect(page.locator("#toast-text")).to_have_text("Draw: done")
    expect(dialog).to_be_hidden()
    assert [c["action"] for c in controller.commands] == ["pass", "draw"]


def test_the_pin_dialog_speaks_spanish_and_can_be_cancelled(
    controller: Controller, pin_display: DisplayServer, page: Page
) -> None:
    open_live(page, controller, pin_display, "?lang=es")
    page.locator("#actions [data-action=pass]").click()
    dialog = page.get_by_role("dialog", name="PIN de órdenes")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("button", name="Enviar")).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page.locator("#toast-text")).to_have_text("Paso: no enviado (sin PIN)")
    dialog_cancel = page.locator("#actions [data-action=pass]")
    dialog_cancel.click()
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Cancelar").click()
    expect(dialog).to_be_hidden()
    time.sleep(0.5)
    assert controller.commands == []


def test_the_page_tells_a_locked_out_device(
    controller: Controller, pin_display: DisplayServer, page: Page
) -> None:
    open_live(page, controller, pin_display)
    for _ in range(3):
        assert post_command(pin_display.url, {"action": "pass"}, "0000")[0] == 401
    # locked out: told at once, before any PIN is asked for
    page.locator("#actions [data-action=pass]").click()
    expect(page.locator("#toast-text")).to_have_text(
        re.compile(r"^Pass: too many wrong PINs: try again in [1-3] s$")
    )
    expect(page.get_by_role("dialog", name="Command PIN")).to_be_hidden()
    assert controller.commands == []


def test_a_command_posted_without_the_right_pin_gets_401_and_is_never_published(
    controller: Controller, pin_display: DisplayServer, caplog: pytest.LogCaptureFixture
) -> None:
    controller.answer = lambda c: samples.reply(c["id"])
    status, reply, _ = post_command(pin_display.url, {"id": "x1", "action": "pass"})
    assert (status, reply["ok"], reply["display_error"]) == (401, False, "pin_needed")
    assert reply["error"] == "this display needs its command PIN"
    status, reply, _ = post_command(pin_display.url, {"id": "x2", "action": "pass"}, "24680")
    assert (status, reply["display_error"]) == (401, "pin_wrong")
    assert reply["error"] == "wrong PIN: the command was not sent"
    # refused before the body is even read: a malformed command gets 401 too
    assert post_command(pin_display.url, {"action": "fly"})[0] == 401
    time.sleep(0.5)
    assert controller.commands == []
    status, reply, _ = post_command(pin_display.url, {"id": "x3", "action": "pass"}, PIN)
    assert (status, reply["ok"], reply["id"]) == (200, True, "x3")
    assert [c["id"] for c in controller.commands] == ["x3"]
    assert "24680" not in caplog.text and PIN not in caplog.text


def test_guessing_locks_the_client_out_even_with_the_right_pin(
    controller: Controller, pin_display: DisplayServer
) -> None:
    controller.answer = lambda c: samples.reply(c["id"])
    started = time.monotonic()
    for guess in ("1111", "2222", "3333"):
        assert post_command(pin_display.url, {"action": "pass"}, guess)[0] == 401
    assert time.monotonic() - started >= 3 * 0.05  # each wrong PIN is answered late
    status, reply, headers = post_command(pin_display.url, {"action": "pass"}, PIN)
    assert (status, reply["display_error"]) == (429, "pin_locked"), reply
    assert (
        reply["error"]
        == f"too many wrong PINs from this device: try again in {reply['retry_after']} s"
    )
    assert 1 <= reply["retry_after"] <= 3 and headers["Retry-After"] == str(reply["retry_after"])
    time.sleep(0.5)
    assert controller.commands == []
    time.sleep(3.0)  # the lock-out is over
    status, reply, _ = post_command(pin_display.url, {"id": "late", "action": "pass"}, PIN)
    assert (status, reply["ok"]) == (200, True)
    assert [c["id"] for c in controller.commands] == ["late"]


def test_the_start_up_log_says_whether_the_buttons_are_open(
    broker: Mosquitto, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="display.server")
    for pin in (None, PIN):
        server = start_display_on(broker, command_pin=pin)
        server.stop()
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("http: serving")]
    assert len(lines) == 2, lines
    assert lines[0].endswith(
        "its command buttons are open to anyone who can reach the page "
        "(--command-pin-file sets a PIN)"
    )
    assert lines[1].endswith("its command buttons ask for the command PIN")
    assert PIN not in caplog.text


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        ("", "is empty"),
        ("12 34\n", "the command PIN must be 4 to 64 letters, digits or signs"),
        ("123\n", "the command PIN must be 4 to 64 letters, digits or signs"),
    ],
)
def test_a_bad_pin_file_is_a_usage_error(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "pin"
    if content is not None:
        path.write_text(content)
    result = CliRunner().invoke(display, ["--table", "t1", "--command-pin-file", str(path)])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "--command-pin-file" in result.output
