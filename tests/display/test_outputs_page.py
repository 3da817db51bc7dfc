"""The `/outputs` page (real Mosquitto, real Chromium): what the table's AWTRIX clock and
WLED strip show, drawn from the payloads the table's outputs made for them (the walnut
leaflet's hand on a table core, `tests/service/outputs/table.py`); and `domino-table
demo --outputs-preview` showing its own lights there."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from playwright.sync_api import Browser, Page, expect

from engine.inputs import Lead
from engine.surface import SeenTile
from service.core import commands as cmd
from tests.display.conftest import DisplayServer, screenshot, wait_for
from tests.fixtures.browser import screen
from tests.fixtures.mosquitto import Mosquitto
from tests.service.outputs.table import AWTRIX, WLED, Table

# the page's matrix: which LED colours are lit, as (x, y) -> "#rrggbb"
LIT_PIXELS = """() => {
    const c = document.getElementById("matrix");
    const ctx = c.getContext("2d");
    const size = c.width / 32;
    const out = {};
    for (let x = 0; x < 32; x++) for (let y = 0; y < 8; y++) {
        const [r, g, b] = ctx.getImageData((x + 0.5) * size, (y + 0.5) * size, 1, 1).data;
        const hex = "#" + [r, g, b].map((v) => v.toString(16).padStart(2, "0")).join("");
        if (hex !== "#1b1b1b") out[`${x},${y}`] = hex;
    }
    return out;
}"""


@pytest.fixture
def devices_publisher(broker: Mosquitto) -> Iterator[Callable[[str, bytes], None]]:
    """Publishes on the broker as the table does to its devices (QoS 0, not retained)."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="table-outputs")
    client.connect(broker.host, broker.port)
    client.loop_start()

    def publish(topic: str, payload: bytes) -> None:
        client.publish(topic, payload, qos=0).wait_for_publish(5)

    yield publish
    client.disconnect()
    client.loop_stop()


def leaflet_payloads(tmp_path: Path) -> list[tuple[str, bytes]]:
    """What a table's clock and strip are sent for the walnut leaflet's hand and an illegal
    tile laid after it (each checked against the spec on the way)."""
    table = Table(tmp_path, rules="walnut")
    try:
        table.lay("5-5")
        table.command(cmd.GameCommand("lead", Lead(seat=0)))
        table.lay("5-0", "5-5")
        table.lay("3-5", "5-5")
        table.lay("0-2", "5-0")
        table.lay_at(SeenTile(6, 4, 570, 300, 594, 300))
        return [(topic, payload) for topic, payload, _ in table.devices.sent]
    finally:
        table.journal.close()


def leds(page: Page) -> list[str]:
    return list(json.loads(page.locator("#strip").get_attribute("data-leds") or "[]"))


