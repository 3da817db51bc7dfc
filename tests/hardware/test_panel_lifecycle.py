"""Opening and closing: pins are reserved while open and released by an idempotent close()."""

from __future__ import annotations

import pytest
from gpiozero import LED, Button, Device
from gpiozero.pins.mock import MockFactory

from config.panel import PanelSettings
from hardware import Panel, PanelError, PinFactoryError, PinSetupError
from hardware.patterns import Severity
from tests.hardware.conftest import FOUR_SEATS, MakePanel, Sent, pin, press

ALL_PINS = {**FOUR_SEATS, "undo": 17}


def test_close_is_idempotent_and_releases_every_pin(factory: MockFactory, sent: Sent) -> None:
    settings = PanelSettings.model_validate(ALL_PINS)
    panel = Panel(settings, sent, pin_factory=factory)
    panel.show_turn(1)
    assert pin(factory, 16).state
    panel.close()
    panel.close()
    assert panel.closed
    assert not pin(factory, 16).state  # outputs switched off first
    for _use, name in settings.pin_uses():  # every pin can be claimed again
        LED(name, pin_factory=factory).close()


def test_the_pins_are_reserved_while_open(factory: MockFactory, sent: Sent) -> None:
    with Panel(PanelSettings.model_validate(ALL_PINS), sent, pin_factory=factory) as panel:
        with pytest.raises(Exception, match="GPIO17"):
            Button("GPIO17", pin_factory=factory)
        assert repr(panel) == "<Panel open seats=4>"
    assert repr(panel) == "<Panel closed seats=4>"
    Button("GPIO17", pin_factory=factory).close()


def test_a_closed_panel_ignores_presses_and_state(
    factory: MockFactory, sent: Sent, make_panel: MakePanel
) -> None:
    panel = make_panel()
    panel.close()
    press(factory, 5)
    panel.show_turn(0)
    panel.alert(Severity.ILLEGAL)
    panel.show_alerts([Severity.ILLEGAL])
    assert sent.commands == []
    assert not pin(factory, 12).state
    assert panel.status()["closed"]
    assert panel.status()["alert"] is None


def test_a_pin_in_use_is_named_and_the_pins_already_opened_are_released(
    factory: MockFactory, sent: Sent
) -> None:
    blocker = Button("GPIO27", pin_factory=factory)  # next_hand's pin, opened after pass/draw
    with pytest.raises(PinSetupError, match=r"cannot open next_hand on GPIO27") as caught:
        Panel(PanelSettings.model_validate(ALL_PINS), sent, pin_factory=factory)
    assert isinstance(caught.value, PanelError)
    assert isinstance(caught.value, RuntimeError)
    LED("GPIO5", pin_factory=factory).close()  # pass[0] was released again
    blocker.close()


def test_a_disabled_panel_is_inert_and_loads_no_pin_factory(
    monkeypatch: pytest.MonkeyPatch, sent: Sent
) -> None:
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    settings = PanelSettings.model_validate({**ALL_PINS, "enabled": False})
    with Panel(settings, sent) as panel:
        panel.show_turn(0)
        panel.alert(Severity.FAULT)
        panel.show_alerts([Severity.FAULT])
        assert panel.status() == {
            "enabled": False,
            "closed": True,
            "turn_led": None,
            "alert": None,
            "standing_alerts": 0,
            "pins": {},
        }
    assert Device.pin_factory is None
    assert repr(panel) == "<Panel disabled seats=4>"


def test_no_pin_factory_says_what_to_do(monkeypatch: pytest.MonkeyPatch, sent: Sent) -> None:
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    with pytest.raises(PinFactoryError) as caught:
        Panel(PanelSettings.model_validate(ALL_PINS), sent)
    message = str(caught.value)
    assert "no GPIO pin factory could be loaded" in message
    assert "no-such-factory" in message
    assert "GPIOZERO_PIN_FACTORY=mock" in message
    assert "enabled = false" in message
    assert isinstance(caught.value, ImportError)


def test_the_default_factory_comes_from_gpiozero(
    monkeypatch: pytest.MonkeyPatch, sent: Sent
) -> None:
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    try:
        with Panel(
            PanelSettings.model_validate({"enabled": True, "shared_pass": 5}), sent
        ) as panel:
            assert isinstance(panel.pin_factory, MockFactory)
            press(panel.pin_factory, 5)
        assert [c["action"] for c in sent.commands] == ["pass"]
    finally:
        if Device.pin_factory is not None:
            Device.pin_factory.reset()


@pytest.mark.parametrize("revision", ["c03111", "d04170"], ids=["pi4", "pi5"])
def test_the_same_settings_run_on_a_pi_4_and_a_pi_5(revision: str, sent: Sent) -> None:
    factory = MockFactory(revision=revision)
    settings = PanelSettings.model_validate({**ALL_PINS, "next_hand": "BOARD13"})
    with Panel(settings, sent, pin_factory=factory, id_prefix="p") as panel:
        press(factory, "GPIO27")  # BOARD13
        panel.show_turn(3)
        assert pin(factory, 21).state
    assert sent.commands == [{"id": "p-1", "action": "next_hand"}]
    factory.reset()
