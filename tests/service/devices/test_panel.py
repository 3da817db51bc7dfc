"""The panel as a subscriber: a table core drives a panel on gpiozero's mock pins."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from config.panel import PanelSettings
from engine import Tile, rulesets
from engine.game import PlayInput
from hardware.panel import Panel
from service.core import commands as cmd
from service.core.table import TableConfig, TableCore, play_input
from service.devices.panel import PanelDriver
from service.store.journal import Journal

PANEL = {
    "enabled": True,
    "pass": [5, 6],
    "turn_leds": [12, 16],
    "alert_led": 4,
    "buzzer": 18,
    "chirp": False,
}
TURN_LEDS = (12, 16)


class Table:
    """A two-seat straight-block table whose panel is driven by its core's events."""

    def __init__(self, state_dir: Path, factory: MockFactory) -> None:
        self.factory = factory
        self.sent: list[dict[str, Any]] = []
        self.panel = Panel(
            PanelSettings.model_validate(PANEL), self.sent.append, pin_factory=factory
        )
        self.core = TableCore(
            TableConfig(table="t1", rules="straight-block", seats=2),
            Journal(state_dir, "t1"),
            rulesets.load,
        )
        PanelDriver(self.panel).subscribe(self.core.bus)
        self.core.start()

    def lay(self, tile: str) -> None:
        game = self.core.game
        assert game is not None
        judged = game.play(Tile.parse(tile))
        assert judged.ok
        action = game.hand_inputs()[-1]
        assert isinstance(action, PlayInput)
        self.core._commit(play_input(action), judged.events)

    def press(self, gpio: int) -> dict[str, Any]:
        """Press a button; the command it sent, applied to the core."""
        button = self.factory.pin(f"GPIO{gpio}")
        button.drive_low()
        button.drive_high()
        body = self.sent[-1]
        assert self.core.command(cmd.parse_command(json.dumps(body).encode())) is None
        time.sleep(0.06)  # past the button's bounce time, for the next press
        return body

    def lit(self) -> list[bool]:
        return [self.factory.pin(f"GPIO{n}").state for n in TURN_LEDS]

    def alert_led(self) -> Any:
        return self.panel.status()["alert"]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    factory = MockFactory()
    made = Table(tmp_path, factory)
    yield made
    made.panel.close()
    made.core.journal.close()
    factory.reset()


def test_a_lead_nobody_named_asks_the_panel_who_led(table: Table) -> None:
    buzzer = table.factory.pin("GPIO18")
    buzzer.clear_states()
    table.lay("6-6")  # straight-block: the table cannot know who laid it
    assert table.alert_led() == "warning"  # LEAD_UNKNOWN stands
    assert len(buzzer.states) > 1  # and its raising sounded
    assert table.lit() == [False, False]  # no turn seat yet
    assert table.press(6) == {"id": table.sent[-1]["id"], "action": "lead", "seat": 1}
    assert table.alert_led() is None
    assert table.lit() == [True, False]  # seat 0 plays after seat 1's lead
    assert table.press(5)["action"] == "pass"  # no longer naming a leader


def test_the_turn_leds_are_out_once_the_hand_is_counted(table: Table) -> None:
    table.lay("6-6")
    table.press(6)  # seat 1 led
    assert table.lit() == [True, False]
    table.press(5)  # seat 0 knocks
    assert table.lit() == [False, True]
    table.press(6)  # seat 1 knocks: blocked, the hand is counted
    game = table.core.game
    assert game is not None and game.phase.value == "counting"
    assert table.lit() == [False, False]


def test_a_restarted_table_shows_its_state_at_once(tmp_path: Path) -> None:
    factory = MockFactory()
    first = Table(tmp_path, factory)
    first.lay("6-6")
    first.press(6)
    first.panel.close()
    first.core.journal.close()
    factory.reset()
    again = Table(tmp_path, factory)  # the journal rebuilds the game: seat 0 to play
    try:
        assert again.lit() == [True, False]
    finally:
        again.panel.close()
        again.core.journal.close()
        factory.reset()
