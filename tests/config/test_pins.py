"""Pin names: every accepted spelling maps to gpiozero's canonical name, others are refused."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from config.pins import HEADER_GPIO, canonical_pin, gpio_number


@pytest.mark.parametrize(
    "given", [17, "17", "GPIO17", "gpio17", "BCM17", " BCM17 ", "BOARD11", "J8:11", "j8:11"]
)
def test_every_spelling_of_gpio17_is_gpio17(given: object) -> None:
    assert canonical_pin(given) == "GPIO17"
    assert gpio_number(canonical_pin(given)) == 17


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ("GPIO99", "not a GPIO pin on the 40-pin header"),
        (28, "not a GPIO pin on the 40-pin header"),
        (-1, "not a GPIO pin on the 40-pin header"),
        ("BOARD1", "header pin 1, which is not a GPIO pin"),
        ("J8:6", "header pin 6, which is not a GPIO pin"),
        ("BOARD41", "header pin 41"),
        ("WPI0", "not a pin name"),
        ("pin seventeen", "not a pin name"),
        ("", "not a pin name"),
        (True, "not a pin"),
        (17.0, "not a pin"),
        (None, "not a pin"),
    ],
)
def test_bad_pins_are_refused_with_the_accepted_forms(given: object, says: str) -> None:
    with pytest.raises(ValueError, match=says) as caught:
        canonical_pin(given)
    assert "BOARD<n>" in str(caught.value)


@pytest.mark.parametrize(
    "revision",
    ["a02082", "c03111", "d04170"],  # Pi 3B, Pi 4B, Pi 5B
)
def test_header_table_agrees_with_gpiozero(revision: str) -> None:
    board = MockFactory(revision=revision).board_info
    for physical in range(1, 41):
        (_header, info), *_ = board.find_pin(f"J8:{physical}")
        if physical in HEADER_GPIO:
            assert info.name == f"GPIO{HEADER_GPIO[physical]}"
        else:
            assert "gpio" not in info.interfaces
