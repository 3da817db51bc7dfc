"""A misread tile corrected by a tap, with real parts: the table service on a real
Mosquitto takes the camera's reading of a 6-3 as a 6-2; on one display (Chromium,
800x480) a player taps the 6-2 on the layout and picks 3 for its second half; the table
judges the layout again with the 6-3, and every display (a phone too) shows it."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from playwright.sync_api import Browser, Page, expect

from config.loader import load_settings
from engine.surface import SeenTile, Snapshot
from service.app import TableService
from tests.display import samples
from tests.display.conftest import (
    PREFIX,
    Controller,
    DisplayServer,
    screenshot,
    start_display_on,
    wait_for,
)
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.tiers import needs

DOUBLE = SeenTile(6, 6, 450, 288, 450, 312)
MISREAD = SeenTile(6, 2, 474, 300, 498, 300)  # really a 6-3: its 3 was read as a 2


@pytest.fixture
@needs("process")
def table(broker: Mosquitto, tmp_path: Path) -> Iterator[TableService]:
    settings = load_settings(
        None,
        {
            "table.id": samples.TABLE,
            "table.rules": "straight-block",
            "table.seats": 2,
            "table.names": ["Ana", "Ben"],
            "serial.enabled": False,
            "mqtt.host": broker.host,
            "mqtt.port": broker.port,
            "state.dir": str(tmp_path / "state"),
        },
    )
    service = TableService(settings)
    service.start()
    try:
        yield service
    finally:
        service.stop()


def say(broker: Mosquitto, body: dict[str, object]) -> None:
    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.connect(broker.host, broker.port)
    client.loop_start()
    client.publish(f"{PREFIX}/cmd", json.dumps(body), qos=1).wait_for_publish(5)
    client.loop_stop()
    client.disconnect()


def layout(service: TableService) -> list[str]:
    return [t["tile"] for t in service.core.state()["layout"]["tiles"]]


@pytest.fixture
def display(broker: Mosquitto) -> Iterator[DisplayServer]:
    server = start_display_on(broker, reply_timeout_s=5.0)
    try:
        yield server
    finally:
        server.stop()


def open_page(browser: Browser, url: str, width: int, height: int) -> Page:
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(url)
    expect(page.locator("svg.layout .tile")).to_have_count(2)
    return page


def test_a_misread_tile_is_corrected_by_a_tap_on_every_display(
    broker: Mosquitto, table: TableService, display: DisplayServer, browser: Browser
) -> None:
    table.submit(Snapshot((DOUBLE,), 0, (), time.monotonic()))  # the camera's readings
    wait_for(lambda: layout(table) == ["6-6"], 10, "the lead")
    say(broker, {"id": "lead-1", "action": "lead", "seat": 0})
    table.submit(Snapshot((DOUBLE, MISREAD), 0, (), time.monotonic()))
    wait_for(lambda: layout(table) == ["6-6", "6-2"], 10, "the misread play")
    screen = open_page(browser, display.url, 800, 480)
    phone = open_page(browser, display.url, 390, 844)
    try:
        expect(screen.locator("#ends-total")).to_have_text("Ends 14")
        screen.locator('svg.layout g.tile[data-tile="6-2"]').click()
        dialog = screen.locator("#correct")
        expect(dialog).to_be_visible()
        expect(dialog.locator("h2")).to_have_text("Correct the 6-2")
        expect(dialog.locator(".pick-half legend")).to_have_text(
            ["The half showing 6", "The half showing 2"]
        )
        expect(dialog.locator('[data-half="0"] .btn.pick')).to_have_count(7)  # double-six: 0-6
        send = dialog.locator('[data-correct="send"]')
        expect(send).to_be_disabled()
        dialog.locator('[data-half="1"] [data-pip="3"]').click()
        expect(dialog.locator(".correct-preview .half.changed")).to_have_text("3")
        expect(send).to_have_text("It is the 6-3")
        screenshot(screen, "800x480-correct-dialog")
        send.click()
        expect(screen.locator("#toast")).to_contain_text("Correct a tile: done")
        for page in (screen, phone):  # the table judged the layout again: every display
            expect(page.locator('svg.layout g.tile[data-tile="6-3"]')).to_have_count(1)
            expect(page.locator('svg.layout g.tile[data-tile="6-2"]')).to_have_count(0)
            expect(page.locator("#ends-total")).to_have_text("Ends 15")
        screenshot(phone, "390x844-corrected")
        assert layout(table) == ["6-6", "6-3"]
        # the camera goes on reading a 6-2 there: it is the 6-3, no alert
        table.submit(Snapshot((DOUBLE, MISREAD), 0, (), time.monotonic()))
        time.sleep(0.5)
        assert layout(table) == ["6-6", "6-3"] and table.core.state()["alerts"] == []
    finally:
        screen.context.close()
        phone.context.close()


def test_no_correction_once_the_hand_is_over(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    controller.state(samples.state(seq=23, phase="hand_over", turn=None))
    controller.status("online")
    page.goto(display_server.url)
    expect(page.locator("body")).to_have_class("live phase-hand_over ")
    page.locator('svg.layout g.tile[data-tile="5-3"]').click()
    expect(page.locator("#toast")).to_have_text("Tiles can be corrected while a hand is played")
    expect(page.locator("#correct")).to_be_hidden()
    assert controller.commands == []
