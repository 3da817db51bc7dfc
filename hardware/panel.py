"""The players' panel: PASS / UNDO / NEXT HAND / DRAW buttons, turn LEDs, alert LED, buzzer.

The panel talks to the service only through command payloads (spec/mqtt.md, Commands)
handed to ``submit``, and shows what the service tells it in plain values: whose turn it
is (`Panel.show_turn`), the severities of the alerts that stand (`Panel.show_alerts`), an
alert raised (`Panel.alert`, one buzzer pattern) and whether the table asks who led
(`Panel.lead_wanted`). It knows no alert code and no game: the service's panel
subscriber (`service.subscribers.PanelDriver`) translates.

Threads: ``submit`` is called from gpiozero's threads: the pin factory's edge-callback
thread for presses (lgpio's callback thread on a Pi; with MockFactory, whichever thread
drives the pin) and the UNDO button's hold thread. It must only hand the command over
(e.g. ``loop.call_soon_threadsafe``) and return; an exception it raises is logged.
The `show_*`, `alert` and `lead_wanted` calls are meant for the service's worker; they
take a lock, so any thread may call them.
"""

from __future__ import annotations

import logging
import threading
import time
import warnings
from collections.abc import Callable, Iterable
from types import TracebackType
from typing import Any, Self, TypeVar

from gpiozero import LED, Button, Buzzer, Device, DigitalInputDevice

from hardware.commands import Action, ButtonRole, CommandIds, Submit
from hardware.debounce import QuietGuard
from hardware.errors import PinFactoryError, PinSetupError
from hardware.patterns import BUZZER_PATTERNS, CHIRP, LED_PATTERNS, Pattern, Severity, most_severe
from hardware.pin_factory import GpioHost, missing_factory_advice
from hardware.wiring import PanelWiring

__all__ = ["Panel"]

logger = logging.getLogger(__name__)

_Device = TypeVar("_Device")


