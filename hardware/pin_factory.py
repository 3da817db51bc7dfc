"""Why no gpiozero pin factory could be loaded, and what to do about it.

On a Raspberry Pi 4 or 5 with a 64-bit OS the panel runs on gpiozero's lgpio factory:
the only one that drives a Pi 5's GPIO, and one that needs no root (it opens
`/dev/gpiochip*`, group gpio). Its `lgpio` module comes from one of two places:

- Raspberry Pi OS: apt's `python3-lgpio`, which the installed venv sees through
  `--system-site-packages` (`scripts/install-pi.sh` installs both);
- any other Linux on 64-bit ARM (plain Debian 12 arm64 on a Pi, which has no
  `python3-lgpio`): the `lgpio` wheel from the package index, which pip installs with
  domino-table there (the environment marker in `pyproject.toml`, Python 3.11 and 3.12,
  for which the wheel is built).

Elsewhere (a laptop, CI) there is no GPIO: the panel runs on gpiozero's mock pins.
"""

from __future__ import annotations

import glob
import importlib.util
import os
from dataclasses import dataclass

__all__ = ["FACTORY_HELP", "GpioHost", "missing_factory_advice"]

FACTORY_HELP = (
    "set GPIOZERO_PIN_FACTORY=mock to run without GPIO (testing), "
    "or disable the panel ([panel] enabled = false)"
)
LGPIO_HELP = (
    "install lgpio: on Raspberry Pi OS `sudo apt install python3-lgpio` (the venv made by "
    "scripts/install-pi.sh sees it); on another 64-bit ARM Linux `pip install lgpio` in "
    "the venv (domino-table installs it there on Python 3.11 and 3.12)"
)


@dataclass(frozen=True)
class GpioHost:
    """What decides which pin factory can load: the requested one, lgpio, the GPIO chips."""

    requested: str | None
    lgpio: bool
    chips: tuple[str, ...]
    usable_chips: tuple[str, ...]

    @classmethod
    def here(cls) -> GpioHost:
        chips = tuple(sorted(glob.glob("/dev/gpiochip*")))
        return cls(
            requested=os.environ.get("GPIOZERO_PIN_FACTORY") or None,
            lgpio=importlib.util.find_spec("lgpio") is not None,
            chips=chips,
            usable_chips=tuple(c for c in chips if os.access(c, os.R_OK | os.W_OK)),
        )


def missing_factory_advice(host: GpioHost) -> str:
    """What to do when gpiozero loaded no pin factory on `host`; ends with FACTORY_HELP."""
    if host.requested is not None:
        return (
            f"GPIOZERO_PIN_FACTORY={host.requested} is set: unset it to let gpiozero choose "
            f"(lgpio on a Pi), or {FACTORY_HELP}"
        )
    if not host.chips:
        return f"no /dev/gpiochip*: this is not a Raspberry Pi (or GPIO is off); {FACTORY_HELP}"
    if not host.lgpio:
        return (
            f"the Pi's GPIO chips are there but not the lgpio module: {LGPIO_HELP}; {FACTORY_HELP}"
        )
    if not host.usable_chips:
        return (
            f"this user may not open {', '.join(host.chips)}: add it to the gpio group "
            f"(sudo usermod -aG gpio domino), then log in again; {FACTORY_HELP}"
        )
    return f"lgpio is installed and the GPIO chips are open to this user; {FACTORY_HELP}"
