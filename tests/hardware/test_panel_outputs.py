"""Outputs: the turn LEDs follow the turn, the alert LED the standing alerts; the buzzer
sounds each alert raised."""

from __future__ import annotations

import time

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.patterns import BUZZER_PATTERNS, CHIRP, Severity
from tests.hardware.conftest import MakePanel, pin, press, pulses, wait_for

TURN_LEDS = (12, 16, 20, 21)
ALERT_LED = 4
BUZZER = 18


def lasted(durations: list[float], on_time: float) -> bool:
    """Every duration is `on_time`: never shorter (gpiozero waits at least that long), and
    late by less than 0.25 s however busy the machine running the tests is."""
    return all(on_time - 0.005 <= d <= on_time + 0.25 for d in durations)


def lit(factory: MockFactory) -> list[bool]:
    return [pin(factory, n).state for n in TURN_LEDS]


def play_and_wait(factory: MockFactory, beeps: int) -> list[float]:
    """Wait until the buzzer has gone quiet after `beeps` beeps; their lengths."""
    buzzer = pin(factory, BUZZER)
    wait_for(lambda: len(pulses(buzzer)) >= beeps and not buzzer.state, timeout=4.0)
    time.sleep(0.15)
    return pulses(buzzer)


def test_the_turn_seats_led_is_lit(factory: MockFactory, make_panel: MakePanel) -> None:
    panel = make_panel()
    assert lit(factory) == [False] * 4
    panel.show_turn(2)
    assert lit(factory) == [False, False, True, False]
    panel.show_turn(3)
    assert lit(factory) == [False, False, False, True]
    assert panel.status()["turn_led"] == 3


def test_all_turn_leds_are_off_without_a_turn(factory: MockFactory, make_panel: MakePanel) -> None:
    panel = make_panel()
    panel.show_turn(0)
    panel.show_turn(None)
    assert lit(factory) == [False] * 4
    assert panel.status()["turn_led"] is None


def test_a_seat_without_a_led_lights_nothing_and_warns_once(
    factory: MockFactory, make_panel: MakePanel, caplog: pytest.LogCaptureFixture
) -> None:
    panel = make_panel()
    panel.show_turn(1)
    panel.show_turn(5)
    panel.show_turn(5)
    assert lit(factory) == [False] * 4
    assert caplog.text.count("seat 5 has the turn but has no turn LED") == 1


def test_repeating_the_same_turn_does_not_touch_the_leds(
    factory: MockFactory, make_panel: MakePanel
) -> None:
    panel = make_panel()
    panel.show_turn(2)
    led = pin(factory, 20)
    led.clear_states()
    panel.show_turn(2)
    assert len(led.states) == 1


def test_illegal_and_fault_sound_distinct_buzzer_patterns(
    factory: MockFactory, make_panel: MakePanel
) -> None:
    panel = make_panel(chirp=False)
    buzzer = pin(factory, BUZZER)

    buzzer.clear_states()
    panel.alert(Severity.ILLEGAL)
    illegal = play_and_wait(factory, beeps=3)

    buzzer.clear_states()
    panel.alert(Severity.FAULT)
    fault = play_and_wait(factory, beeps=2)

    assert len(illegal) == 3
    assert lasted(illegal, 0.1)
    assert len(fault) == 2
    assert lasted(fault, 0.6)
    assert BUZZER_PATTERNS[Severity.ILLEGAL] != BUZZER_PATTERNS[Severity.FAULT]


def test_a_warning_is_one_short_beep(factory: MockFactory, make_panel: MakePanel) -> None:
    panel = make_panel(chirp=False)
    pin(factory, BUZZER).clear_states()
    panel.alert(Severity.WARNING)
    beeps = play_and_wait(factory, beeps=1)
    assert len(beeps) == 1
    assert lasted(beeps, 0.15)


