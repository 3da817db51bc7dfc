"""The page in a real Chromium, fed by a real Mosquitto through the display server."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from display.tally import tally
from tests.display import samples
from tests.display.conftest import Controller, DisplayServer, screenshot
from tests.fixtures.browser import screen
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.spec import validate


def open_live(page: Page, controller: Controller, server: DisplayServer, state: dict) -> None:  # type: ignore[type-arg]
    controller.state(state)
    controller.status("online")
    page.goto(server.url)
    expect(page.locator("body")).to_have_class(
        "live phase-" + state["phase"] + (" partners" if state["teams"] else " ")
    )


def test_mid_game_page_shows_the_whole_game_from_retained_messages(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    open_live(page, controller, display_server, samples.state())
    cards = page.locator("#scores .card")
    expect(cards).to_have_count(4)
    expect(cards.locator(".name")).to_have_text(["Ana", "Ben", "Carla", "Dev"])
    expect(cards.locator(".score")).to_have_text(["85", "40", "6", "130"])
    # whose turn: not by colour alone, a flag with an arrow and a word
    turn = page.locator(".card.turn")
    expect(turn).to_have_count(1)
    expect(turn).to_have_attribute("data-seat", "1")
    expect(turn.locator(".turn-flag")).to_have_text("TURN")
    expect(page.locator("#phase")).to_have_text("Ben to play")
    # the tally: 85 is a full house and 35 (X, two O's, one short stroke)
    ana = page.locator('.card[data-seat="0"] svg.tally')
    expect(ana.locator(".tally-house")).to_have_count(2)
    expect(ana.locator(".tally-long")).to_have_count(4)
    expect(ana.locator(".tally-o")).to_have_count(6)
    expect(ana.locator(".tally-short")).to_have_count(1)
    carla = page.locator('.card[data-seat="2"] svg.tally')  # 6: one long stroke and a dot
    expect(carla.locator(".tally-long")).to_have_count(1)
    expect(carla.locator(".tally-dot")).to_have_count(1)
    # the layout, to scale, with the spinner, the open ends and the last play
    layout = page.locator("svg.layout")
    expect(layout.locator(".tile")).to_have_count(5)
    expect(layout.locator(".tile.spinner")).to_have_attribute("data-tile", "5-5")
    expect(layout.locator(".tile.last-play")).to_have_attribute("data-tile", "4-1")
    expect(layout.locator('.tile[data-tile="5-3"] .pip')).to_have_count(8)
    expect(layout.locator(".open-end")).to_have_count(4)
    expect(layout.locator(".open-end-pip")).to_have_text(["3", "4", "5", "5"])
    expect(layout.locator(".last-points")).to_have_text("+10")
    expect(page.locator("#ends-total")).to_have_text("Ends 10")
    expect(page.locator("#last-play")).to_have_text("Ana played 4-1 +10")
    expect(page.locator("#result")).to_be_hidden()  # the game is not over: phase says play
    screenshot(page, "800x480-play")


def test_partnership_game_shows_team_totals(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    open_live(page, controller, display_server, samples.partners_state())
    teams = page.locator("#scores .card.team")
    expect(teams).to_have_count(2)
    expect(teams.locator(".score")).to_have_text(["120", "75"])
    expect(teams.nth(0).locator(".member")).to_have_text(["Ana", "Carla"])
    expect(page.locator(".card.turn")).to_have_attribute("data-team", "0")
    expect(page.locator(".member.turn")).to_have_text("Carla")
    screenshot(page, "800x480-partners")


def test_an_alert_shows_in_words_until_resolved(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    open_live(page, controller, display_server, samples.state())
    controller.event("alert", samples.alert(21))
    alert = page.locator(".alert")
    expect(alert).to_have_count(1)
    expect(alert.locator(".alert-message")).to_have_text("The 6-2 does not match the 3 it touches.")
    expect(alert.locator(".alert-help")).to_have_text(
        "The tile's number does not match the end it touches."
    )
    expect(alert.locator(".alert-title")).to_have_text("Illegal play · Ben · 6-2")
    expect(alert.locator("svg.icon-illegal")).to_have_count(1)
    screenshot(page, "800x480-alert")
    controller.event("alert", samples.alert(22, resolved=True))
    expect(alert).to_have_count(0)


def test_an_unreadable_place_is_marked_on_the_layout_until_resolved(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    open_live(page, controller, display_server, samples.state())
    words = "The camera cannot read a tile here: move the hand or the tile away."
    raised = samples.alert(21, code="UNREADABLE", severity="warning", alert_id="cam",
                           message=words)  # fmt: skip
    # as the controller sends it: a place, no seat and no tile
    raised = {k: v for k, v in raised.items() if k not in ("seat", "tile")} | {"xa": 520, "ya": 300}
    validate("alert", raised)
    controller.event("alert", raised)
    spot = page.locator("svg.layout .unread-spot")
    expect(spot).to_have_count(1)
    expect(spot.locator("circle.unread-ring")).to_have_attribute("cx", "520")
    expect(spot.locator("title")).to_have_text(words)
    expect(page.locator('.alert[data-code="UNREADABLE"]')).to_be_visible()
    screenshot(page, "800x480-unreadable")
    resolved = samples.alert(22, code="UNREADABLE", severity="warning", alert_id="cam",
                             message=words, resolved=True)  # fmt: skip
    controller.event("alert", {k: v for k, v in resolved.items() if k not in ("seat", "tile")})
    expect(spot).to_have_count(0)


def test_who_led_is_asked_and_answered_from_the_alert(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    standing = samples.alert(
        19,
        code="LEAD_UNKNOWN",
        alert_id="lead-3",
        message="Who led the 6-6?",
        severity="warning",
        seat=None,
        tile="6-6",
    )
    open_live(
        page, controller, display_server, samples.state(phase="lead", turn=None, alerts=[standing])
    )
    controller.answer = lambda c: samples.reply(c["id"])
    screenshot(page, "800x480-who-led")
    page.locator('.alert button[data-seat="3"]').click()
    expect(page.locator("#toast-text")).to_have_text("Led: done")
    assert [(c["action"], c["seat"]) for c in controller.commands] == [("lead", 3)]


def test_buttons_send_commands_and_show_the_reply(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    open_live(page, controller, display_server, samples.state())
    controller.answer = lambda c: samples.reply(c["id"])
    page.locator("#actions [data-action=pass]").click()
    expect(page.locator("#toast-text")).to_have_text("Pass: done")
    assert controller.commands[-1]["action"] == "pass"
    assert controller.commands[-1]["id"].startswith("page-")
    # undo needs a second tap
    page.locator("#actions [data-action=undo]").click()
    expect(page.locator("#actions [data-action=undo]")).to_have_text("Tap again to undo")
    assert len(controller.commands) == 1
    page.locator("#actions [data-action=undo]").click()
    expect(page.locator("#toast-text")).to_have_text("Undo: done")
    assert controller.commands[-1]["action"] == "undo"
    # a refusal shows the controller's sentence
    controller.answer = lambda c: samples.reply(c["id"], ok=False, error="Nothing to draw.")
    page.locator("#actions [data-action=draw]").click()
    expect(page.locator("#toast-text")).to_have_text("Draw: Nothing to draw.")
    expect(page.locator("#toast")).to_have_attribute("data-kind", "no")


def test_forms_in_more_send_their_fields(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    open_live(page, controller, display_server, samples.state())
    controller.answer = lambda c: samples.reply(c["id"])
    page.locator("#actions [data-action=more]").click()
    form = page.locator('form[data-form="correct"]')
    form.locator("input[name=tile]").fill("2-6")
    form.locator("input[name=as]").fill("6-3")
    form.locator("button[type=submit]").click()
    expect(page.locator("#toast-text")).to_have_text("Correct a tile: done")
    last = controller.commands[-1]
    assert (last["action"], last["tile"], last["as"]) == ("correct", "6-2", "6-3")
    page.locator("#actions [data-action=more]").click()
    form = page.locator('form[data-form="rename"]')
    form.locator("select[name=seat]").select_option("2")
    form.locator("input[name=name]").fill("Carlota")
    form.locator("button[type=submit]").click()
    expect(page.locator("#toast-text")).to_have_text("Rename: done")
    assert controller.commands[-1] | {"id": ""} == {
        "id": "",
        "action": "rename",
        "seat": 2,
        "name": "Carlota",
    }
    page.locator("#actions [data-action=more]").click()
    form = page.locator('form[data-form="new-game"]')
    form.locator("input[name=rules]").fill("outdoor")
    form.locator("textarea[name=names]").fill("Ana\nBen\nCarla\nDev\n")
    form.locator("input[name=target]").fill("100")
    form.locator("input[name=partners]").check()
    screenshot(page, "800x480-more")
    form.locator("button[type=submit]").click()
    expect(page.locator("#toast-text")).to_have_text("New game: done")
    new_game = controller.commands[-1]
    assert {k: v for k, v in new_game.items() if k != "id"} == {
        "action": "new_game",
        "rules": "outdoor",
        "seats": ["Ana", "Ben", "Carla", "Dev"],
        "target": 100,
        "teams": [0, 1, 0, 1],
        "language": "en",
    }


def test_no_reply_says_the_table_did_not_answer(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    open_live(page, controller, display_server, samples.state())
    page.locator("#actions [data-action=pass]").click()
    expect(page.locator("#toast-text")).to_have_text("Pass: the table did not answer in time")


def test_hand_result_game_over_and_scoresheet(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    open_live(page, controller, display_server, samples.state())
    controller.event("hand", samples.hand(21))
    controller.state(
        samples.state(
            seq=21, phase="hand_over", turn=None, scores=(105, 40, 6, 130), last=samples.hand(21)
        )
    )
    panel = page.locator(".hand-panel")
    expect(panel.locator(".panel-title")).to_have_text("Ana went out")
    expect(panel.locator(".panel-points")).to_have_text("20 points")
    expect(panel.locator("tr[data-seat] td:nth-child(2)")).to_have_text(["0", "31", "12", "9"])
    expect(page.locator("#actions [data-action=next_hand]")).to_be_visible()
    screenshot(page, "800x480-hand-over")
    page.locator("#actions [data-action=scores]").click()
    rows = page.locator("#sheet tr[data-hand]")
    expect(rows).to_have_count(2)
    screenshot(page, "800x480-scoresheet")
    expect(rows.nth(1).locator("td")).to_have_text(
        ["2", "blocked", "Ana", "15", "55", "40", "6", "120"]
    )
    page.locator("#sheet button").click()
    controller.event("game", samples.game_over(22))
    controller.state(samples.state(seq=22, phase="over", turn=None, scores=(105, 40, 6, 155)))
    expect(page.locator("#game-over-title")).to_have_text("Dev wins the game!")
    expect(page.locator("#actions [data-action=new_game]")).to_be_visible()
    screenshot(page, "800x480-game-over")


def test_controller_offline_marks_scores_as_last_known(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    open_live(page, controller, display_server, samples.state())
    controller.status("offline")
    expect(page.locator(".banner-controller_offline")).to_contain_text("Table controller offline")
    expect(page.locator("body")).to_have_class("stale phase-play ")
    expect(page.locator(".card .last-known")).to_have_count(4)
    expect(page.locator("#link")).to_have_text("Offline")
    screenshot(page, "800x480-controller-offline")
    controller.status("online")
    expect(page.locator(".banner")).to_have_count(0)
    expect(page.locator(".card .last-known")).to_have_count(0)


def test_losing_the_broker_is_shown_and_recovers(
    broker: Mosquitto, controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    open_live(page, controller, display_server, samples.state())
    broker.stop()
    expect(page.locator(".banner-broker_lost")).to_contain_text("lost the table's broker")
    expect(page.locator(".card .last-known")).to_have_count(4)
    screenshot(page, "800x480-broker-lost")
    broker.start()
    expect(page.locator(".banner")).to_have_count(0, timeout=10000)
    expect(page.locator("body")).to_have_class("live phase-play ")
    controller.state(samples.state(seq=25, scores=(90, 40, 6, 130)))
    expect(page.locator('.card[data-seat="0"] .score')).to_have_text("90")


def test_spanish_table(controller: Controller, display_server: DisplayServer, page: Page) -> None:
    open_live(page, controller, display_server, samples.state(language="es"))
    expect(page.locator(".turn-flag")).to_have_text("TURNO")
    expect(page.locator("#phase")).to_have_text("Juega Ben")
    expect(page.locator("#actions [data-action=pass]")).to_have_text("Paso")
    controller.event("alert", samples.alert(21, message="El 6-2 no casa con el 3."))
    expect(page.locator(".alert-help")).to_have_text(
        "El número de la ficha no coincide con la punta que toca."
    )
    screenshot(page, "800x480-es-alert")


def test_phone_layout(
    browser: Browser, controller: Controller, display_server: DisplayServer
) -> None:
    with screen(browser, 390, 844, scale=2) as context:
        page = context.new_page()
        open_live(page, controller, display_server, samples.state())
        expect(page.locator(".card.turn")).to_be_visible()
        screenshot(page, "390x844-play")
        controller.event("alert", samples.alert(21))
        expect(page.locator(".alert")).to_be_visible()
        screenshot(page, "390x844-alert")
        controller.event("alert", samples.alert(22, resolved=True))
        controller.event("hand", samples.hand(23))
        controller.state(samples.state(seq=23, phase="hand_over", turn=None))
        expect(page.locator(".hand-panel")).to_be_visible()
        screenshot(page, "390x844-hand-over")
        page.locator("#actions [data-action=more]").click()
        expect(page.locator("#more")).to_be_visible()
        screenshot(page, "390x844-more")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, "the page must not scroll sideways on a phone"


def test_the_page_tally_mirrors_the_python_one(display_server: DisplayServer, page: Page) -> None:
    page.goto(display_server.url)
    drawn = page.evaluate(
        """async () => {
            const { tally } = await import('/static/tally.js');
            return Array.from({ length: 301 }, (_, score) => tally(score));
        }"""
    )
    for score, js in enumerate(drawn):
        py = tally(score)
        assert js["dots"] == py.dots, score
        assert [(h["long"], h["circles"], h["shorts"]) for h in js["houses"]] == [
            (h.long_strokes, h.circles, h.short_strokes) for h in py.houses
        ], score


def test_a_page_that_loses_its_server_says_so(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    open_live(page, controller, display_server, samples.state())
    display_server.stop()
    expect(page.locator(".banner-server_lost")).to_contain_text("lost the display server")
    expect(page.locator(".card .last-known")).to_have_count(4)


def test_pass_draw_and_lead_events_are_told(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    open_live(page, controller, display_server, samples.state())
    controller.event("pass", samples.common(21, hand=3, seat=1))
    expect(page.locator("#last-event")).to_have_text("Ben passed")
    controller.event("draw", samples.common(22, hand=3, seat=2, count=2))
    expect(page.locator("#last-event")).to_have_text("Carla drew 2")


def test_an_undo_that_took_drawn_tiles_back_tells_the_players_to_return_them(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    open_live(page, controller, display_server, samples.state())
    controller.event("draw", samples.common(21, hand=3, seat=1, count=2))
    undo = samples.common(22, hand=3, undone=20, points=10, draws=2)  # spec/mqtt.md's `draws`
    controller.event("undo", undo)
    expect(page.locator("#last-event")).to_have_text("Last move taken back")
    expect(page.locator("#undo-draws")).to_have_text(
        "Put 2 drawn tiles back in the boneyard, face down"
    )
    screenshot(page, "800x480-undo-draws")
    controller.event("undo", samples.common(23, hand=3, undone=19, points=0, draws=1))
    expect(page.locator("#undo-draws")).to_have_text(
        "Put 1 drawn tile back in the boneyard, face down"
    )
    controller.event("undo", samples.common(24, hand=3, undone=18, points=0, draws=0))
    expect(page.locator("#last-event")).to_have_text("Last move taken back")
    expect(page.locator("#undo-draws")).to_have_count(0)  # nothing to put back
    controller.event("undo", samples.common(25, hand=3, undone=17, points=0))  # no `draws`
    expect(page.locator("#undo-draws")).to_have_count(0)
    # a page opened later, in Spanish: the state's `last` is the undo
    late = samples.state(seq=26, last=None) | {
        "last": samples.common(26, hand=3, undone=16, points=5, draws=3)
    }
    controller.state(late)  # fmt: skip
    page.goto(f"{display_server.url}/?lang=es")
    expect(page.locator("#undo-draws")).to_have_text(
        "Devuelvan 3 fichas robadas al pozo, boca abajo"
    )


def test_opened_before_any_game_it_waits_for_the_table(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    page.goto(display_server.url)
    expect(page.locator(".banner-no_state")).to_contain_text("Waiting for the game")
    expect(page.locator("#scores .card")).to_have_count(0)
    idle = samples.state(seq=1, phase="idle", turn=None, last=None, history=[])
    idle.update(hand=0, seats=[], alerts=[])
    idle["layout"] = {"tiles": [], "spinner": None, "open_ends": [], "ends_total": 0}
    controller.state(idle)
    controller.status("online")
    expect(page.locator("#phase")).to_have_text("No game running: start a new game")
    expect(page.locator("svg.layout .empty-layout")).to_have_text("No tiles on the table yet")
    page.locator("#actions [data-action=new_game]").click()
    expect(page.locator('form[data-form="new-game"]')).to_be_visible()
    screenshot(page, "800x480-idle-new-game")


def test_a_busy_layout_is_drawn_to_scale(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    state = samples.late_state()
    open_live(page, controller, display_server, state)
    layout = page.locator("svg.layout")
    expect(layout.locator(".tile")).to_have_count(16)
    expect(layout.locator('.tile[data-tile="5-5"] .pip')).to_have_count(10)
    expect(layout.locator('.tile[data-tile="3-0"] .pip')).to_have_count(3)
    expect(layout.locator(".open-end-pip")).to_have_text(["3", "0", "1", "4"])
    # to scale: every tile is drawn 48 x 24 mm, rotated to lie between its half-centres
    sizes = layout.locator(".tile-body").evaluate_all(
        "els => els.map(e => [e.width.baseVal.value, e.height.baseVal.value])"
    )
    assert all(size == [48, 24] for size in sizes)
    screenshot(page, "800x480-busy-layout")


def test_standing_alerts_follow_the_state_and_stack(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    lifted = samples.alert(
        19, code="TILE_LIFTED", alert_id="a0", message="The 5-3 left the layout: put it back."
    )
    open_live(page, controller, display_server, samples.state(alerts=[lifted]))
    expect(page.locator(".alert .alert-message")).to_have_text(
        "The 5-3 left the layout: put it back."
    )
    controller.event("alert", samples.alert(21))
    camera = samples.alert(22, code="UNREADABLE", alert_id="a2", message="Cannot read a tile.")
    camera["severity"] = "fault"
    controller.event("alert", camera)
    expect(page.locator(".alert")).to_have_count(3)
    expect(page.locator(".alert.compact")).to_have_attribute("data-id", "a0")
    expect(page.locator(".alert.sev-fault svg.icon-fault")).to_have_count(1)
    screenshot(page, "800x480-three-alerts")
    # a later state that no longer lists an alert supersedes it
    controller.state(samples.state(seq=23, alerts=[camera]))
    expect(page.locator(".alert")).to_have_count(1)
    expect(page.locator(".alert")).to_have_attribute("data-code", "UNREADABLE")


def test_an_announced_play_is_told(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    open_live(page, controller, display_server, samples.state())
    controller.event("play", samples.play(21, announce=("stitched_up",)))
    expect(page.locator(".chip.announce")).to_have_text("Stitched up!")


def test_a_display_started_mid_game_shows_it_from_retained_messages_alone(
    controller: Controller, start_display: Callable[[], DisplayServer], page: Page
) -> None:
    standing = samples.alert(19, code="TILE_LIFTED", alert_id="a0", message="Put the 5-3 back.")
    controller.state(samples.state(alerts=[standing]))
    controller.status("online")
    controller.publish(f"result/{samples.GAME}", samples.game_over(18), retain=True)
    server = start_display()  # subscribes after everything was published
    page.goto(server.url)
    expect(page.locator("body")).to_have_class("live phase-play ")
    expect(page.locator("#scores .card .score")).to_have_text(["85", "40", "6", "130"])
    expect(page.locator(".card.turn")).to_have_attribute("data-seat", "1")
    expect(page.locator("svg.layout .tile")).to_have_count(5)
    expect(page.locator(".alert .alert-message")).to_have_text("Put the 5-3 back.")
    expect(page.locator("#last-play")).to_have_text("Ana played 4-1 +10")
    expect(page.locator("#result")).to_be_hidden()  # the game is not over: phase says play


def test_two_players_with_double_twelve(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    open_live(page, controller, display_server, samples.two_seat_state())
    expect(page.locator("#scores .card")).to_have_count(2)
    expect(page.locator("#scores .card .score")).to_have_text(["235", "170"])
    expect(page.locator('.card[data-seat="0"] .tally-house')).to_have_count(5)
    expect(page.locator('.card[data-seat="0"] .tally-dot')).to_have_count(0)
    numbers = page.locator('svg.layout .tile[data-tile="12-10"] .pip-number')
    expect(numbers).to_have_text(["12", "10"])
    expect(page.locator('svg.layout .tile[data-tile="12-9"] .pip')).to_have_count(9)
    screenshot(page, "800x480-two-seats")


def test_more_holds_the_rarer_commands(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    open_live(page, controller, display_server, samples.state(phase="counting", turn=None))
    controller.answer = lambda c: samples.reply(c["id"])
    more = page.locator("#actions [data-action=more]")
    more.click()
    form = page.locator('form[data-form="count"]')
    form.locator("select[name=seat]").select_option("1")
    form.locator("input[name=pips]").fill("12")
    form.locator("button[type=submit]").click()
    expect(page.locator("#toast-text")).to_have_text("Count a hand: done")
    more.click()
    form = page.locator('form[data-form="count"]')
    form.locator("input[name=tiles]").fill("2-6, 3-3")
    form.locator("button[type=submit]").click()
    expect(page.locator("#toast-text")).to_have_text("Count a hand: done")
    more.click()
    page.locator('#more button[data-action=out][data-seat="3"]').click()
    expect(page.locator("#toast-text")).to_have_text("Went out: done")
    more.click()
    end_hand = page.locator("#more button[data-action=end_hand]")
    end_hand.click()
    expect(end_hand).to_have_text("Tap again: End hand (blocked)")
    assert len(controller.commands) == 3
    end_hand.click()
    expect(page.locator("#toast-text")).to_have_text("End hand (blocked): done")
    page.locator("#actions [data-action=confirm]").click()
    expect(page.locator("#toast-text")).to_have_text("Confirm counts: done")
    sent = [{k: v for k, v in c.items() if k != "id"} for c in controller.commands]
    assert sent == [
        {"action": "count", "seat": 1, "pips": 12},
        {"action": "count", "seat": 0, "tiles": ["6-2", "3-3"]},
        {"action": "out", "seat": 3},
        {"action": "end_hand"},
        {"action": "confirm"},
    ]


def test_both_languages_say_everything_and_know_every_alert_code(
    display_server: DisplayServer, page: Page, shared_dir: Path
) -> None:
    schema = json.loads((shared_dir / "spec" / "mqtt-v1.schema.json").read_text())
    codes = set(schema["$defs"]["alert"]["properties"]["code"]["enum"])
    page.goto(display_server.url)
    catalogue = page.evaluate("async () => (await import('/static/i18n.js')).CATALOGUE")
    assert set(catalogue["text"]) == {"en", "es"}
    assert set(catalogue["text"]["en"]) == set(catalogue["text"]["es"])
    for language in ("en", "es"):
        assert set(catalogue["alerts"][language]) == codes, language


def test_six_seats_fit_the_small_screen(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    open_live(page, controller, display_server, samples.six_seat_state())
    cards = page.locator("#scores .card")
    expect(cards).to_have_count(6)
    expect(cards.locator(".name")).to_have_text(["Ana", "Ben", "Carla", "Dev", "Eva", "Fermín"])
    for i in range(6):
        box = cards.nth(i).locator(".score").bounding_box()
        assert box is not None and box["y"] + box["height"] <= 480 - 56
    expect(page.locator(".card.turn .turn-flag")).to_be_visible()
    screenshot(page, "800x480-six-seats")
