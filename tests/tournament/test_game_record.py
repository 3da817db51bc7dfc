"""A disputed game opened at the desk: a real table (`TableService`) on its own Mosquitto
bridged to the central one, seated by a real desk process; the director opens the game
from the desk's page, sees it event by event with the frame of each play (asked of the
table over the bridge: `history`, `frame`), notes on its result, and finds the note in
the journal and the results export."""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from config.loader import load_settings
from engine import Tile
from engine.geometry import Placer
from engine.surface import SeenTile, Snapshot
from service.app import TableService
from tests.fixtures.browser import screen
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_recorder import Recorder
from tests.fixtures.tiers import needs
from tests.tournament.desk_process import DeskProcess
from tests.tournament.hall import CMD, PASSWORD, ROUND, STANDINGS, event_toml, players
from tests.tournament.tables import publish_once
from tests.tournament.test_bridge import bridge_section, wait_bridged
from tournament import journal
from tournament.journal import Kind

FRAME_SHOWN = """() => {
    const img = document.getElementById("frame");
    return img.complete && img.naturalWidth >= 900;
}"""
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"


class Rig:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.central = Mosquitto(tmp / "central")
        self.local = Mosquitto(tmp / "t1")
        self.service: TableService | None = None
        body = {"name": "Club Night", "format": "singles", "rules": "walnut", "target": 100,
                "rounds": 1, "tables": ["t1"], "seed": 5, "players": players(2)}  # fmt: skip
        (tmp / "event.toml").write_text(event_toml(body))
        (tmp / "pw").write_text(PASSWORD + "\n")
        self.desk = DeskProcess(self.central.host, self.central.port, tmp / "desk",
                                "--event", str(tmp / "event.toml"),
                                "--director-password-file", str(tmp / "pw"))  # fmt: skip
        self.placer = Placer(900, 600)
        self.surface: list[SeenTile] = []

    def open(self) -> None:
        self.central.start()
        self.local = Mosquitto(self.tmp / "t1", extra=bridge_section("t1", self.central))
        self.local.start()
        wait_bridged(self.central, "t1")
        settings = load_settings(None, {
            "table.id": "t1", "table.rules": "walnut", "table.seats": 2,
            "mqtt.host": self.local.host, "mqtt.port": self.local.port,
            "state.dir": str(self.tmp / "state"),
        })  # fmt: skip
        self.service = TableService(settings)
        self.service.start()
        self.rec = Recorder(self.central.host, self.central.port,
                            [ROUND, STANDINGS, "domino/t1/#"])  # fmt: skip
        self.desk.start()
        # the desk is subscribed once it published its standings
        self.rec.wait_for(lambda s: any(x.topic == STANDINGS for x in s), timeout=60)

    def table_playing(self) -> str:
        """Start the round; the desk's game id once the table plays it."""
        publish_once(
            self.central.host,
            self.central.port,
            CMD,
            {"id": "s1", "action": "start_round"},
            retain=False,
        )

        def playing(seen: Any) -> bool:
            rounds = [s.json() for s in seen if s.topic == ROUND and s.payload]
            return bool(rounds) and rounds[-1]["tables"][0]["status"] == "playing"

        got = self.rec.wait_for(playing, timeout=60)
        return str([s.json() for s in got if s.topic == ROUND][-1]["tables"][0]["game_id"])

    def seating(self) -> list[dict[str, Any]]:
        rounds = [s.json() for s in self.rec.seen if s.topic == ROUND and s.payload]
        return list(rounds[-1]["tables"][0]["seats"])

    def lay(self, tile: str) -> None:
        assert self.service is not None
        game, rec = self.service.core.game, self.service.core.reconciler
        assert game is not None and rec is not None
        t = Tile.parse(tile)
        end = next((e for e in game.layout.ends if e.pip in (t.high, t.low)), None)
        placed = [p for p in rec.placed() if p is not None]
        self.surface.append(self.placer.place(game.layout, placed, t, end))
        want = len([s for s in self.rec.seen if s.topic == "domino/t1/event/play"]) + 1
        self.service.submit(Snapshot(tuple(self.surface), at=time.monotonic()))
        self.rec.wait_for(
            lambda s: len([x for x in s if x.topic == "domino/t1/event/play"]) >= want
        )

    def close(self) -> None:
        self.desk.stop()
        if self.service is not None:
            self.service.stop()
        self.rec.close()
        self.local.stop()
        self.central.stop()


