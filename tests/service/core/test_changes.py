"""The table core's unit of work (`Changes`) and its standing alerts (`StandingAlerts`),
each on its own: a change is stored whole and told once stored, or put back; while the
journal cannot store the table says so, takes nothing and tries again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import Game, Tile, rulesets
from engine.alerts import AlertCode, Severity
from engine.game import Mode
from engine.surface import Snapshot
from service.core.alerts import LEAD, StandingAlerts
from service.core.bus import Bus
from service.core.changes import NOT_SAVED, RETRY_S, Changes, CommandRefused
from service.core.table_events import AlertRaised, AlertResolved, TableAlert
from service.core.table_memory import CoreMemory, Moment
from service.store.journal import Journal, JournalError, JournalEvent


class Table:
    """A table that records what its changes ask of it."""

    def __init__(self, language: str | None = "en") -> None:
        self.language = language
        self.memory = CoreMemory(game_id="g1")
        self.asked: list[tuple[str, object]] = []

    @property
    def game_id(self) -> str:
        return self.memory.game_id

    def can_say(self) -> str | None:
        return self.language

    def remember(self) -> Moment:
        return Moment(self.memory, (), None, {})

    def put_back(self, moment: Moment, *, replay: bool) -> None:
        self.asked.append(("put_back", replay))
        self.memory = moment.core

    def unsaved(self, alert: TableAlert, event: JournalEvent) -> None:
        self.asked.append(("unsaved", event))

    def saved_again(self) -> None:
        self.asked.append(("saved_again", None))

    def catch_up(self, held: Snapshot | None) -> None:
        self.asked.append(("catch_up", held))


class Clock:
    now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    journal = Journal(tmp_path, "t1")
    yield journal
    journal.close()


def changes_of(table: Table, journal: Journal, clock: Clock) -> tuple[Changes, list[object]]:
    bus = Bus()
    heard: list[object] = []
    bus.subscribe(str, heard.append)
    return Changes(table, "t1", journal, bus, clock), heard


def cannot_store() -> None:
    raise JournalError("journal: cannot write (disk full)")


def test_a_change_is_told_once_stored_and_its_parts_join_it(journal: Journal) -> None:
    table = Table()
    changes, heard = changes_of(table, journal, Clock())
    with changes.change():
        changes.tell(["a"])
        with changes.change():  # a part of the change under way
            journal.put("k", 1)
            changes.tell(["b"])
        assert heard == []  # nothing told before the whole change is stored
    assert heard == ["a", "b"] and journal.get("k") == 1
    changes.tell(["c"])  # outside a change: told at once
    assert heard == ["a", "b", "c"] and table.asked == []


@pytest.mark.parametrize(
    ("error", "game_changes", "replay"),
    [(ValueError, True, True), (CommandRefused, True, False), (ValueError, False, False)],
)
def test_a_change_that_fails_is_put_back_and_tells_nothing(
    journal: Journal, error: type[Exception], game_changes: bool, replay: bool
) -> None:
    table = Table()
    changes, heard = changes_of(table, journal, Clock())
    with pytest.raises(error), changes.change(game_changes=game_changes):
        table.memory = CoreMemory(game_id="g2")
        journal.put("k", 1)
        changes.tell(["a"])
        raise error("no")
    assert table.asked == [("put_back", replay)] and table.memory.game_id == "g1"
    assert heard == [] and journal.get("k") is None  # the transaction rolled back
    assert changes.saving  # a fault of ours is no outage


def test_a_change_the_journal_cannot_store_is_an_outage_until_it_stores_again(
    journal: Journal,
) -> None:
    table, clock = Table(), Clock()
    changes, _ = changes_of(table, journal, clock)

    assert changes.attempt(cannot_store) is False
    assert table.asked[0] == ("put_back", True)
    kind, event = table.asked[1]
    assert kind == "unsaved" and isinstance(event, JournalEvent)
    assert event.seq == 1 and event.payload["code"] == "DISK_FULL"
    assert event.payload["game_id"] == "g1" and event.payload["table"] == "t1"
    assert not changes.saving and changes.refusal == event.payload["message"]
    assert journal.event(1) is None  # published under a seq kept beside the journal
    held = Snapshot(())
    changes.hold(held)
    changes.retry()  # too early: nothing
    assert len(table.asked) == 2
    clock.now += RETRY_S
    changes.retry()
    assert table.asked[2:] == [("saved_again", None), ("catch_up", held)]
    assert changes.saving and changes.refusal is None
    assert journal.event(1) == event  # stored as published


def test_with_no_game_an_outage_says_nothing(journal: Journal) -> None:
    table = Table(language=None)
    changes, _ = changes_of(table, journal, Clock())
    assert not changes.attempt(cannot_store)
    assert changes.saving and [k for k, _ in table.asked] == ["put_back"]


# --- the standing alerts ------------------------------------------------------------------------


def test_an_alert_stands_once_until_resolved_and_is_kept_as_published(journal: Journal) -> None:
    alerts = StandingAlerts(lambda: journal.last_seq() + 1)
    raised = alerts.stand("source:board", AlertCode.BOARD_OFFLINE, Severity.FAULT, "off")
    assert [type(e) for e in raised] == [AlertRaised] and raised[0].alert.id == "board_offline-1"
    assert alerts.stand("source:board", AlertCode.BOARD_OFFLINE, Severity.FAULT, "off") == []
    assert alerts.as_dict() == []  # not published yet: nothing to keep
    payload = {"code": "BOARD_OFFLINE", "severity": "fault", "message": "off", "resolved": False}
    stored = journal.record(None, [("alert", {**payload, "id": "board_offline-1"})])
    alerts.published(raised, stored)
    assert alerts.shown() == [stored[0].payload] and alerts.as_dict() == [["source:board", 1]]
    again = StandingAlerts(lambda: 0)
    again.recall(alerts.as_dict(), journal.event)
    assert again.value == alerts.value
    (resolved,) = alerts.resolve("source:board")
    assert isinstance(resolved, AlertResolved) and resolved.raised == stored[0]
    assert alerts.value == () and alerts.resolve("source:board") == []


def test_the_lead_alert_stands_while_nobody_said_who_led() -> None:
    game = Game(rulesets.load("straight-block"), 2, mode=Mode.TABLE)
    game.start()
    alerts = StandingAlerts(lambda: 7)
    assert alerts.lead(game, "en") == []  # nothing laid yet
    assert game.play(Tile.parse("6-6")).ok
    (raised,) = alerts.lead(game, "en")
    assert isinstance(raised, AlertRaised) and raised.alert.key == LEAD
    assert raised.alert.tile == "6-6" and raised.alert.id == "lead_unknown-7"
    assert alerts.lead(game, "en") == []  # it stands already
    assert alerts.stand(NOT_SAVED, AlertCode.DISK_FULL, Severity.FAULT, "x") != []
    assert game.undo().ok
    (resolved,) = alerts.lead(game, "en")
    assert isinstance(resolved, AlertResolved) and resolved.alert == raised.alert
    assert [a.key for a in alerts.alerts()] == [NOT_SAVED]
