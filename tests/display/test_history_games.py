"""Whole games told again on the History page, in Chromium: a camera game (the demo's
`--source camera`: rendered frames read by the camera path) and a board game (the demo's
players on the board emulator), each played to its end by `domino-table demo`, then
its table run again on the kept state (`domino-table run`) with a display: every event
is stepped through, each shows the layout as the events up to it built it, and each
that has a frame shows it. The camera game's record also replays exactly and exports
as one page that opens with no network."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from service.history.store import GameRecord, HistoryStore
from tests.display.conftest import DisplayServer, screenshot
from tests.display.test_history_page import FRAME_SHOWN
from tests.fixtures.browser import screen
from tests.fixtures.camera_demo import CAMERA_DEMO_ARGS, CAMERA_DEMO_GROUP, CameraDemo
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_recorder import Recorder
from tests.fixtures.process import ChildProcess
from tests.service.history.test_replay_exact import kept_inputs, replayed, same_events

BIN = Path(sys.executable).parent / "domino-table"
GAME = ["--rules", "straight-block", "--players", "2", "--target", "10"]


def demo(state: Path, *args: str) -> GameRecord:
    """One whole game of the demo, kept in `state`: its record."""
    done = subprocess.run(
        [str(BIN), "demo", *GAME, *args, "--games", "1", "--http-port", "0", "--no-pin",
         "--state-dir", str(state)],
        capture_output=True, text=True, timeout=540, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return kept_record(state)


def kept_record(state: Path) -> GameRecord:
    """The record of the one whole game a demo kept in `state`."""
    with HistoryStore(state / "state", read_only=True) as store:
        (game,) = store.games()
        record = store.record(game.game_id)
    assert record is not None and record.summary.ended is not None  # played to its end
    return record


def expected_tiles(record: GameRecord) -> list[int]:
    """How many tiles lie after each event: the plays of the hand in play so far, less
    the ones taken back (as the page must fold them)."""
    counts: list[int] = []
    tiles: list[int] = []
    hand = 0
    for e in record.events:
        if isinstance(e.get("hand"), int) and e["type"] != "game" and e["hand"] != hand:
            hand, tiles = e["hand"], []
        if e["type"] == "play":
            tiles.append(e["seq"])
        elif e["type"] == "undo":
            tiles = [s for s in tiles if s != e["undone"]]
        counts.append(len(tiles))
    return counts


def step_through(page: Page, server: DisplayServer, record: GameRecord, name: str) -> None:
    """Every event of the game, one after the other, with its layout and its frame."""
    page.goto(f"{server.url}/history")
    page.locator(f'.game-card[data-game="{record.summary.game_id}"]').click()
    events = record.events
    expect(page.locator("#events li")).to_have_count(len(events))
    framed = set(record.frames)
    for i, (event, tiles) in enumerate(zip(events, expected_tiles(record), strict=True)):
        if i:
            page.keyboard.press("ArrowRight")
        now = page.locator("#event-now .now")
        expect(now).to_have_attribute("data-seq", str(event["seq"]))
        expect(page.locator("svg.layout g.tile")).to_have_count(tiles)
        if event["type"] == "play":
            expect(page.locator("svg.layout g.tile.last-play")).to_have_attribute(
                "data-tile", event["tile"]
            )
        if event["seq"] in framed:
            page.wait_for_function(FRAME_SHOWN)
            src = page.locator("#frame").get_attribute("src")
            assert src is not None and src.endswith(f"/{event['seq']}")
        else:
            expect(page.locator("#frame-none")).to_be_visible()
        if i == len(events) // 2:
            screenshot(page, f"history-800x480-{name}")
    assert page.locator("#next").is_disabled()


class TableAgain(ChildProcess):
    """The demo's table (`demo`) run again on its kept state, on the test's broker."""

    def __init__(self, broker: Mosquitto, state: Path) -> None:
        args = [str(BIN), "run", "--mqtt-host", broker.host, "--mqtt-port", str(broker.port),
                "--table", "demo", "--state-dir", str(state)]  # fmt: skip
        super().__init__(args, state.with_name("run.log"))


def served(
    broker: Mosquitto, state: Path, start_display: Callable[..., DisplayServer]
) -> tuple[TableAgain, DisplayServer]:
    table = TableAgain(broker, state)
    table.start()
    with Recorder(broker.host, broker.port, ["domino/demo/status"]) as rec:
        rec.wait_for(lambda s: any(x.payload == b"online" for x in s), timeout=60)
    return table, start_display(table="demo")


@pytest.mark.slow
@pytest.mark.process
@CAMERA_DEMO_GROUP
@pytest.mark.timeout(900)  # a camera game: paced at the camera's frame rate
def test_a_whole_camera_game_is_stepped_through(
    broker: Mosquitto,
    tmp_path: Path,
    start_display: Callable[..., DisplayServer],
    page: Page,
    browser: Browser,
    camera_demo: CameraDemo,
) -> None:
    # the demo's camera game (seed 2, paced 0.5 s), played once for the tests that read it
    assert " ".join(GAME) in " ".join(CAMERA_DEMO_ARGS)
    assert camera_demo.returncode == 0, camera_demo.stdout + camera_demo.stderr
    record = kept_record(camera_demo.copy_kept(tmp_path / "cam"))
    assert record.summary.source == "camera"
    plays = [e for e in record.events if e["type"] == "play"]
    assert all(p["seq"] in record.frames for p in plays)  # each play has its frame
    state = tmp_path / "cam" / "state"

    # replay stays exact on a camera game too
    again = replayed(kept_inputs(state, record.summary.game_id))
    assert same_events(list(record.events), again) >= len(plays)

    table, server = served(broker, state, start_display)
    try:
        step_through(page, server, record, "camera-game")
        with screen(browser, 390, 844) as context:
            phone = context.new_page()
            phone.goto(f"{server.url}/history?game={record.summary.game_id}&seq={plays[3]['seq']}")
            expect(phone.locator("#event-now .now")).to_have_attribute(
                "data-seq", str(plays[3]["seq"])
            )
            phone.wait_for_function(FRAME_SHOWN)
            screenshot(phone, "history-390x844-camera-game")
    finally:
        table.stop()

    # the same game as one page, its frames inside, opened with the network refused
    out = tmp_path / "game.html"
    done = subprocess.run(
        [str(BIN), "history", "--state-dir", str(state), record.summary.game_id,
         "--html", str(out)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    with screen(browser, 800, 480) as context:
        asked: list[str] = []
        context.route(
            "**/*",
            lambda route: (
                route.continue_() if route.request.url.startswith("file:") else route.abort()
            ),
        )
        offline = context.new_page()
        offline.on("request", lambda r: asked.append(r.url))
        offline.goto(out.as_uri())
        images = offline.locator("img")
        kept = list((state / "history" / "frames").rglob("*.jpg"))
        assert images.count() == len(kept) >= len(plays)  # each frame once
        for i in range(images.count()):
            images.nth(i).scroll_into_view_if_needed()
            offline.wait_for_function(
                "(img) => img.complete && img.naturalWidth > 0", arg=images.nth(i).element_handle()
            )
        assert [u for u in asked if not u.startswith(("file:", "data:"))] == []


@pytest.mark.slow
@pytest.mark.process
@pytest.mark.timeout(600)
def test_a_whole_board_game_is_stepped_through(
    broker: Mosquitto, tmp_path: Path, start_display: Callable[..., DisplayServer], page: Page
) -> None:
    record = demo(tmp_path / "board", "--seed", "3", "--pace", "0.2")
    assert record.summary.source == "board"
    assert len(record.frames) >= len(record.events) - 2  # the surface at (nearly) every event
    table, server = served(broker, tmp_path / "board" / "state", start_display)
    try:
        step_through(page, server, record, "board-game")
    finally:
        table.stop()
