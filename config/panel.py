"""`PanelSettings`: the `[panel]` section of the service settings, validated at start-up.

The players' panel (`hardware.panel.Panel`) takes these values as they are (it reads
them through its `hardware.wiring.PanelWiring`); the schema is config's, so that the
settings can be checked without the hardware package.

Pins are BCM numbers or gpiozero pin names (see `config.pins`) and are stored in their
canonical ``"GPIO<n>"`` spelling. Validation rejects unknown keys, bad pin names, a pin
used twice (naming both uses: ``GPIO17 is used by pass[0] and undo``), per-seat lists of
different lengths and contradictory choices (a PASS button per seat *and* a shared one).
This module does not import gpiozero: settings can be checked on any machine.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Annotated, Self

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from config.pins import FIXED_PULL_UP, canonical_pin

__all__ = ["PanelSettings", "PinName"]

PinName = Annotated[str, BeforeValidator(canonical_pin)]
"""A pin in any accepted spelling, stored as its canonical ``"GPIO<n>"`` name."""


class PanelSettings(BaseModel):
    """Pins and timings of the players' panel (TOML section ``[panel]``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    enabled: bool = False
    """Drive the panel at all. When false no GPIO is touched (the Panel is inert)."""

    pass_: tuple[PinName, ...] = Field(default=(), alias="pass")
    """One PASS button per seat, seat 0 first (key ``pass``)."""
    shared_pass: PinName | None = None
    """One PASS button for the whole table: it passes the seat whose turn it is."""
    undo: PinName | None = None
    """UNDO: acts only once held for `hold_time` seconds."""
    next_hand: PinName | None = None
    """NEXT HAND button."""
    draw: tuple[PinName, ...] = ()
    """Optional DRAW button per seat, seat 0 first: one press = one tile drawn."""
    shared_draw: PinName | None = None
    """Optional single DRAW button: one tile drawn by the seat whose turn it is."""
    turn_leds: tuple[PinName, ...] = ()
    """One turn LED per seat, seat 0 first."""
    alert_led: PinName | None = None
    """Lit (blinking by severity) while an alert stands."""
    buzzer: PinName | None = None
    """Active buzzer (on/off, no PWM): alert patterns and the confirmation chirp."""

    pull_up: bool = True
    """Buttons wired between the pin and GND, internal pull-up on (false: to 3V3, pull-down)."""
    led_active_high: bool = True
    """LEDs light when their pin is high (false: wired from 3V3, lit when low)."""
    buzzer_active_high: bool = True
    """Buzzer sounds when its pin is high."""
    hold_time: float = Field(default=2.0, ge=1.0, le=10.0)
    """Seconds UNDO must be held before it acts."""
    bounce_time: float = Field(default=0.05, gt=0.0, le=0.5)
    """Debounce time of every button, in seconds (gpiozero ``bounce_time``)."""
    chirp: bool = True
    """Chirp the buzzer briefly when a button press has been sent as a command."""

    @property
    def seats(self) -> int:
        """How many seats the per-seat pins describe (0 when there are none)."""
        return max(len(self.pass_), len(self.draw), len(self.turn_leds))

    def pin_uses(self) -> tuple[tuple[str, str], ...]:
        """Every configured pin as ``(use, pin)``, e.g. ``("pass[0]", "GPIO5")``."""
        uses: list[tuple[str, str]] = []
        for key, pins in (("pass", self.pass_), ("draw", self.draw), ("turn_leds", self.turn_leds)):
            uses.extend((f"{key}[{seat}]", pin) for seat, pin in enumerate(pins))
        singles = {
            "shared_pass": self.shared_pass,
            "undo": self.undo,
            "next_hand": self.next_hand,
            "shared_draw": self.shared_draw,
            "alert_led": self.alert_led,
            "buzzer": self.buzzer,
        }
        uses.extend((key, pin) for key, pin in singles.items() if pin is not None)
        return tuple(uses)

    def button_uses(self) -> tuple[tuple[str, str], ...]:
        """The ``(use, pin)`` pairs that are buttons (inputs)."""
        outputs = ("turn_leds[", "alert_led", "buzzer")
        return tuple(use for use in self.pin_uses() if not use[0].startswith(outputs))

    @model_validator(mode="after")
    def _check(self) -> Self:
        problems = [
            *self._either_or(),
            *self._seat_counts(),
            *self._pins_used_twice(),
            *self._fixed_pulls(),
        ]
        if self.enabled and not self.pin_uses():
            problems.append(
                "the panel is enabled but no pin is set: set its pins, or enabled = false"
            )
        if problems:
            raise ValueError("; ".join(problems))
        return self

    def _either_or(self) -> list[str]:
        return [
            f"give either {many} (one button per seat) or {shared} (one button for the "
            "turn seat), not both"
            for many, pins, shared, pin in (
                ("pass", self.pass_, "shared_pass", self.shared_pass),
                ("draw", self.draw, "shared_draw", self.shared_draw),
            )
            if pins and pin is not None
        ]

    def _seat_counts(self) -> list[str]:
        counts = {
            key: len(pins)
            for key, pins in (
                ("pass", self.pass_),
                ("draw", self.draw),
                ("turn_leds", self.turn_leds),
            )
            if pins
        }
        if len(set(counts.values())) <= 1:
            return []
        listed = ", ".join(f"{key} has {n}" for key, n in counts.items())
        return [
            f"the per-seat pin lists disagree on the number of seats ({listed}): give one per seat"
        ]

    def _pins_used_twice(self) -> list[str]:
        by_pin: defaultdict[str, list[str]] = defaultdict(list)
        for use, pin in self.pin_uses():
            by_pin[pin].append(use)
        return [
            f"{pin} is used by {_and_list(uses)}" for pin, uses in by_pin.items() if len(uses) > 1
        ]

    def _fixed_pulls(self) -> list[str]:
        if self.pull_up:
            return []
        return [
            f"{pin} (used by {use}) has a fixed pull-up resistor on the Raspberry Pi: "
            "wire that button to GND and set pull_up = true, or use another pin"
            for use, pin in self.button_uses()
            if pin in FIXED_PULL_UP
        ]


def _and_list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
