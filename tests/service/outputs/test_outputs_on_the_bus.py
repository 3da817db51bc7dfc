"""The outputs on a table core's bus: the walnut leaflet's hand as the clock, the strip and
the voice take it (every device payload checked against spec/mqtt.md, every table
payload against mqtt-v1.schema.json)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.inputs import Count, EndHand, Lead
from engine.surface import SeenTile
from service.core import commands as cmd
from service.outputs.awtrix import ILLEGAL, NAME, SCORE, SCORED, TURN, WON
from service.outputs.wled import GREEN, RED, TEAM_COLOURS, WHITE
from tests.service.outputs.table import AWTRIX, WLED, Table, colours_of, text_of

OFF = (False, (0, 0, 0))
LIT = (True, WHITE)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path, rules="walnut")
    yield t
    t.close()


def leaflet_hand(table: Table) -> None:
    """The walnut leaflet's examples A-C: 5-5 led by Ximena, 5-0, 3-5, 0-2."""
    table.lay("5-5")
    table.command(cmd.GameCommand("lead", Lead(seat=0)))
    table.lay("5-0", "5-5")
    table.lay("3-5", "5-5")
    table.lay("0-2", "5-0")


def test_the_clock_shows_every_score_in_seat_order_and_the_turn_in_its_own_colour(
    table: Table,
) -> None:
    leaflet_hand(table)
    apps = table.devices.apps()
    turn = [[f["t"].strip() for f in app["text"] if f["c"] == TURN] for app in apps]
    assert list(zip([text_of(a) for a in apps], turn, strict=True)) == [
        ("Xi 0 Bo 0 Ca 0 De 0", []),  # the 5-5 laid: nobody's turn until who led is known
        ("Xi 10 Bo 0 Ca 0 De 0", ["Bo", "0"]),  # Ximena led: her 10, Bo to play
        ("Xi 10 Bo 10 Ca 0 De 0", ["Ca", "0"]),
        ("Xi 10 Bo 10 Ca 0 De 0", ["De", "0"]),  # 3-5 scores nothing: the turn moves on
        ("Xi 10 Bo 10 Ca 0 De 5", ["Xi", "10"]),
    ]
    last = apps[-1]
    assert colours_of(last) == [
        ("Xi", TURN), ("10", TURN),  # Ximena's turn again
        ("Bo", NAME), ("10", SCORE),
        ("Ca", NAME), ("0", SCORE),
        ("De", NAME), ("5", SCORE),
    ]  # fmt: skip
    # sent only when the scores or the turn changed, and kept for the link's reconnects
    bodies = [p for t, p, _ in table.devices.sent if t == f"{AWTRIX}/custom/domino"]
    assert all(a != b for a, b in itertools.pairwise(bodies))
    assert all(keep for t, _, keep in table.devices.sent if t.endswith("/custom/domino"))


def test_a_green_notification_for_each_scoring_play_and_none_for_a_warning(table: Table) -> None:
    leaflet_hand(table)
    notes = table.devices.notes()
    # 5-5 (10, laid before the table knew who led), 5-0 (10), 0-2 (5); 3-5 scores nothing;
    # the LEAD_UNKNOWN warning is no notification
    assert notes == [
        {"text": "+10", "color": SCORED, "duration": 3},
        {"text": "Bo +10", "color": SCORED, "duration": 3},
        {"text": "Dev +5", "color": SCORED, "duration": 3},
    ]
    assert not any(keep for t, _, keep in table.devices.sent if t == f"{AWTRIX}/notify")


def test_the_strip_lights_the_turn_seat_red_on_an_illegal_tile_and_back_once_lifted(
    table: Table,
) -> None:
    leaflet_hand(table)
    strips = table.devices.strips()
    assert strips[0] == [OFF] * 4  # the lead: nobody's turn yet
    assert strips[-4:] == [
        [OFF, LIT, OFF, OFF],
        [OFF, OFF, LIT, OFF],
        [OFF, OFF, OFF, LIT],
        [LIT, OFF, OFF, OFF],
    ]
    table.lay_at(SeenTile(6, 4, 570, 300, 594, 300))  # against the 2: it shows no 2
    kind, alert = table.events[-1]
    assert (kind, alert["code"], alert["severity"]) == ("alert", "NO_MATCH", "illegal")
    assert table.devices.strips()[-1] == [(True, RED)] * 4
    assert table.devices.notes()[-1] == {"text": alert["message"], "color": ILLEGAL, "duration": 5}
    table.lift("6-4")
    assert table.events[-1][1]["resolved"] is True
    assert table.devices.strips()[-1] == [LIT, OFF, OFF, OFF]
    assert len(table.devices.notes()) == 4  # a resolved alert is no notification
    segments = table.devices.on(f"{WLED}/api")[-1]["seg"]
    assert [(s["id"], s["start"], s["stop"]) for s in segments] == [
        (0, 0, 30), (1, 30, 60), (2, 60, 90), (3, 90, 120),
    ]  # fmt: skip