def test_standing_alerts_are_silent_and_none_puts_the_alert_led_out(
    factory: MockFactory, make_panel: MakePanel
) -> None:
    panel = make_panel(chirp=False)
    buzzer = pin(factory, BUZZER)
    buzzer.clear_states()
    panel.show_alerts([Severity.WARNING])
    assert panel.status()["alert"] == "warning"
    panel.show_alerts([])
    time.sleep(0.2)
    assert len(buzzer.states) == 1  # no sound
    assert panel.status()["alert"] is None
    assert not pin(factory, ALERT_LED).state


def test_the_alert_led_blinks_while_an_alert_stands(
    factory: MockFactory, make_panel: MakePanel
) -> None:
    panel = make_panel()
    led = pin(factory, ALERT_LED)
    led.clear_states()
    panel.show_alerts([Severity.ILLEGAL])
    time.sleep(0.7)
    flashes = pulses(led)
    assert len(flashes) >= 1
    assert lasted(flashes, 0.2)

    panel.show_alerts([])  # the alert no longer stands
    assert panel.status()["alert"] is None
    assert not led.state
    led.clear_states()
    time.sleep(0.3)
    assert len(led.states) == 1  # stays off


def test_the_most_severe_standing_alert_sets_the_led_pattern(make_panel: MakePanel) -> None:
    panel = make_panel()
    warning, illegal, fault = Severity.WARNING, Severity.ILLEGAL, Severity.FAULT
    panel.show_alerts([warning])
    assert panel.status()["alert"] == "warning"
    panel.show_alerts([warning, illegal])
    assert panel.status()["alert"] == "illegal"
    panel.show_alerts([fault, warning, illegal])
    assert panel.status()["alert"] == "fault"
    assert panel.status()["standing_alerts"] == 3
    panel.show_alerts([warning, illegal])
    assert panel.status()["alert"] == "illegal"
    panel.show_alerts([])
    assert panel.status() | {"pins": None} == {
        "enabled": True,
        "closed": False,
        "turn_led": None,
        "alert": None,
        "standing_alerts": 0,
        "pins": None,
    }


def test_sounding_an_alert_does_not_light_the_alert_led(make_panel: MakePanel) -> None:
    panel = make_panel()
    panel.alert(Severity.FAULT)
    assert panel.status()["alert"] is None
    assert panel.status()["standing_alerts"] == 0


def test_a_sent_command_chirps(factory: MockFactory, make_panel: MakePanel) -> None:
    make_panel()
    buzzer = pin(factory, BUZZER)
    buzzer.clear_states()
    press(factory, 5)
    beeps = play_and_wait(factory, beeps=1)
    assert len(beeps) == 1
    assert lasted(beeps, CHIRP.on_time)


def test_a_chirp_never_cuts_an_alert_pattern_short(
    factory: MockFactory, make_panel: MakePanel
) -> None:
    panel = make_panel()
    buzzer = pin(factory, BUZZER)
    buzzer.clear_states()
    panel.alert(Severity.ILLEGAL)
    time.sleep(0.05)
    press(factory, 6)  # a PASS during the illegal-play beeps: sent, but no chirp
    beeps = play_and_wait(factory, beeps=3)
    assert len(beeps) == 3
    assert lasted(beeps, 0.1)


def test_no_chirp_when_disabled(factory: MockFactory, make_panel: MakePanel) -> None:
    make_panel(chirp=False)
    buzzer = pin(factory, BUZZER)
    buzzer.clear_states()
    press(factory, 5)
    time.sleep(0.1)
    assert len(buzzer.states) == 1


def test_active_low_leds_and_buzzer(factory: MockFactory, make_panel: MakePanel) -> None:
    panel = make_panel(led_active_high=False, buzzer_active_high=False)
    assert [pin(factory, n).state for n in TURN_LEDS] == [True] * 4  # all off (high)
    assert pin(factory, BUZZER).state
    panel.show_turn(0)
    assert [pin(factory, n).state for n in TURN_LEDS] == [False, True, True, True]
