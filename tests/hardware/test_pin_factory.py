"""GPIO on any 64-bit Pi OS: where lgpio comes from, and what the panel says without it.

The package's own dependency list decides where pip installs lgpio (64-bit ARM Linux,
the Pythons its wheels are built for); the panel's error names the missing piece on
this very machine (no GPIO chips, no lgpio) through gpiozero's real fallback chain.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from gpiozero import Device
from packaging.requirements import Requirement

from config.panel import PanelSettings
from hardware import Panel, PinFactoryError
from hardware.pin_factory import FACTORY_HELP, GpioHost, missing_factory_advice

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
PI = {"sys_platform": "linux", "platform_machine": "aarch64", "python_version": "3.11"}


def lgpio_requirement() -> Requirement:
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    (found,) = [Requirement(r) for r in project["dependencies"] if r.startswith("lgpio")]
    return found


@pytest.mark.parametrize(
    ("where", "installs"),
    [
        (PI, True),  # Debian 12 / Raspberry Pi OS Bookworm, 64-bit
        ({**PI, "python_version": "3.12"}, True),
        ({**PI, "python_version": "3.13"}, False),  # no wheel: python3-lgpio from apt
        ({**PI, "platform_machine": "x86_64"}, False),  # a laptop: mock pins
        ({**PI, "platform_machine": "armv7l"}, False),  # 32-bit: not supported at all
        ({**PI, "sys_platform": "darwin", "platform_machine": "arm64"}, False),
    ],
)
def test_pip_installs_lgpio_on_64_bit_arm_linux_only(where: dict[str, str], installs: bool) -> None:
    requirement = lgpio_requirement()
    assert requirement.marker is not None
    assert requirement.marker.evaluate(where) is installs
    assert requirement.specifier.contains("0.2.2.0")  # the release with aarch64 wheels


def host(**changes: object) -> GpioHost:
    chips = ("/dev/gpiochip0", "/dev/gpiochip4")
    base = {"requested": None, "lgpio": True, "chips": chips, "usable_chips": chips}
    return GpioHost(**{**base, **changes})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("facts", "says"),
    [
        (host(chips=(), usable_chips=()), "no /dev/gpiochip*: this is not a Raspberry Pi"),
        (host(lgpio=False), "sudo apt install python3-lgpio"),
        (host(lgpio=False), "`pip install lgpio` in the venv"),
        (host(usable_chips=()), "may not open /dev/gpiochip0, /dev/gpiochip4"),
        (host(requested="pigpio"), "GPIOZERO_PIN_FACTORY=pigpio is set: unset it"),
        (host(), "lgpio is installed and the GPIO chips are open"),
    ],
)
def test_the_advice_names_what_is_missing(facts: GpioHost, says: str) -> None:
    advice = missing_factory_advice(facts)
    assert says in advice
    assert advice.endswith(FACTORY_HELP)


def test_this_machine_without_gpio_gets_the_reason_from_the_real_fallback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """gpiozero tries lgpio, RPi.GPIO, pigpio and its native factory, all in vain here
    (x86-64 without lgpio; or arm64 under emulation, lgpio installed, no GPIO chips)."""
    assert not GpioHost.here().chips, "this test needs a machine without GPIO chips"
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    settings = PanelSettings.model_validate({"enabled": True, "turn_leds": [5, 6]})
    with pytest.raises(PinFactoryError) as caught:
        Panel(settings, lambda body: None)
    message = str(caught.value)
    assert "Falling back from lgpio: " in message
    assert "no /dev/gpiochip*: this is not a Raspberry Pi" in message
    assert message.endswith(FACTORY_HELP)
