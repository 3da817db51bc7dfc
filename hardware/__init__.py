"""The players' panel: buttons, LEDs and a buzzer through gpiozero (see docs/panel.md).

`PanelSettings` (the `[panel]` settings section) imports without gpiozero; `Panel` is
imported on first use, so the settings can be checked on any machine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hardware.errors import HardwareError, PanelError, PinFactoryError, PinSetupError
from hardware.settings import PanelSettings

if TYPE_CHECKING:
    from hardware.panel import Panel

__all__ = [
    "HardwareError",
    "Panel",
    "PanelError",
    "PanelSettings",
    "PinFactoryError",
    "PinSetupError",
]


def __getattr__(name: str) -> Any:
    if name == "Panel":
        from hardware.panel import Panel  # noqa: PLC0415 - gpiozero only when a panel is made

        return Panel
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
