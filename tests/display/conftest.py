"""Display test set-up: a display server on a real Mosquitto, a publisher playing the
controller, and a real Chromium driven by Playwright."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from playwright.sync_api import Browser, Page, expect

from display.server import serve
from display.settings import DisplayServerSettings
from tests.display import samples
from tests.fixtures.browser import screen
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.spec import kind_of_topic, validate

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"
PREFIX = f"domino/{samples.TABLE}"

# generous: the machine running the tests may be busy; a passing test never waits this long
expect.set_options(timeout=10_000)


def wait_for(check: Callable[[], Any], timeout: float = 5.0, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


@dataclass
class Controller:
    """Plays the table controller: publishes validated payloads, records commands."""

    client: mqtt.Client
    commands: list[dict[str, Any]] = field(default_factory=list)
    answer: Callable[[dict[str, Any]], dict[str, Any] | None] | None = None

    def publish(self, suffix: str, payload: dict[str, Any] | str, retain: bool = False) -> None:
        topic = f"{PREFIX}/{suffix}"
        if isinstance(payload, dict):
            kind = kind_of_topic(topic)
            assert kind is not None, topic
            validate(kind, payload)
            text = json.dumps(payload)
        else:
            text = payload
        # After a broker restart this client reconnects on its own schedule (1-2 s),
        # which may be after the display's link: publish once it is back.
        wait_for(self.client.is_connected, 10.0, "the test's controller to reconnect")
        self.client.publish(topic, text, qos=1, retain=retain).wait_for_publish(5)

    def status(self, text: str) -> None:
        self.publish("status", text, retain=True)

    def state(self, payload: dict[str, Any]) -> None:
        self.publish("state", payload, retain=True)

    def event(self, kind: str, payload: dict[str, Any]) -> None:
        self.publish(f"event/{kind}", payload)


@pytest.fixture
def controller(broker: Mosquitto) -> Iterator[Controller]:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="test-controller")
    ctl = Controller(client)

    def on_message(c: mqtt.Client, u: Any, msg: mqtt.MQTTMessage) -> None:
        command = json.loads(msg.payload)
        validate("command", command)
        ctl.commands.append(command)
        answer = ctl.answer(command) if ctl.answer else None
        if answer is not None:
            validate("reply", answer)
            c.publish(f"{PREFIX}/cmd/reply", json.dumps(answer), qos=1)

    client.on_message = on_message
    client.on_connect = lambda c, *a: c.subscribe(f"{PREFIX}/cmd", qos=1)
    client.reconnect_delay_set(1, 2)
    client.connect(broker.host, broker.port)
    client.loop_start()
    try:
        yield ctl
    finally:
        client.disconnect()
        client.loop_stop()


@dataclass
class DisplayServer:
    url: str
    settings: DisplayServerSettings
    stop: Callable[[], None]


def start_display_on(broker: Mosquitto, **overrides: Any) -> DisplayServer:
    """A display server in its own thread and loop; the caller stops it."""
    settings = DisplayServerSettings(
        **{
            "table": samples.TABLE,
            "mqtt_host": broker.host,
            "mqtt_port": broker.port,
            "http_host": "127.0.0.1",
            "http_port": 0,  # the system's choice, told by `serve` (no port race)
            "reply_timeout_s": 1.0,
            "heartbeat_s": 1.0,
            **overrides,
        }
    )
    loop = asyncio.new_event_loop()
    ready = asyncio.Event()
    task: asyncio.Task[None] | None = None
    ports: list[int] = []

    def run() -> None:
        nonlocal task
        asyncio.set_event_loop(loop)
        task = loop.create_task(serve(settings, ready, listening=ports.append))
        try:
            loop.run_until_complete(task)
        except asyncio.CancelledError:
            pass
        finally:
            loop.close()

    def stop() -> None:
        if thread.is_alive() and task is not None:
            loop.call_soon_threadsafe(task.cancel)
        thread.join(10)

    thread = threading.Thread(target=run, name="display", daemon=True)
    thread.start()
    wait_for(ready.is_set, 10, "the display server")
    return DisplayServer(f"http://127.0.0.1:{ports[0]}", settings, stop)


@pytest.fixture
def start_display(broker: Mosquitto) -> Iterator[Callable[..., DisplayServer]]:
    """Starts display servers on `broker` when the test says so (`start(**settings)`, as
    `start_display_on` takes them); stops them after."""
    started: list[DisplayServer] = []

    def start(**overrides: Any) -> DisplayServer:
        started.append(start_display_on(broker, **overrides))
        return started[-1]

    try:
        yield start
    finally:
        for server in started:
            server.stop()


@pytest.fixture
def display_server(start_display: Callable[..., DisplayServer]) -> DisplayServer:
    return start_display()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """The table's 800x480 screen."""
    with screen(browser, 800, 480, timeout_ms=10_000) as context:
        yield context.new_page()


def screenshot(page: Page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path