def test_the_clock_and_the_strip_are_drawn_from_the_tables_payloads(
    start_display: Callable[..., DisplayServer],
    devices_publisher: Callable[[str, bytes], None],
    browser: Browser,
    tmp_path: Path,
) -> None:
    server = start_display(awtrix=AWTRIX, wled=WLED)
    sent = leaflet_payloads(tmp_path)
    illegal = next(i for i, (t, p) in enumerate(sent) if b"FF0000" in p)
    with screen(browser, 800, 480) as context:
        page = context.new_page()
        page.clock.install()
        page.goto(f"{server.url}/outputs")
        expect(page.locator("#link")).to_have_text("Live")
        for topic, payload in sent[:illegal]:
            devices_publisher(topic, payload)
        matrix = page.locator("#matrix")
        expect(page.locator("#awtrix-topic")).to_have_text(f"{AWTRIX}/custom/domino")
        expect(page.locator("#wled-topic")).to_have_text(f"{WLED}/api")
        # the last notification (Dev's +5) first, for its 3 s; then the app
        expect(matrix).to_have_attribute("data-showing", "note")
        expect(matrix).to_have_attribute("data-text", "Dev +5")
        assert set(page.evaluate(LIT_PIXELS).values()) == {"#00ff00"}
        page.clock.run_for(3500)
        expect(matrix).to_have_attribute("data-showing", "app")
        expect(matrix).to_have_attribute("data-text", "Xi 10 Bo 10 Ca 0 De 5")
        expect(page.locator("#matrix-text")).to_have_text("App: Xi 10 Bo 10 Ca 0 De 5")
        lit = page.evaluate(LIT_PIXELS)  # wider than 32 LEDs: it scrolls, in its colours
        assert set(lit.values()) <= {"#ffd200", "#ffffff", "#00c8ff"} and lit
        assert all(1 <= int(xy.split(",")[1]) <= 5 for xy in lit)  # the font's 5 rows
        strip = leds(page)  # Ximena's turn: seat 0's 30 LEDs white, the rest dark
        assert strip == ["rgb(255,255,255)"] * 30 + ["off"] * 90
        screenshot(page, "800x480-outputs")
        for topic, payload in sent[illegal:]:  # a 6-4 against the 2: red everywhere
            devices_publisher(topic, payload)
        expect(matrix).to_have_attribute("data-text", re.compile("^6-4 does not match"))
        wait_for(lambda: leds(page) == ["rgb(255,0,0)"] * 120, 10, "the strip all red")
        page.clock.run_for(1500)  # the long sentence scrolls in from the right
        assert set(page.evaluate(LIT_PIXELS).values()) == {"#ff0000"}
        devices_publisher(f"{AWTRIX}/custom/domino", b"")  # the table stopped: app deleted
        page.clock.run_for(5500)
        expect(matrix).to_have_attribute("data-showing", "none")
        expect(page.locator("#matrix-text")).to_have_text("No app.")
    with screen(browser, 390, 844) as context:
        page = context.new_page()
        page.goto(f"{server.url}/outputs")
        expect(page.locator("#wled-box")).to_be_visible()
        screenshot(page, "390x844-outputs")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_display_without_lights_says_how_to_name_them(
    display_server: DisplayServer, page: Page
) -> None:
    page.goto(f"{display_server.url}/outputs")
    expect(page.locator("#none")).to_be_visible()
    expect(page.locator("#awtrix-box")).to_be_hidden()


@pytest.mark.process
def test_the_demo_previews_its_own_lights(tmp_path: Path, browser: Browser) -> None:
    command = [sys.executable, "-c", "from cli.main import main; main()", "demo",
               "--outputs-preview", "--no-pin", "--http-port", "0", "--pace", "0.3",
               "--seed", "7", "--state-dir", str(tmp_path / "demo")]  # fmt: skip
    log = tmp_path / "demo.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: b"/outputs" in log.read_bytes(), 60, "the demo's addresses")
        served = re.search(r"Outputs: open http://127\.0\.0\.1:(\d+)/outputs ", log.read_text())
        assert served, log.read_text()  # the port the system chose for the display
        port = int(served[1])

        def serving() -> bool:  # the display starts beside the table, in a thread of its own
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/outputs", timeout=2):
                    return True
            except OSError:
                return False

        wait_for(serving, 30, "the demo's display")
        with screen(browser, 800, 480) as context:
            page = context.new_page()
            page.goto(f"http://127.0.0.1:{port}/outputs")
            expect(page.locator("#awtrix-topic")).to_have_text("awtrix_demo/custom/domino")
            # the demo's table plays: its scores reach the matrix, its turn the strip
            expect(page.locator("#matrix-text")).to_have_text(
                re.compile(r"^App: P1 \d+ P2 \d+ P3 \d+ P4 \d+$"), timeout=60_000
            )
            deadline = time.monotonic() + 60
            while not any(c != "off" for c in leds(page)):
                assert time.monotonic() < deadline, "the strip never lit"
                page.wait_for_timeout(200)
            lit: list[Any] = leds(page)
            assert len(lit) == 120 and len({c for c in lit if c != "off"}) == 1
    finally:
        proc.terminate()
        proc.wait(20)
    assert b"Traceback" not in log.read_bytes(), log.read_text()
