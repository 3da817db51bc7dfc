"""doctor's GPIO check: the Pi's GPIO chips, and the panel's pins opened through
gpiozero (its mock pin factory where GPIOZERO_PIN_FACTORY=mock)."""

from __future__ import annotations

import glob
import os
from collections.abc import Sequence

from cli.doctor.findings import Finding, ok, problem, skipped
from cli.doctor.host import service_holding
from config.settings import Settings

# --- GPIO -------------------------------------------------------------------------------


def check_gpio(settings: Settings, timeout: float) -> list[Finding]:
    if not settings.panel.enabled:
        return [skipped("gpio", "no panel ([panel] enabled = false)")]
    if os.environ.get("GPIOZERO_PIN_FACTORY", "").lower() != "mock":
        chips = _gpio_chips()
        if chips is not None:
            return [chips]
    return [_open_panel(settings)]


def _gpio_chips() -> Finding | None:
    """What stands between this user and the Pi's GPIO chips, or None."""
    chips = sorted(glob.glob("/dev/gpiochip*"))
    if not chips:
        return problem(
            "gpio",
            "no /dev/gpiochip*: this is not a Raspberry Pi (or GPIO is off)",
            "run on the Pi, or set GPIOZERO_PIN_FACTORY=mock to try without GPIO",
        )
    service = service_holding(chips)
    if service is not None:
        return skipped(
            "gpio",
            f"the running service (pid {service}) has the GPIO chip: stop it to check the pins",
        )
    denied = [chip for chip in chips if not os.access(chip, os.R_OK | os.W_OK)]
    if denied:
        return problem(
            "gpio",
            f"this user may not open {', '.join(denied)}",
            "add the user to the gpio group (sudo usermod -aG gpio domino), then log in again",
        )
    return None


def _open_panel(settings: Settings) -> Finding:
    from hardware.errors import PanelError  # noqa: PLC0415
    from hardware.panel import Panel  # noqa: PLC0415
    from hardware.pin_factory import GpioHost, missing_factory_advice  # noqa: PLC0415

    pins = settings.panel.pin_uses()
    try:
        with Panel(settings.panel, lambda body: None) as panel:
            factory = type(panel.pin_factory).__name__
    except PanelError as exc:
        busy = "cannot open" in str(exc)
        return problem(
            "gpio",
            str(exc),
            "stop whatever holds the pin (sudo systemctl stop domino-table) or pick a free pin "
            "in [panel]"
            if busy
            else missing_factory_advice(GpioHost.here()),
        )
    return ok("gpio", f"{factory}: {len(pins)} panel pins free ({_pin_list(pins)})")


def _pin_list(pins: Sequence[tuple[str, str]]) -> str:
    return ", ".join(f"{use}={pin}" for use, pin in pins)
