"""A hand abandoned by `redeal` (spec/mqtt.md: a `hand` event with `result` `redealt`,
no winner, no points, no pips, the scores as they stand once its points are taken
back): the page says the hand is dealt again, in both its languages, with the scores
taken back; it is never shown as the hand's result, which comes when the hand dealt
again ends."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from display.view import TableView
from tests.display import samples
from tests.display.conftest import Controller, DisplayServer
from tests.fixtures.spec import validate

NOW = 1_700_000_000.0
BEFORE_THE_HAND = (55, 40, 6, 120)  # hand 2's scores (samples.history): hand 3 taken back
NO_TILES: dict[str, Any] = {"tiles": [], "spinner": None, "open_ends": [], "ends_total": 0}


def redealt(seq: int) -> dict[str, Any]:
    payload = samples.common(
        seq, hand=3, result="redealt", winner=None, team=None, points=0, pips=[],
        scores=list(BEFORE_THE_HAND), team_scores=[],
    )  # fmt: skip
    validate("hand", payload)
    return payload


def dealt_again(seq: int) -> dict[str, Any]:
    """The state after the redeal: hand 3 again, no tile down, to lead."""
    return samples.state(
        seq, scores=BEFORE_THE_HAND, turn=0, phase="lead", layout=NO_TILES, last=redealt(seq)
    )


def test_a_redealt_hand_is_told_with_the_scores_taken_back(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    controller.state(samples.state())  # hand 3 in play: Ana 85, Dev 130
    controller.status("online")
    page.goto(display_server.url)
    scores = page.locator("#scores .card .score")
    expect(scores).to_have_text(["85", "40", "6", "130"])
    controller.event("hand", redealt(21))
    controller.state(dealt_again(21))
    expect(page.locator("#last-event")).to_have_text("Hand 3 dealt again: nobody scores")
    expect(scores).to_have_text(["55", "40", "6", "120"])
    expect(page.locator("#result")).to_be_hidden()  # not a result: nobody won it
    expect(page.locator("#last-play")).to_have_count(0)
    page.goto(f"{display_server.url}/?lang=es")  # opened afterwards: from the state alone
    expect(page.locator("#last-event")).to_have_text("Mano 3 repartida otra vez: nadie anota")
    expect(scores).to_have_text(["55", "40", "6", "120"])


def test_a_redealt_hand_is_not_the_result_of_the_hand_dealt_again() -> None:
    """The hand dealt again has the same number: when it ends, its result is its own,
    not the abandoned one's (nor a result at all until the table tells it)."""
    view = TableView(samples.TABLE)
    view.on_broker(True, NOW)
    view.on_status("online", NOW)
    view.on_state(samples.state(seq=20), NOW)
    view.on_event("hand", redealt(21))
    view.on_state(dealt_again(21), NOW)
    assert view.snapshot(NOW)["last_event"]["result"] == "redealt"
    over = samples.state(seq=30, phase="hand_over", turn=None, layout=NO_TILES, last=None)
    view.on_state(over, NOW)  # its `hand` event not here yet, nor in the history
    assert view.snapshot(NOW)["hand_result"] is None
    view.on_event("hand", samples.hand(31))
    assert view.snapshot(NOW)["hand_result"]["result"] == "domino"
