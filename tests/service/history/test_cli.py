"""`domino-table history`: the games listed, one told hand by hand, its inputs, and one
page with its frames inside that opens in Chromium with the network blocked."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Request

from engine.inputs import Lead, Pass
from engine.surface import SeenTile
from tests.fixtures.browser import screen
from tests.service.history.tables import BoardTable

BIN = Path(sys.executable).parent / "domino-table"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN), "history", *args], capture_output=True, text=True,
                          timeout=120, check=False)  # fmt: skip


def a_game(state: Path) -> str:
    """A board game with a knock and an illegal tile laid (then taken away)."""
    table = BoardTable(state, rules="walnut")
    try:
        table.lay("6-6")
        table.tell(Lead(seat=1))
        table.lay("6-4")
        table.lay("4-2")
        table.tell(Pass(seat=0))
        table.surface.append(SeenTile(5, 0, 100, 100, 124, 100))  # far from the layout
        table.look()
        table.later()  # an alert, once the grace time is over
        table.surface.pop()
        table.look()
        table.idle()
        return table.game_id()
    finally:
        table.close()


@pytest.mark.process
def test_the_command_line_lists_tells_and_gives_the_inputs(tmp_path: Path) -> None:
    game_id = a_game(tmp_path)
    listed = run("--state-dir", str(tmp_path))
    assert listed.returncode == 0, listed.stderr
    (row,) = listed.stdout.splitlines()
    assert row.startswith(game_id) and "walnut" in row and "not over" in row
    told = run("--state-dir", str(tmp_path), game_id)
    assert told.returncode == 0, told.stderr
    lines = told.stdout.splitlines()
    assert lines[0] == f"Game {game_id}: walnut, Player 1, Player 2"
    assert "Hand 1" in lines
    said = "\n".join(lines)
    assert "Player 2 (told at #" in said and "played 6-6  [frame]" in said
    assert "Player 1 played 6-4" in said and "Player 1 passed" in said
    assert "Illegal: " in said and "cleared: " in said  # the duplicate tile, then gone
    assert run("--state-dir", str(tmp_path), "last").stdout == told.stdout
    inputs = run("--state-dir", str(tmp_path), game_id, "--inputs")
    assert inputs.stdout.splitlines()[0].startswith('{"action":"new_game","rules":"walnut"')

    missing = run("--state-dir", str(tmp_path), "nope")
    assert missing.returncode == 1 and "no game 'nope' is kept" in missing.stderr
    assert game_id in missing.stderr
    nowhere = run("--state-dir", str(tmp_path / "nowhere"))
    assert nowhere.returncode == 1 and "holds no record of games" in nowhere.stderr
    assert run("--state-dir", str(tmp_path), "--html", "x.html").returncode == 2


@pytest.mark.process
def test_the_html_page_opens_with_no_network(tmp_path: Path, browser: Browser) -> None:
    game_id = a_game(tmp_path / "state")
    out = tmp_path / "mail" / "game.html"
    out.parent.mkdir()
    done = run("--state-dir", str(tmp_path / "state"), game_id, "--html", str(out))
    assert done.returncode == 0, done.stderr
    assert "frames inside" in done.stdout
    asked: list[str] = []

    def refuse(request: Request) -> None:
        asked.append(request.url)

    with screen(browser, 390, 844) as context:
        context.route(
            "**/*",
            lambda route: (
                route.continue_() if route.request.url.startswith("file:") else route.abort()
            ),
        )
        page = context.new_page()
        page.on("request", refuse)
        page.goto(out.as_uri())
        page.wait_for_load_state("load")
        images = page.locator("img")
        assert images.count() >= 3  # a board's surface drawn at each change of it
        for i in range(images.count()):
            images.nth(i).scroll_into_view_if_needed()
            page.wait_for_function("(img) => img.complete", arg=images.nth(i).element_handle())
            assert images.nth(i).evaluate("(img) => img.naturalWidth") >= 900
        assert [u for u in asked if not u.startswith(("file:", "data:"))] == []
        jumps = page.locator("nav.alerts a")  # each alert raised, to jump to
        assert jumps.all_inner_texts()[0].endswith("LEAD_UNKNOWN")
        assert jumps.count() == 2 and jumps.nth(1).inner_text().endswith("NOT_TOUCHING")
        jumps.nth(1).click()
        assert page.locator("li.event:target").get_attribute("class") == "event alert illegal"
        page.keyboard.press("ArrowDown")
        assert page.locator("li.event.here").count() == 1
        page.screenshot(path=str(tmp_path / "export.png"), full_page=False)
