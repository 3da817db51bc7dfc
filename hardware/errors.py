"""The hardware package's exceptions: one root, each also the builtin it resembles."""

from __future__ import annotations

__all__ = ["HardwareError", "PanelError", "PinFactoryError", "PinSetupError"]


class HardwareError(Exception):
    """Root of every error raised by the `hardware` package."""


class PanelError(HardwareError):
    """The players' panel cannot do what was asked."""


class PinFactoryError(PanelError, ImportError):
    """No gpiozero pin factory could be loaded (not on a Raspberry Pi, or no GPIO library)."""


class PinSetupError(PanelError, RuntimeError):
    """A panel pin could not be opened (in use by another program or device, fixed pull...)."""