class Panel:
    """The players' panel, built from its `PanelWiring`; a context manager like gpiozero devices.

    ``pin_factory`` is injectable like every gpiozero device's (e.g. ``MockFactory()``);
    None means gpiozero's default (lgpio on a Pi 4 or Pi 5, or $GPIOZERO_PIN_FACTORY).
    With ``settings.enabled`` false the panel is inert: it opens no pin, loads no pin
    factory, and what it is told to show changes nothing.
    """

    def __init__(
        self,
        settings: PanelWiring,
        submit: Submit,
        *,
        pin_factory: Any = None,
        id_prefix: str | None = None,
    ) -> None:
        self.settings = settings
        self._submit = submit
        self._ids = CommandIds(id_prefix)
        self._lock = threading.RLock()
        self._closed = False
        self._buttons: list[DigitalInputDevice] = []
        self._turn_leds: list[LED] = []
        self._alert_led: LED | None = None
        self._buzzer: Buzzer | None = None
        self._shown_turn: int | None = None
        self._shown_alert: Severity | None = None
        self._standing: tuple[Severity, ...] = ()
        self._lead_wanted = False
        self._warned_seats: set[int] = set()
        self._buzzer_busy_until = 0.0
        self.pin_factory: Any = None
        if not settings.enabled:
            logger.info("panel: disabled in the settings, no GPIO used")
            return
        self.pin_factory = _resolve_factory(pin_factory)
        try:
            self._open_devices()
        except BaseException:
            self.close()
            raise
        logger.info("panel: ready on %s", ", ".join(f"{u}={p}" for u, p in settings.pin_uses()))

    # -- set-up ------------------------------------------------------------------------

    def _open_devices(self) -> None:
        """Outputs first, so that no press is sent before the panel can show anything."""
        s = self.settings
        for seat, pin in enumerate(s.turn_leds):
            self._turn_leds.append(self._open(f"turn_leds[{seat}]", pin, self._make_led))
        if s.alert_led is not None:
            self._alert_led = self._open("alert_led", s.alert_led, self._make_led)
        if s.buzzer is not None:
            self._buzzer = self._open("buzzer", s.buzzer, self._make_buzzer)
        for role, pin in _button_roles(s):
            self._buttons.append(self._open_button(role, pin))

    def _open(self, use: str, pin: str, make: Callable[[str], _Device]) -> _Device:
        try:
            return make(pin)
        except Exception as exc:
            raise PinSetupError(
                f"panel: cannot open {use} on {pin}: {exc} "
                "(is the pin used by another program or device tree overlay?)"
            ) from exc

    def _make_led(self, pin: str) -> LED:
        return LED(
            pin,
            active_high=self.settings.led_active_high,
            initial_value=False,
            pin_factory=self.pin_factory,
        )

    def _make_buzzer(self, pin: str) -> Buzzer:
        return Buzzer(
            pin,
            active_high=self.settings.buzzer_active_high,
            initial_value=False,
            pin_factory=self.pin_factory,
        )

    def _open_button(self, role: ButtonRole, pin: str) -> DigitalInputDevice:
        """UNDO is a gpiozero Button (it has a hold thread); the others need no hold thread."""
        s = self.settings
        if role.held:
            button = self._open(role.use, pin, self._make_held_button)
            button.when_held = self._on_held(role)
            return button

        def make(pin: str) -> DigitalInputDevice:
            return DigitalInputDevice(
                pin, pull_up=s.pull_up, bounce_time=s.bounce_time, pin_factory=self.pin_factory
            )

        device = self._open(role.use, pin, make)
        guard = QuietGuard(s.bounce_time)
        device.when_activated = self._on_pressed(role, guard)
        device.when_deactivated = self._on_released(guard)
        return device

    def _make_held_button(self, pin: str) -> Button:
        s = self.settings
        return Button(
            pin,
            pull_up=s.pull_up,
            bounce_time=s.bounce_time,
            hold_time=s.hold_time,
            pin_factory=self.pin_factory,
        )

    # -- buttons (called from gpiozero's threads) ----------------------------------------

    def _on_pressed(self, role: ButtonRole, guard: QuietGuard) -> Callable[[], None]:
        def pressed() -> None:
            if guard.edge():
                self._send(role)
            else:
                logger.debug("panel: %s bounced, ignored", role.use)

        return pressed

    @staticmethod
    def _on_released(guard: QuietGuard) -> Callable[[], None]:
        def released() -> None:
            guard.edge()

        return released

    def _on_held(self, role: ButtonRole) -> Callable[[], None]:
        def held() -> None:
            self._send(role)

        return held

    def _send(self, role: ButtonRole) -> None:
        if self.closed:
            return
        command = role.command(self._ids.next(), naming_leader=self._naming_leader())
        logger.info("panel: %s -> %s", role.use, command)
        try:
            self._submit(command)
        except Exception:
            logger.exception("panel: submit failed for %s", command)
            return
        if self.settings.chirp:
            self._play(CHIRP, interrupt=False)

    # -- what the service shows ----------------------------------------------------------

    def show_turn(self, seat: int | None) -> None:
        """Light the turn LED of `seat` alone; None puts every turn LED out."""
        with self._lock:
            if not self.closed:
                self._show_turn(seat)

    def show_alerts(self, standing: Iterable[Severity]) -> None:
        """The severities of the alerts that stand: the alert LED blinks the pattern of
        the most severe, and is off when none stands. It never sounds the buzzer."""
        with self._lock:
            if self.closed:
                return
            self._standing = tuple(standing)
            self._show_alerts()

    def alert(self, severity: Severity) -> None:
        """An alert was raised: sound its severity's buzzer pattern once."""
        with self._lock:
            if not self.closed:
                self._play(BUZZER_PATTERNS[severity], interrupt=True)

    def lead_wanted(self, wanted: bool) -> None:
        """While `wanted`, the table asks who led: a seat's PASS button names that seat."""
        with self._lock:
            self._lead_wanted = wanted

    def _show_turn(self, seat: int | None) -> None:
        if seat is not None and seat >= len(self._turn_leds):
            if self._turn_leds and seat not in self._warned_seats:
                self._warned_seats.add(seat)
                logger.warning("panel: seat %d has the turn but has no turn LED", seat)
            seat = None
        if seat == self._shown_turn:
            return
        for index, led in enumerate(self._turn_leds):
            led.value = index == seat
        self._shown_turn = seat

    def _show_alerts(self) -> None:
        severity = most_severe(self._standing)
        if severity == self._shown_alert:
            return
        self._shown_alert = severity
        if self._alert_led is None:
            return
        if severity is None:
            self._alert_led.off()
        else:
            _blink(self._alert_led, LED_PATTERNS[severity])

    def _naming_leader(self) -> bool:
        """True while the table asks who led (`lead_wanted`)."""
        with self._lock:
            return self._lead_wanted

    def _play(self, pattern: Pattern, *, interrupt: bool) -> None:
        """Play `pattern` on the buzzer; unless `interrupt`, not over a pattern still playing."""
        with self._lock:
            if self._buzzer is None or self._closed:
                return
            now = time.monotonic()
            if not interrupt and now < self._buzzer_busy_until:
                return
            self._buzzer_busy_until = now + (pattern.duration or 0.0)
            _blink(self._buzzer, pattern)

    # -- status and life cycle -------------------------------------------------------------

    @property
    def enabled(self) -> bool:
        """True when the settings enable the panel (it then drives its pins)."""
        return self.settings.enabled

    @property
    def closed(self) -> bool:
        """True once `close` has been called (or when the panel is disabled)."""
        return self._closed or not self.enabled

    def status(self) -> dict[str, Any]:
        """The panel's status as a plain dict (for logs and diagnostics)."""
        with self._lock:
            return {
                "enabled": self.enabled,
                "closed": self.closed,
                "turn_led": self._shown_turn,
                "alert": None if self._shown_alert is None else self._shown_alert.value,
                "standing_alerts": len(self._standing),
                "pins": dict(self.settings.pin_uses()) if self.enabled else {},
            }

    def close(self) -> None:
        """Switch the outputs off and release every pin. Safe to call more than once."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            buttons, self._buttons = self._buttons, []
            outputs: list[LED | Buzzer] = [*self._turn_leds]
            outputs += [d for d in (self._alert_led, self._buzzer) if d is not None]
            self._turn_leds, self._alert_led, self._buzzer = [], None, None
        for button in buttons:
            _close(button, button.close)
        for output in outputs:
            _close(output, output.off, output.close)
        if self.enabled:
            logger.info("panel: closed")

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "disabled" if not self.enabled else "closed" if self._closed else "open"
        return f"<Panel {state} seats={self.settings.seats}>"


def _button_roles(s: PanelWiring) -> list[tuple[ButtonRole, str]]:
    roles = [(ButtonRole(f"pass[{i}]", Action.PASS, i), pin) for i, pin in enumerate(s.pass_)]
    roles += [(ButtonRole(f"draw[{i}]", Action.DRAW, i), pin) for i, pin in enumerate(s.draw)]
    singles = (
        ("shared_pass", Action.PASS, s.shared_pass),
        ("shared_draw", Action.DRAW, s.shared_draw),
        ("undo", Action.UNDO, s.undo),
        ("next_hand", Action.NEXT_HAND, s.next_hand),
    )
    roles += [(ButtonRole(use, action), pin) for use, action, pin in singles if pin is not None]
    return roles


def _resolve_factory(pin_factory: Any) -> Any:
    """The injected factory, else gpiozero's default, loaded now with a helpful error."""
    if pin_factory is not None:
        return pin_factory
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            Device.ensure_pin_factory()
        except Exception as exc:
            tried = "; ".join(str(w.message) for w in caught)
            detail = f" ({tried})" if tried else ""
            raise PinFactoryError(
                f"panel: no GPIO pin factory could be loaded: {exc}{detail}. "
                f"{missing_factory_advice(GpioHost.here())}"
            ) from exc
    for warning in caught:
        logger.warning("panel: %s", warning.message)
    return Device.pin_factory


def _close(device: object, *steps: Callable[[], object]) -> None:
    """Run each step (off, close) even when an earlier one fails; failures are logged."""
    for step in steps:
        try:
            step()
        except Exception as exc:
            logger.warning("panel: closing %r failed: %s", device, exc)


def _blink(device: LED | Buzzer, pattern: Pattern) -> None:
    device.blink(
        on_time=pattern.on_time, off_time=pattern.off_time, n=pattern.count, background=True
    )
