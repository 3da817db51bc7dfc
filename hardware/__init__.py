"""The players' panel: buttons, LEDs and a buzzer through gpiozero (see docs/design/panel.md).

It imports nothing of the project outside `hardware/`: its wiring comes as plain values
(`PanelWiring`; the settings' `config.panel.PanelSettings` is one), what it shows as
plain calls. `Panel` is imported on first use, so importing `hardware` needs no gpiozero.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hardware.errors import HardwareError, PanelError, PinFactoryError, PinSetupError
from hardware.wiring import PanelWiring

if TYPE_CHECKING:
    from hardware.panel import Panel

__all__ = [
    "HardwareError",
    "Panel",
    "PanelError",
    "PanelWiring",
    "PinFactoryError",
    "PinSetupError",
]


def __getattr__(name: str) -> Any:
    if name == "Panel":
        from hardware.panel import Panel  # noqa: PLC0415 - gpiozero only when a panel is made

        return Panel
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
