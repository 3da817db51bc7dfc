"""Pin names in the panel settings, checked and spelled one way before any GPIO is touched.

The settings (`config.panel`) use them; the panel itself gets the canonical names.

A pin is given as a BCM number (``17``, ``"17"``) or a gpiozero pin name (``"GPIO17"``,
``"BCM17"``, ``"BOARD11"``, ``"J8:11"``). Every form is turned into the canonical
``"GPIO<n>"`` name, which every gpiozero pin factory understands, so that two spellings of
one pin are seen as the same pin. Physical positions map through the 40-pin J8 header,
which is wired the same on every 40-pin Raspberry Pi (Pi 4, Pi 5, Zero, 3, 400, 500), so
nothing here depends on the model.
"""

from __future__ import annotations

import re

__all__ = ["FIXED_PULL_UP", "HEADER_GPIO", "canonical_pin", "gpio_number"]

# Physical pin on the 40-pin J8 header -> BCM GPIO number (pins not listed are power/ground).
HEADER_GPIO: dict[int, int] = {
    3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23,
    18: 24, 19: 10, 21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5,
    31: 6, 32: 12, 33: 13, 35: 19, 36: 16, 37: 26, 38: 20, 40: 21,
}  # fmt: skip

# GPIO2 and GPIO3 (I2C1) carry 1.8 kOhm pull-ups to 3V3 on every 40-pin board.
FIXED_PULL_UP: frozenset[str] = frozenset({"GPIO2", "GPIO3"})

_HEADER_GPIOS = frozenset(HEADER_GPIO.values())
_BCM = re.compile(r"(?:GPIO|BCM)?(\d{1,2})")
_PHYSICAL = re.compile(r"(?:BOARD|J8:)(\d{1,2})")
_FORMS = "a BCM number 0-27, or GPIO<n>, BCM<n>, BOARD<n> or J8:<n>"


def canonical_pin(value: object) -> str:
    """The canonical gpiozero name (``"GPIO17"``) of a pin given in any accepted form.

    Raises ValueError naming the value and the accepted forms.
    """
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(f"{value!r} is not a pin: give {_FORMS}")
    if isinstance(value, int):
        return _from_bcm(value, value)
    text = value.strip().upper()
    if match := _BCM.fullmatch(text):
        return _from_bcm(int(match.group(1)), value)
    if match := _PHYSICAL.fullmatch(text):
        physical = int(match.group(1))
        if physical not in HEADER_GPIO:
            raise ValueError(
                f"{value!r} is header pin {physical}, which is not a GPIO pin "
                f"(power, ground or no such pin): give {_FORMS}"
            )
        return f"GPIO{HEADER_GPIO[physical]}"
    raise ValueError(f"{value!r} is not a pin name: give {_FORMS}")


def gpio_number(name: str) -> int:
    """The BCM number of a canonical pin name (``"GPIO17"`` -> 17)."""
    return int(name.removeprefix("GPIO"))


def _from_bcm(number: int, given: object) -> str:
    if number not in _HEADER_GPIOS:
        raise ValueError(f"{given!r} is not a GPIO pin on the 40-pin header: give {_FORMS}")
    return f"GPIO{number}"