def test_the_voice_says_each_scoring_play_the_illegal_tile_and_the_blocked_hand(
    table: Table,
) -> None:
    leaflet_hand(table)
    table.lay_at(SeenTile(6, 4, 570, 300, 594, 300))
    table.lift("6-4")
    # example 5: blocked, the winner holds 3 pips, the others 5, 11 and 13: +5
    table.command(cmd.GameCommand("end", EndHand()))
    for seat, pips in enumerate((3, 5, 11, 13)):
        table.command(cmd.GameCommand(f"count-{seat}", Count(seat=seat, pips=pips)))
    assert table.heard.texts() == [
        "10.",  # the lead, before the table knew whose
        "Bo, 10",
        "Dev, 5",
        "6-4 does not match: that end shows 2.",
        "Blocked. Ximena wins the hand, 5 points.",
    ]
    assert {p.language for p in table.heard.phrases} == {"en"}


def test_game_over_shows_the_winner_green_and_says_so(tmp_path: Path) -> None:
    table = Table(tmp_path, rules="walnut", target=10)
    try:
        table.lay("5-5")
        table.command(cmd.GameCommand("lead", Lead(seat=0)))  # 10 points: the game is won
        assert table.events[-2][0] == "game" and table.events[-2][1]["event"] == "over"
        app = table.devices.apps()[-1]
        assert colours_of(app) == [
            ("Ximena wins:", WON), ("Xi", WON), ("10", WON),
            ("Bo", NAME), ("0", SCORE), ("Ca", NAME), ("0", SCORE), ("De", NAME), ("0", SCORE),
        ]  # fmt: skip
        assert table.devices.strips()[-1] == [(True, GREEN), OFF, OFF, OFF]
        assert table.heard.texts()[-1] == "Game over. Ximena wins with 10 points."
    finally:
        table.close()


def test_partners_show_as_teams_in_their_colours_and_in_spanish(tmp_path: Path) -> None:
    table = Table(tmp_path, rules="walnut", teams=(0, 1, 0, 1), language="es", target=10)
    try:
        table.lay("5-5")
        table.command(cmd.GameCommand("lead", Lead(seat=0)))
        app = table.devices.apps()[-1]
        assert colours_of(app) == [
            ("Ganan Ximena y Carla:", WON), ("XC", WON), ("10", WON), ("BD", NAME), ("0", SCORE),
        ]  # fmt: skip
        assert table.devices.strips()[-1] == [(True, GREEN), OFF, (True, GREEN), OFF]
        assert table.heard.texts()[-1] == "Fin de la partida. Ganan Ximena y Carla con 10 puntos."
        assert {p.language for p in table.heard.phrases} == {"es"}
    finally:
        table.close()


def test_a_partners_turn_is_lit_in_the_teams_colour(tmp_path: Path) -> None:
    table = Table(tmp_path, rules="walnut", teams=(0, 1, 0, 1))
    try:
        table.lay("5-5")
        table.command(cmd.GameCommand("lead", Lead(seat=0)))
        assert table.devices.strips()[-1] == [OFF, (True, TEAM_COLOURS[1]), OFF, OFF]
        table.lay("5-0", "5-5")
        assert table.devices.strips()[-1] == [OFF, OFF, (True, TEAM_COLOURS[0]), OFF]
        assert colours_of(table.devices.apps()[-1]) == [
            ("XC", TURN), ("10", TURN), ("BD", NAME), ("10", SCORE),
        ]  # fmt: skip
    finally:
        table.close()


def test_a_clean_stop_deletes_the_app_and_darkens_the_strip(table: Table) -> None:
    leaflet_hand(table)
    for output in table.outputs:
        output.stop()
    app_topic = f"{AWTRIX}/custom/domino"
    assert table.devices.sent[-2:] == [
        (app_topic, b"", True),
        (f"{WLED}/api", table.devices.sent[-1][1], True),
    ]
    assert table.devices.strips()[-1] == [OFF] * 4
    assert table.heard.closed


@pytest.mark.logs_errors
def test_a_failing_output_never_stops_the_table(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    table = Table(tmp_path, rules="walnut")

    def broken(topic: str, payload: bytes, *, keep: bool) -> None:
        raise OSError("the broker's socket is gone")

    table.devices.publish_device = broken  # type: ignore[method-assign]
    leaflet_hand(table)
    state = table.core.state()
    assert [s["score"] for s in state["seats"]] == [10, 10, 0, 5]
    assert table.heard.texts()[-1] == "Dev, 5"  # the other outputs still follow
    table.close()  # and the table stops
    failed = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert failed == [  # once each, not at every change
        "outputs: AwtrixOutput failed; the game goes on",
        "outputs: WledOutput failed; the game goes on",
    ]
