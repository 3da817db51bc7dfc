"""What the panel is told of its wiring: plain values, checked before the panel sees them.

`PanelWiring` names everything `hardware.panel.Panel` reads: the pins (canonical
gpiozero names such as ``"GPIO17"``), their polarity and the timings. The settings'
`[panel]` section (`config.panel.PanelSettings`) is one; the checks (pin names, a pin
used twice, one per seat) are the settings', so hardware imports nothing of ours.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["PanelWiring"]


class PanelWiring(Protocol):
    """The panel's pins and timings (seat lists: seat 0 first)."""

    @property
    def enabled(self) -> bool: ...  # drive the panel at all; false: no GPIO is touched
    @property
    def pass_(self) -> tuple[str, ...]: ...  # a PASS button per seat
    @property
    def shared_pass(self) -> str | None: ...  # or one for the turn seat
    @property
    def undo(self) -> str | None: ...  # acts once held for `hold_time`
    @property
    def next_hand(self) -> str | None: ...
    @property
    def draw(self) -> tuple[str, ...]: ...  # a DRAW button per seat
    @property
    def shared_draw(self) -> str | None: ...  # or one for the turn seat
    @property
    def turn_leds(self) -> tuple[str, ...]: ...
    @property
    def alert_led(self) -> str | None: ...
    @property
    def buzzer(self) -> str | None: ...  # an active buzzer: on/off
    @property
    def pull_up(self) -> bool: ...  # buttons to GND with the internal pull-up
    @property
    def led_active_high(self) -> bool: ...
    @property
    def buzzer_active_high(self) -> bool: ...
    @property
    def hold_time(self) -> float: ...  # seconds
    @property
    def bounce_time(self) -> float: ...  # seconds
    @property
    def chirp(self) -> bool: ...  # tick the buzzer when a press was sent
    @property
    def seats(self) -> int: ...  # how many seats the per-seat pins describe

    def pin_uses(self) -> tuple[tuple[str, str], ...]:
        """Every pin as ``(use, pin)``, e.g. ``("pass[0]", "GPIO5")``."""
        ...
