"""PanelSettings: the `[panel]` section, checked once at start-up."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from config.panel import PanelSettings

ROOT = Path(__file__).resolve().parents[2]

FOUR_SEATS = """
enabled = true
pass = [5, 6, 13, 19]
undo = "GPIO17"
next_hand = "BOARD13"   # GPIO27
draw = [22, 23, 24, 25]
turn_leds = [12, 16, 20, 21]
alert_led = "J8:7"      # GPIO4
buzzer = 18
hold_time = 2.5
bounce_time = 0.03
"""


def errors(data: dict[str, Any]) -> str:
    with pytest.raises(ValidationError) as caught:
        PanelSettings.model_validate(data)
    return str(caught.value)


def test_defaults_are_a_disabled_panel_with_a_2_second_undo() -> None:
    s = PanelSettings()
    assert not s.enabled
    assert s.pin_uses() == ()
    assert (s.hold_time, s.bounce_time, s.pull_up, s.chirp) == (2.0, 0.05, True, True)


def test_a_toml_section_validates_into_canonical_pin_names() -> None:
    s = PanelSettings.model_validate(tomllib.loads(FOUR_SEATS))
    assert s.pass_ == ("GPIO5", "GPIO6", "GPIO13", "GPIO19")
    assert (s.undo, s.next_hand, s.alert_led, s.buzzer) == ("GPIO17", "GPIO27", "GPIO4", "GPIO18")
    assert s.seats == 4
    assert s.hold_time == 2.5
    assert ("draw[3]", "GPIO25") in s.pin_uses()
    dumped = s.model_dump(mode="json", by_alias=True)
    assert dumped["pass"] == ["GPIO5", "GPIO6", "GPIO13", "GPIO19"]
    assert PanelSettings.model_validate(dumped) == s


def test_settings_are_frozen_and_hashable() -> None:
    s = PanelSettings.model_validate({"shared_pass": 5})
    with pytest.raises(ValidationError):
        s.undo = "GPIO6"
    assert hash(s) == hash(PanelSettings.model_validate({"shared_pass": "GPIO5"}))


def test_a_pin_used_twice_names_both_uses() -> None:
    text = errors({"pass": [17, 6], "undo": "GPIO17"})
    assert "GPIO17 is used by pass[0] and undo" in text


def test_two_spellings_of_one_pin_are_one_pin() -> None:
    text = errors({"turn_leds": ["BOARD11", 5], "buzzer": "BCM17", "alert_led": 17})
    assert "GPIO17 is used by turn_leds[0], alert_led and buzzer" in text


def test_every_clash_is_reported_at_once() -> None:
    text = errors({"pass": [5, 6], "undo": 5, "turn_leds": [6, 7]})
    assert "GPIO5 is used by pass[0] and undo" in text
    assert "GPIO6 is used by pass[1] and turn_leds[0]" in text


@pytest.mark.parametrize("key", ["colour", "pass_", "hold", "PASS"])
def test_an_unknown_key_is_rejected_by_name(key: str) -> None:
    text = errors({"shared_pass": 5, key: 1})
    assert key in text
    assert "Extra inputs are not permitted" in text


def test_a_bad_pin_name_is_rejected_with_its_place() -> None:
    text = errors({"pass": [5, "GPIO99"]})
    assert "pass.1" in text
    assert "'GPIO99' is not a GPIO pin on the 40-pin header" in text


def test_a_power_pin_is_rejected() -> None:
    assert "header pin 2, which is not a GPIO pin" in errors({"buzzer": "BOARD2"})


def test_pass_per_seat_and_shared_pass_exclude_each_other() -> None:
    text = errors({"pass": [5, 6], "shared_pass": 13})
    assert "either pass (one button per seat) or shared_pass" in text
    text = errors({"draw": [5, 6], "shared_draw": 13})
    assert "either draw (one button per seat) or shared_draw" in text


def test_per_seat_lists_must_agree_on_the_number_of_seats() -> None:
    text = errors({"pass": [5, 6, 13, 19], "turn_leds": [12, 16, 20]})
    assert "pass has 4, turn_leds has 3" in text


def test_an_enabled_panel_needs_pins() -> None:
    assert "enabled but no pin is set" in errors({"enabled": True})


@pytest.mark.parametrize(
    ("key", "value"),
    [("hold_time", 0.5), ("hold_time", 11), ("bounce_time", 0), ("bounce_time", 1.0)],
)
def test_timings_are_bounded(key: str, value: float) -> None:
    assert key in errors({"shared_pass": 5, key: value})


def test_a_pull_down_button_on_a_fixed_pull_up_pin_is_refused() -> None:
    text = errors({"undo": "BOARD3", "pull_up": False})
    assert "GPIO2 (used by undo) has a fixed pull-up" in text
    assert PanelSettings.model_validate({"undo": "BOARD3"}).undo == "GPIO2"
    assert PanelSettings.model_validate({"buzzer": 2, "pull_up": False}).buzzer == "GPIO2"


@pytest.mark.process
def test_the_settings_import_without_gpiozero_and_nothing_imports_paho() -> None:
    code = (
        "import sys, hardware, config.panel; "
        "assert 'gpiozero' not in sys.modules, 'gpiozero imported'; "
        "import hardware.panel; assert 'gpiozero' in sys.modules; "
        "assert not any(m.startswith('paho') for m in sys.modules), 'paho imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
