"""The view folded from MQTT: state is the truth, newer events are laid over it."""

from __future__ import annotations

from display.payloads import kind_of
from display.view import TableView
from tests.display import samples

NOW = 1_700_000_000.0


def live_view(**kwargs: object) -> TableView:
    view = TableView(samples.TABLE, **kwargs)  # type: ignore[arg-type]
    view.on_broker(True, NOW)
    view.on_status("online", NOW)
    view.on_state(samples.state(seq=20), NOW)
    return view


def test_a_live_view_is_current() -> None:
    view = live_view()
    snap = view.snapshot(NOW)
    assert snap["stale"] == []
    assert snap["state"]["seats"][0]["name"] == "Ana"
    assert snap["last_play"]["tile"] == "4-1"
    assert snap["now"] == "2023-11-14T22:13:20.000Z"


def test_stale_reasons_say_why_scores_may_be_old() -> None:
    view = TableView(samples.TABLE)
    assert view.stale_reasons() == ["no_state", "broker_connecting", "controller_unknown"]
    view = live_view()
    view.on_status("offline", NOW)
    assert view.stale_reasons() == ["controller_offline"]
    view.on_broker(False, NOW + 1)
    assert view.stale_reasons() == ["broker_lost", "controller_offline"]


def test_an_alert_stands_until_resolved() -> None:
    view = live_view()
    view.on_event("alert", samples.alert(21))
    assert [a["code"] for a in view.alerts()] == ["NO_MATCH"]
    view.on_event("alert", samples.alert(22, resolved=True))
    assert view.alerts() == []


def test_the_state_after_an_alert_is_the_truth() -> None:
    view = live_view()
    view.on_event("alert", samples.alert(21))
    standing = samples.alert(21)
    view.on_state(samples.state(seq=21, alerts=[standing]), NOW)
    assert [a["id"] for a in view.alerts()] == ["a1"]
    view.on_event("alert", samples.alert(22, resolved=True))
    assert view.alerts() == []  # resolved by an event newer than that state
    view.on_state(samples.state(seq=22), NOW)
    assert view.alerts() == []


def test_an_alert_in_the_retained_state_shows_when_opened_mid_game() -> None:
    view = TableView(samples.TABLE)
    view.on_state(samples.state(alerts=[samples.alert(19)]), NOW)
    assert [a["message"] for a in view.alerts()] == [samples.alert(19)["message"]]


def test_an_alert_about_no_tile_shows() -> None:
    """The schema lets an alert's `tile` be null (a board away, a camera unsure of a place)."""
    fault = samples.alert(21, code="BOARD_OFFLINE", alert_id="f1", severity="fault",
                          message="The board is not answering.", seat=None, tile=None)  # fmt: skip
    view = live_view()
    view.on_event("alert", fault)
    view.on_state(samples.state(seq=22, alerts=[fault]), NOW)
    assert [a["id"] for a in view.alerts()] == ["f1"]


def test_an_undo_that_took_draws_back_says_how_many() -> None:
    view = live_view()
    view.on_event("play", samples.play(21, tile="4-1"))
    view.on_event("draw", samples.common(22, hand=3, seat=1, count=2))
    undo = samples.common(23, hand=3, undone=21, points=10, draws=2)
    view.on_event("undo", undo)
    assert view.snapshot(NOW)["last_event"] == {**undo, "kind": "undo"}
    fresh = TableView(samples.TABLE)  # a page opened after it: the state's `last`
    fresh.on_state(samples.state(seq=23, last=None) | {"last": undo}, NOW)
    assert fresh.snapshot(NOW)["last_event"] == {**undo, "kind": "undo"}


def test_a_gap_in_seq_asks_for_the_state_again() -> None:
    view = live_view()
    assert view.on_event("pass", samples.common(21, hand=3, seat=1)) is False
    assert view.on_event("pass", samples.common(24, hand=3, seat=2)) is True
    assert "resync" in view.stale_reasons()
    view.on_state(samples.state(seq=24), NOW)
    assert view.stale_reasons() == []


