"""A full disk: the state directory on a small tmpfs filled to its last byte.

A change the journal cannot store leaves the table exactly as it was (the game, the
reconciler, what the core knows); the table raises a standing fault alert, published
under a seq kept beside the journal, shown on the panel (alert LED, buzzer) and the
display; commands are refused with the reason; once space is freed the table stores the
alert, resolves it and judges the surface it missed, by itself.

The tmpfs is mounted by the test (tests run as root here and in CI): a test that cannot
mount one fails.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from config.panel import PanelSettings
from engine import Tile, rulesets
from engine.geometry import Placer
from engine.inputs import Lead, Rename
from engine.layout import OpenEnd
from engine.surface import SeenTile, Snapshot
from hardware.panel import Panel
from hardware.patterns import Severity as PanelSeverity
from service.core import commands as cmd
from service.core.table import RETRY_S, TableConfig, TableCore
from service.core.table_events import Recorded
from service.devices.panel import PanelDriver
from service.store.journal import Journal
from tests.display.conftest import start_display_on
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.spec import validate
from tests.service.faults import P, Rig, rig_for, statuses, wait

pytestmark = pytest.mark.process

PANEL = {"enabled": True, "pass": [5, 6], "alert_led": 4, "buzzer": 18, "chirp": False}


class SmallDisk:
    """A tmpfs of `size` mounted at `path`; `fill()` takes its last byte."""

    def __init__(self, path: Path, size: str) -> None:
        self.path = path
        path.mkdir(parents=True)
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(path)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            pytest.fail(f"cannot mount a tmpfs at {path} (the test runs as root): {done.stderr}")
        self.filler = path / "filler"

    def fill(self) -> None:
        """Write until the file system refuses a single byte more."""
        fd = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            for size in (1 << 20, 1 << 16, 4096, 512, 64, 8, 1):
                chunk = b"\0" * size
                while True:
                    try:
                        if os.write(fd, chunk) < size:
                            break
                    except OSError as exc:
                        if exc.errno != errno.ENOSPC:
                            raise
                        break
        finally:
            os.close(fd)
        assert os.statvfs(self.path).f_bavail == 0

    def free(self) -> None:
        self.filler.unlink()

    def unmount(self) -> None:
        if subprocess.run(["umount", str(self.path)], check=False).returncode != 0:
            subprocess.run(["umount", "-l", str(self.path)], check=True)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[SmallDisk]:
    disk = SmallDisk(tmp_path / "state", "2m")
    try:
        yield disk
    finally:
        disk.unmount()


# --- the core, on the small disk, with a panel on mock pins ------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Table:
    """A straight-block table for two on the small disk; its panel on mock pins."""

    def __init__(self, state_dir: Path, factory: MockFactory) -> None:
        self.clock = Clock()
        self.journal = Journal(state_dir, "t1")
        self.core = TableCore(
            TableConfig(table="t1", rules="straight-block", seats=2),
            self.journal,
            rulesets.load,
            clock=self.clock,
        )
        self.factory = factory
        self.panel = Panel(PanelSettings.model_validate(PANEL), lambda _: None, pin_factory=factory)
        self.sounded: list[PanelSeverity] = []  # what the buzzer was told to sound
        sound = self.panel.alert

        def alert(severity: PanelSeverity) -> None:
            self.sounded.append(severity)
            sound(severity)

        self.panel.alert = alert  # type: ignore[method-assign]
        PanelDriver(self.panel).subscribe(self.core.bus)
        self.recorded: list[Recorded] = []
        self.core.bus.subscribe(Recorded, self.recorded.append)
        self.core.start()
        self.placer = Placer(900, 600)
        self.coords: list[SeenTile] = []
        self.surface: list[SeenTile] = []

    def lay(self, tile: str, end: OpenEnd | None) -> None:
        game = self.core.game
        assert game is not None
        seen = self.placer.place(game.layout, self.coords, Tile.parse(tile), end)
        self.surface.append(seen)
        self.look()

    def look(self) -> None:
        self.clock.now += 0.2
        self.core.observe(Snapshot(tuple(self.surface)))
        game = self.core.game
        assert game is not None and self.core.reconciler is not None
        self.coords = [p for p in self.core.reconciler.placed() if p is not None]

    def end(self, tile: str) -> OpenEnd:
        game = self.core.game
        assert game is not None
        t = Tile.parse(tile)
        return next(e for e in game.layout.ends if e.pip in (t.high, t.low))

    def everything(self) -> tuple[Any, ...]:
        """All the table knows, to compare."""
        core = self.core
        assert core.game is not None and core.reconciler is not None
        state = {k: v for k, v in core.state().items() if k not in ("seq", "alerts", "last")}
        return (
            state,
            core.game.summary(),
            list(core.game.hand_inputs()),
            core.reconciler.memory(),
            core.game.counted,
            dict(core.outbox.ref_seq),
        )

    def close(self) -> None:
        self.panel.close()
        self.journal.close()


def test_a_failed_write_leaves_the_table_exactly_as_it_was(small_disk: SmallDisk) -> None:
    factory = MockFactory()
    table = Table(small_disk.path, factory)
    try:
        table.lay("6-6", None)
        assert table.core.command(cmd.GameCommand("c1", Lead(seat=1))) is None  # seat 1 led
        table.lay("6-5", table.end("6-5"))
        assert len(table.core.game.layout) == 2  # type: ignore[union-attr]
        before, seq = table.everything(), table.journal.last_seq()
        table.sounded.clear()

        small_disk.fill()
        table.lay("5-4", table.end("5-4"))  # judged, accepted, not stored: rolled back
        assert table.everything() == before
        state = table.core.state()
        (alert,) = [a for a in state["alerts"] if a["code"] == "DISK_FULL"]
        assert alert["severity"] == "fault" and "cannot save" in alert["message"]
        assert alert["seq"] == seq + 1 == state["seq"]  # kept beside the journal
        validate("alert", alert)
        validate("state", {"v": 1, "table": "t1", "ts": alert["ts"], **state})
        assert table.recorded[-1].stored is False and table.recorded[-1].events[0].seq == seq + 1
        assert table.panel.status()["alert"] == "fault"  # the alert LED blinks its pattern
        assert table.sounded == [PanelSeverity.FAULT]  # and the buzzer sounded it
        refused = table.core.command(cmd.GameCommand("c2", Rename(seat=0, name="Ana")))
        assert refused is not None and "cannot save" in refused
        assert table.everything() == before

        table.clock.now += RETRY_S
        table.core.tick()  # still full: nothing changes
        assert table.everything() == before and not table.core.saving

        small_disk.free()
        table.clock.now += RETRY_S
        table.core.tick()  # stored again: the alert stored and resolved, 5-4 judged
        assert table.core.saving
        game = table.core.game
        assert game is not None and [n.tile.text for n in game.layout.nodes] == [
            "6-6",
            "6-5",
            "5-4",
        ]
        events = table.journal.pending()
        assert [e.seq for e in events] == list(range(1, events[-1].seq + 1))  # no gap
        stored = next(e for e in events if e.seq == seq + 1)
        assert stored.payload == alert  # stored exactly as published
        resolved = [e for e in events if e.payload.get("id") == alert["id"]][-1]
        assert resolved.payload["resolved"] is True
        assert table.panel.status()["alert"] is None
        assert table.core.command(cmd.GameCommand("c3", Rename(seat=0, name="Ana"))) is None
        for event in events:
            validate(event.kind, event.payload)
    finally:
        table.close()
        factory.reset()


# --- the real service, its board, broker, desk and display ---------------------------------------


def view(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}/api/view", timeout=5) as answer:
        data: dict[str, Any] = json.load(answer)
    return data


def test_a_full_disk_is_a_standing_fault_and_the_table_goes_on_once_space_is_freed(
    broker: Mosquitto, tmp_path: Path, small_disk: SmallDisk
) -> None:
    with contextmanager(rig_for)(broker, tmp_path) as rig:
        display = start_display_on(broker, table="t1", command_pin=None)
        try:
            going_on_after_a_full_disk(rig, small_disk, display.url)
        finally:
            display.stop()


def going_on_after_a_full_disk(rig: Rig, small_disk: SmallDisk, url: str) -> None:
    player, journal, desk = rig.player, rig.journal, rig.rec
    assert player.play(3) == 3
    plays, seq = len(journal.plays()), journal.last_seq()

    tile = player.next_tile()  # its draws and passes answered while there is room
    assert tile is not None
    small_disk.fill()
    rig.board.place(tile)

    def alert_seen(seen: list[Any]) -> dict[str, Any] | None:
        alerts = [s.json() for s in seen if s.topic == f"{P}/event/alert"]
        return next((a for a in alerts if a["seq"] > seq and not a["resolved"]), None)

    desk.wait_for(lambda s: alert_seen(s) is not None, timeout=20)
    alert = alert_seen(desk.seen)
    assert alert is not None
    assert alert["code"] == "DISK_FULL" and alert["severity"] == "fault"
    assert "cannot save" in alert["message"] and alert["seq"] == seq + 1
    wait(lambda: any(a["id"] == alert["id"] for a in view(url)["alerts"]), 10,
         "the alert on the display")  # fmt: skip
    shown = next(a for a in view(url)["alerts"] if a["id"] == alert["id"])
    assert shown["message"] == alert["message"]
    assert statuses(desk.seen)[-1] == b"online"  # the table is up, and says what is wrong
    assert len(journal.plays()) == plays

    cmd_id = player.commands.send({"action": "rename", "seat": 0, "name": "Ana"})

    def replies(seen: list[Any]) -> list[dict[str, Any]]:
        return [x.json() for x in seen if x.topic.endswith("/cmd/reply")]

    desk.wait_for(lambda s: any(r["id"] == cmd_id for r in replies(s)), timeout=10)
    (reply,) = [r for r in replies(desk.seen) if r["id"] == cmd_id]  # one, though not stored
    assert reply["ok"] is False and "cannot save" in reply["error"], reply

    small_disk.free()
    player.judged(timeout=20)  # the tile laid meanwhile, judged by itself
    desk.wait_for(
        lambda s: any(
            x.topic == f"{P}/event/alert" and x.json()["id"] == alert["id"]
            and x.json()["resolved"] for x in s
        ),
        timeout=10,
    )  # fmt: skip
    wait(lambda: not view(url)["alerts"], 10, "the display clear of alerts")
    again = player.command({"action": "rename", "seat": 0, "name": "Ana"})
    assert again["ok"], again
    assert player.play(2) == 2
    rig.finish()  # every event delivered, as stored; the state is the plays'; no error
    assert not desk.errors, desk.errors
