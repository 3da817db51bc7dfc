"""Buttons: one press, one command (spec/mqtt.md Commands), handed to `submit`."""

from __future__ import annotations

import re
import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory

from config.panel import PanelSettings
from hardware.panel import Panel
from tests.hardware.conftest import (
    MakePanel,
    Sent,
    pin,
    press,
    wait_for,
)


def test_each_seat_pass_button_passes_its_seat(
    factory: MockFactory, sent: Sent, make_panel: MakePanel
) -> None:
    make_panel()
    press(factory, 13)  # pass[2]
    assert sent.commands == [{"id": "panel-test-1", "action": "pass", "seat": 2}]
    press(factory, 5)  # pass[0]
    assert sent.commands[-1] == {"id": "panel-test-2", "action": "pass", "seat": 0}


def test_the_shared_pass_button_leaves_the_seat_to_the_service(
    factory: MockFactory, sent: Sent, make_panel: MakePanel
) -> None:
    make_panel(**{"pass": [], "shared_pass": 5})
    press(factory, 5)
    assert sent.commands == [{"id": "panel-test-1", "action": "pass"}]


def test_draw_next_hand_buttons(factory: MockFactory, sent: Sent, make_panel: MakePanel) -> None:
    make_panel()
    press(factory, 25)  # draw[3]
    press(factory, 27)  # next_hand
    assert sent.commands == [
        {"id": "panel-test-1", "action": "draw", "seat": 3, "count": 1},
        {"id": "panel-test-2", "action": "next_hand"},
    ]


def test_the_shared_draw_button_draws_one_for_the_turn_seat(
    factory: MockFactory, sent: Sent, make_panel: MakePanel
) -> None:
    make_panel(draw=[], shared_draw=26)
    press(factory, 26)
    assert sent.commands == [{"id": "panel-test-1", "action": "draw", "count": 1}]


def test_a_button_acts_when_pressed_not_when_released(
    factory: MockFactory, sent: Sent, make_panel: MakePanel
) -> None:
    make_panel()
    pin(factory, 6).drive_low()
    assert [c["action"] for c in sent.commands] == ["pass"]
    pin(factory, 6).drive_high()
    assert len(sent.commands) == 1


def test_undo_held_under_2_s_sends_nothing_and_held_2_s_sends_one_undo(
    factory: MockFactory, sent: Sent, make_panel: MakePanel
) -> None:
    make_panel(undo=17)  # default hold_time: 2 s
    press(factory, 17, hold=1.7)
    time.sleep(0.2)
    assert sent.commands == []

    undo = pin(factory, 17)
    pressed_at = time.monotonic()
    undo.drive_low()
    wait_for(lambda: len(sent.commands) == 1, timeout=3.0)
    assert sent.times[0] - pressed_at >= 2.0
    time.sleep(0.5)  # still held: no repeat
    undo.drive_high()
    assert sent.commands == [{"id": "panel-test-1", "action": "undo"}]


def test_hold_time_comes_from_the_settings_and_undo_comes_from_gpiozeros_hold_thread(
    factory: MockFactory, sent: Sent, make_panel: MakePanel
) -> None:
    make_panel(undo=17, hold_time=1.0)
    press(factory, 17, hold=1.3)
    assert sent.commands == [{"id": "panel-test-1", "action": "undo"}]
    assert sent.threads[0] is not threading.main_thread()


def test_a_bouncing_press_sends_one_command(
    factory: MockFactory, sent: Sent, make_panel: MakePanel
) -> None:
    make_panel(bounce_time=0.2)
    button = pin(factory, 19)
    for _ in range(4):  # contact chatter: four closings within a few microseconds
        button.drive_low()
        button.drive_high()
    button.drive_low()
    time.sleep(0.25)
    button.drive_high()
    button.drive_low()  # the release chatters too
    button.drive_high()
    assert sent.commands == [{"id": "panel-test-1", "action": "pass", "seat": 3}]

    time.sleep(0.25)  # a real second press, after the contact settled
    press(factory, 19)
    assert [c["id"] for c in sent.commands] == ["panel-test-1", "panel-test-2"]


def test_buttons_get_gpiozero_bounce_time_and_pull_up(
    factory: MockFactory, make_panel: MakePanel
) -> None:
    make_panel(bounce_time=0.03)
    assert pin(factory, 5).bounce == pytest.approx(0.03)
    assert pin(factory, 5).pull == "up"


def test_pull_down_buttons_are_pressed_by_driving_high(
    factory: MockFactory, sent: Sent, make_panel: MakePanel
) -> None:
    make_panel(pull_up=False)
    button = pin(factory, 5)
    assert button.pull == "down"
    button.drive_high()
    button.drive_low()
    assert sent.commands == [{"id": "panel-test-1", "action": "pass", "seat": 0}]


def test_ids_are_unique_and_carry_a_session_token(factory: MockFactory) -> None:
    got: list[dict[str, object]] = []
    settings = PanelSettings.model_validate({"enabled": True, "shared_pass": 5})
    with Panel(settings, got.append, pin_factory=factory) as panel:
        for _ in range(3):
            press(factory, 5)
            time.sleep(0.06)
        assert panel.status()["pins"] == {"shared_pass": "GPIO5"}
    ids = [str(c["id"]) for c in got]
    assert len(set(ids)) == 3
    assert all(re.fullmatch(r"panel-[0-9a-f]{8}-[1-3]", i) for i in ids)
    with Panel(settings, got.append, pin_factory=factory):
        press(factory, 5)
    assert str(got[-1]["id"]).rsplit("-", 1)[0] != ids[0].rsplit("-", 1)[0]


@pytest.mark.logs_errors
def test_a_failing_submit_is_logged_and_the_panel_keeps_working(
    factory: MockFactory, make_panel: MakePanel, caplog: pytest.LogCaptureFixture
) -> None:
    calls: list[dict[str, object]] = []

    def submit(command: dict[str, object]) -> None:
        calls.append(command)
        if len(calls) == 1:
            raise RuntimeError("service loop is gone")

    settings = PanelSettings.model_validate({"enabled": True, "shared_pass": 5})
    with Panel(settings, submit, pin_factory=factory, id_prefix="p"):
        press(factory, 5)
        time.sleep(0.06)
        press(factory, 5)
    assert [c["id"] for c in calls] == ["p-1", "p-2"]
    assert "panel: submit failed for {'id': 'p-1', 'action': 'pass'}" in caplog.text


def test_while_the_table_asks_who_led_a_seats_pass_button_names_the_leader(
    factory: MockFactory, sent: Sent, make_panel: MakePanel
) -> None:
    panel = make_panel()
    panel.lead_wanted(True)
    press(factory, 13)  # pass[2]
    assert sent.commands == [{"id": "panel-test-1", "action": "lead", "seat": 2}]

    panel.lead_wanted(False)
    time.sleep(0.06)
    press(factory, 13)
    assert sent.commands[-1] == {"id": "panel-test-2", "action": "pass", "seat": 2}


def test_the_shared_pass_button_never_names_a_leader(
    factory: MockFactory, sent: Sent, make_panel: MakePanel
) -> None:
    panel = make_panel(**{"pass": [], "shared_pass": 5})
    panel.lead_wanted(True)
    press(factory, 5)
    assert sent.commands == [{"id": "panel-test-1", "action": "pass"}]