def test_an_undo_takes_the_last_play_away() -> None:
    view = live_view()
    view.on_event("play", samples.play(21, tile="4-1"))
    assert view.snapshot(NOW)["last_play"]["seq"] == 21
    view.on_event("undo", samples.common(22, hand=3, undone=21, points=10))
    assert view.snapshot(NOW)["last_play"] is None


def test_the_hand_result_shows_after_the_hand_only() -> None:
    view = live_view()
    view.on_event("hand", samples.hand(21))
    assert view.snapshot(NOW)["hand_result"] is None  # state still says play
    view.on_state(samples.state(seq=21, phase="hand_over", turn=None), NOW)
    assert view.snapshot(NOW)["hand_result"]["pips"] == [0, 31, 12, 9]


def test_the_hand_result_comes_from_history_when_opened_after_the_hand() -> None:
    view = TableView(samples.TABLE)
    st = samples.state(phase="hand_over", turn=None, last=None)
    st["hand"] = 2
    view.on_state(st, NOW)
    result = view.snapshot(NOW)["hand_result"]
    assert result["winner"] == 0 and result["from_history"] is True


def test_game_over_from_the_event_or_the_retained_result() -> None:
    view = live_view()
    view.on_result(samples.GAME, samples.game_over(30))
    view.on_state(samples.state(seq=30, phase="over", turn=None), NOW)
    assert view.snapshot(NOW)["game_over"]["winner"] == 3


def test_language_flag_then_state_then_english() -> None:
    assert live_view().snapshot(NOW)["language"] == "en"
    view = TableView(samples.TABLE)
    view.on_state(samples.state(language="es"), NOW)
    assert view.snapshot(NOW)["language"] == "es"
    flagged = TableView(samples.TABLE, language="en")
    flagged.on_state(samples.state(language="es"), NOW)
    assert flagged.snapshot(NOW)["language"] == "en"


def test_a_payload_that_is_not_a_state_is_ignored() -> None:
    view = TableView(samples.TABLE)
    view.on_state({"v": 1, "seats": []}, NOW)
    assert view.state is None


def test_state_last_is_classified_by_its_fields() -> None:
    assert kind_of(samples.play(5)) == "play"
    assert kind_of(samples.alert(5)) == "alert"
    assert kind_of(samples.hand(5)) == "hand"
    assert kind_of(samples.game_over(5)) == "game"
    assert kind_of(samples.common(5, hand=1, undone=4, points=0)) == "undo"
    assert kind_of(samples.common(5, hand=1, seat=0)) is None  # pass or lead: unsure


def test_events_without_their_required_fields_are_ignored() -> None:
    view = live_view()
    broken = samples.alert(21)
    del broken["message"]
    assert view.on_event("alert", broken) is False
    assert view.on_event("alert", {**samples.alert(22), "resolved": "no"}) is False
    assert view.alerts() == []
    assert view.max_seq == 20


def test_game_over_waits_for_the_state_to_say_so() -> None:
    view = live_view()
    view.on_event("game", samples.game_over(21))
    assert view.snapshot(NOW)["game_over"] is None
    view.on_state(samples.state(seq=21, phase="over", turn=None, last=samples.game_over(21)), NOW)
    assert view.snapshot(NOW)["game_over"]["winner"] == 3


def test_game_over_from_state_last_alone() -> None:
    view = TableView(samples.TABLE)
    view.on_state(samples.state(seq=21, phase="over", turn=None, last=samples.game_over(21)), NOW)
    assert view.snapshot(NOW)["game_over"]["winner"] == 3


def test_re_reading_the_same_state_keeps_its_time() -> None:
    view = live_view()
    view.on_state(samples.state(seq=20), NOW + 60)
    assert view.snapshot(NOW + 60)["state_received"] == "2023-11-14T22:13:20.000Z"
    view.on_state(samples.state(seq=21), NOW + 61)
    assert view.snapshot(NOW + 61)["state_received"] == "2023-11-14T22:14:21.000Z"


def test_a_refused_login_is_a_reason_until_connected() -> None:
    view = TableView(samples.TABLE)
    view.on_refused("Not authorized", NOW)
    assert "broker_refused" in view.stale_reasons()
    view.on_broker(True, NOW + 1)
    assert "broker_refused" not in view.stale_reasons()
