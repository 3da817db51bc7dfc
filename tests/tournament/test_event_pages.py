"""The event's pages in Chromium, on a desk running an event on bridged brokers: the
director's page behind its password, the big screen, a player's phone page; exports."""

from __future__ import annotations

import csv
import io
import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.fixtures.browser import screen
from tests.tournament.hall import PASSWORD, ROUND, Hall, players

pytestmark = [pytest.mark.broker, pytest.mark.process]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[Hall]:
    body = {"name": "Club Night", "format": "singles", "rules": "walnut", "target": 30,
            "rounds": 3, "time_limit_min": 40, "tables": ["t1", "t2"], "seed": 11,
            "players": players(5)}  # fmt: skip
    h = Hall(tmp_path, body, hold=True)
    try:
        h.open()
        yield h
    finally:
        h.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    with screen(browser, 1280, 800, timeout_ms=15_000) as ctx:
        yield ctx


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"tournament-{name}.png"))


def log_in(page: Page, hall: Hall) -> None:
    page.goto(hall.desk.url("/director"))
    page.fill("#password", "not the password")
    page.click("button[type=submit]")
    expect(page.locator("#wrong")).to_be_visible()
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    expect(page.locator("#link")).to_have_text("live")


def test_the_director_runs_a_round_from_the_page(hall: Hall, context: BrowserContext) -> None:
    page = context.new_page()
    log_in(page, hall)
    expect(page.locator("#roster tr")).to_have_count(5)
    page.locator('#roster tr[data-player="p3"] input[type=checkbox]').check()
    expect(page.locator("#journal li").first).to_contain_text("check_in")
    page.click("#start")
    cards = page.locator(".tablecard")
    expect(cards).to_have_count(2)
    expect(page.locator("#unreported")).to_have_text("not reported: t1, t2")
    expect(page.locator("#clock")).to_have_text(re.compile(r"^(39|40):\d\d$"))
    expect(page.locator(".tablecard .badge")).to_have_text(["playing", "playing"])
    shot(page, "director")
    hall.tables["t1"].release()
    expect(page.locator('.tablecard[data-table="t1"] .badge')).to_have_text("reported")
    t2 = page.locator('.tablecard[data-table="t2"]')
    t2.locator("form.enter input").nth(0).fill("31")
    t2.locator("form.enter input").nth(1).fill("12")
    t2.locator("form.enter button").click()
    expect(t2.locator(".badge")).to_have_text("entered")
    expect(page.locator("#message")).to_have_text("result: done")
    t1 = page.locator('.tablecard[data-table="t1"]')
    t1.locator("form.void input").fill("wrong players sat down")
    t1.locator("form.void button").click()
    expect(t1.locator(".badge")).to_have_text("void")
    expect(page.locator("#unreported")).to_have_text("not reported: t1")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#close")
    expect(page.locator(".tablecard .badge")).to_have_text(["not played", "entered"])
    expect(page.locator("#start")).to_be_enabled()
    expect(page.locator("#clock")).to_have_text("")  # no clock between rounds
    shot(page, "director-closed")
    closed = hall.latest(ROUND, lambda p: p["state"] == "closed")
    assert [t["status"] for t in closed["tables"]] == ["not_played", "entered"]
    kinds = [r.kind.value for r in hall.journal_records()]
    assert kinds.count("command") >= 5 and "void" in kinds and "entered" in kinds


def test_exports_and_the_password(hall: Hall, context: BrowserContext) -> None:
    for path in ("/director/export/standings.csv", "/director/events"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(hall.desk.url(path), timeout=5)
        assert refused.value.code == 401
    start = json.dumps({"action": "start_round"}).encode()
    request = urllib.request.Request(hall.desk.url("/director/command"), start, method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=5)
    assert refused.value.code == 401 and hall.journal_ledger().rounds == []
    page = context.new_page()
    log_in(page, hall)
    page.click("#start")
    expect(page.locator(".tablecard")).to_have_count(2)
    seatings = page.request.get(hall.desk.url("/director/export/seatings.csv")).text()
    rows = list(csv.DictReader(io.StringIO(seatings)))
    assert [r["table"] for r in rows] == ["t1", "t1", "t2", "t2", "bye"]
    assert {r["player"] for r in rows} == {f"p{n}" for n in range(1, 6)}
    standings = page.request.get(hall.desk.url("/director/export/standings.csv")).text()
    assert standings.splitlines()[0] == "rank,player,name,games,wins,points,margin,draw"
    pdf = page.request.get(hall.desk.url("/director/export/scoresheets-r1.pdf"))
    assert pdf.headers["content-type"] == "application/pdf"
    body = pdf.body()
    assert body.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page(?!s)", body)) == 2
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS.parent / "tournament-scoresheets-r1.pdf").write_bytes(body)
    assert page.request.get(hall.desk.url("/director/export/scoresheets-r9.pdf")).status == 404


def test_the_big_screen_and_the_phone_page(hall: Hall, context: BrowserContext) -> None:
    assert hall.command({"id": "s1", "action": "start_round"})["ok"]
    seated = hall.latest(ROUND, lambda p: p["state"] == "playing")
    screen = context.new_page()
    screen.goto(hall.desk.url("/screen?panel=seating"))
    expect(screen.locator("#seating .tablecard")).to_have_count(2)
    expect(screen.locator("#seating-title")).to_have_text("Round 1: seating")
    expect(screen.locator("#round")).to_have_text("round 1 of 3 · playing")
    expect(screen.locator("#clock")).to_have_text(re.compile(r"^(39|40):\d\d$"))
    shot(screen, "screen-seating")
    screen.goto(hall.desk.url("/screen?panel=clock"))
    expect(screen.locator("#bigclock")).to_have_text(re.compile(r"^\d+:\d\d$"))
    shot(screen, "screen-clock")
    screen.goto(hall.desk.url("/screen?cycle=1"))
    expect(screen.locator("#panel-standings")).to_be_visible()
    expect(screen.locator("#entries tr")).to_have_count(5)
    shot(screen, "screen-standings")
    expect(screen.locator("#panel-seating")).to_be_visible()  # cycled on by itself
    assert context.browser is not None
    phone = context.browser.new_page(viewport={"width": 390, "height": 800})
    try:
        phone.goto(hall.desk.url("/find"))
        seat = seated["tables"][1]["seats"][0]
        phone.fill("#who", seat["name"][:2].lower())
        found = phone.locator(".where").filter(has_text=seat["name"])
        expect(found.locator(".big")).to_have_text("Table t2 · seat 0")
        expect(found).to_contain_text(f"Against: {seated['tables'][1]['seats'][1]['name']}")
        shot(phone, "find")
        bye = next(e["name"] for e in hall.latest("domino/tournament/standings")["entries"]
                   if e["player"] == seated["byes"][0])  # fmt: skip
        phone.fill("#who", bye)
        expect(phone.locator(".where .big")).to_have_text("Sitting out this round")
    finally:
        phone.close()
