"""Fixtures for the panel tests: gpiozero's MockFactory, a recording `submit`, pins."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from config.panel import PanelSettings
from hardware.panel import Panel
from tests.fixtures.spec import validate

# A four-seat panel: per-seat PASS and DRAW, NEXT HAND, turn LEDs, alert LED, buzzer. UNDO
# (``undo=17``) is added by the tests that need it: closing its gpiozero Button waits up to
# 0.1 s for the button's hold thread.
FOUR_SEATS: dict[str, Any] = {
    "enabled": True,
    "pass": [5, 6, 13, 19],
    "draw": [22, 23, 24, 25],
    "next_hand": 27,
    "turn_leds": [12, 16, 20, 21],
    "alert_led": 4,
    "buzzer": 18,
}


class Sent:
    """A `submit` that records each command, the thread it came from and when."""

    def __init__(self) -> None:
        self.commands: list[dict[str, Any]] = []
        self.threads: list[threading.Thread] = []
        self.times: list[float] = []

    def __call__(self, command: dict[str, Any]) -> None:
        validate("command", command)
        self.commands.append(command)
        self.threads.append(threading.current_thread())
        self.times.append(time.monotonic())


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    mock = MockFactory()
    yield mock
    mock.reset()


@pytest.fixture
def sent() -> Sent:
    return Sent()


MakePanel = Callable[..., Panel]


@pytest.fixture
def make_panel(factory: MockFactory, sent: Sent) -> Iterator[MakePanel]:
    """Build a Panel on the mock factory from FOUR_SEATS with some keys changed."""
    panels: list[Panel] = []

    def make(**changes: Any) -> Panel:
        settings = PanelSettings.model_validate({**FOUR_SEATS, **changes})
        panel = Panel(settings, sent, pin_factory=factory, id_prefix="panel-test")
        panels.append(panel)
        return panel

    yield make
    for panel in panels:
        panel.close()


def pin(factory: MockFactory, name: str | int) -> MockPin:
    found: MockPin = factory.pin(name if isinstance(name, str) else f"GPIO{name}")
    return found


def press(factory: MockFactory, name: str | int, hold: float = 0.0) -> None:
    """Press a button wired to GND (drive the pin low), hold it, release it."""
    button = pin(factory, name)
    button.drive_low()
    if hold:
        time.sleep(hold)
    button.drive_high()


def wait_for(condition: Callable[[], bool], timeout: float = 3.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.01)


def pulses(mock: MockPin) -> list[float]:
    """How long the pin stayed high each time it went high (from the recorded states)."""
    states = mock.states
    return [
        after.timestamp
        for before, after in itertools.pairwise(states)
        if before.state and not after.state
    ]