@pytest.fixture
@needs("broker", "process")
def rig(tmp_path: Path) -> Iterator[Rig]:
    r = Rig(tmp_path)
    try:
        r.open()
        yield r
    finally:
        r.close()


def test_the_director_opens_a_game_sees_its_frames_and_notes_on_its_result(
    rig: Rig, browser: Browser
) -> None:
    game_id = rig.table_playing()
    rig.lay("6-6")
    rig.lay("6-4")
    # who led: the table asks, a player says, once both tiles lie there (told before the
    # 6-4 was laid, it raced the lay: the 6-4's seat was then known when it was played)
    lead = {"id": "l1", "action": "lead", "seat": 0}
    publish_once(rig.local.host, rig.local.port, "domino/t1/cmd", lead, retain=False)
    rig.rec.wait_for(
        lambda seen: any(
            m.topic == "domino/t1/cmd/reply" and m.payload and m.json()["id"] == "l1" for m in seen
        ),
        timeout=30,
    )
    assert rig.service is not None and rig.service.history.wait_idle(20)
    with screen(browser, 1280, 800, timeout_ms=20_000) as context:
        page = context.new_page()
        page.goto(rig.desk.url("/director/game?table=t1&game=x"))  # not logged in: the login
        expect(page.locator("#password")).to_be_visible()
        page.fill("#password", PASSWORD)
        page.click("button[type=submit]")
        expect(page.locator("#link")).to_have_text("live")
        game = page.locator(f'#games li[data-game="{game_id}"]')
        expect(game).to_contain_text("round 1 · t1")
        expect(game.locator("a.on-screen")).to_have_attribute(
            "href", f"http://t1.local:8080/history?game={game_id}"
        )
        game.locator("a.open-game").click()
        expect(page.locator("#title")).to_have_text(f"t1 · round 1 · {game_id}")
        played = page.locator("#events li.ev-play")
        expect(played).to_have_count(2)
        names = [s["name"] for s in rig.seating()]  # the desk's seating, seat by seat
        # the lead told after both plays: seat 0's, then the next seat's
        expect(played.nth(0)).to_contain_text(f"{names[0]} (told later) played 6-6")
        expect(played.nth(1)).to_contain_text(f"{names[1]} (told later) played 6-4")
        played.nth(1).locator("button").click()
        page.wait_for_function(FRAME_SHOWN)
        page.fill("#note-text", "checked, stands")
        page.click("#note button[type=submit]")
        expect(page.locator("#message")).to_have_text("note added")
        expect(page.locator("#notes li")).to_have_count(1)
        expect(page.locator("#notes li")).to_contain_text("checked, stands")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "tournament-game.png"))
        results = page.request.get(rig.desk.url("/director/export/results.csv"))
        rows = list(csv.DictReader(io.StringIO(results.text())))
        assert {r["notes"].split(" ", 2)[-1] for r in rows} == {"checked, stands"}
        page.goto(rig.desk.url("/director"))
        expect(page.locator(f'#games li[data-game="{game_id}"] .note-count')).to_contain_text(
            "1 note: checked, stands"
        )
        wrong = page.request.get(rig.desk.url("/director/api/game/t1/practice-1"))
        assert wrong.status == 404 and "no game 'practice-1'" in wrong.json()["error"]
    notes = [r for r in journal.read(rig.tmp / "desk" / "journal.sqlite") if r.kind is Kind.NOTE]
    assert [(n.data["game_id"], n.data["text"]) for n in notes] == [(game_id, "checked, stands")]
