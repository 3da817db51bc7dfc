"""The hub routes MQTT topics into the view and re-reads `state` after a gap."""

from __future__ import annotations

import json

from display.hub import Hub
from display.settings import DisplayServerSettings
from tests.display import samples

PREFIX = f"domino/{samples.TABLE}"


def hub() -> Hub:
    return Hub(DisplayServerSettings(table=samples.TABLE), clock=lambda: 1_700_000_000.0)


def send(h: Hub, suffix: str, payload: object) -> None:
    raw = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
    h.on_message(f"{PREFIX}/{suffix}", raw)


def test_a_gap_in_events_re_reads_the_retained_state() -> None:
    h = hub()
    rereads: list[int] = []
    h.reread_state = lambda: rereads.append(1)
    send(h, "state", samples.state(seq=20))
    send(h, "event/pass", samples.common(21, hand=3, seat=1))
    assert rereads == []
    send(h, "event/pass", samples.common(23, hand=3, seat=2))
    assert rereads == [1]


def test_topics_of_other_tables_and_unknown_topics_are_ignored() -> None:
    h = hub()
    h.on_message("domino/other/state", json.dumps(samples.state()).encode())
    send(h, "whatever", samples.state())
    assert h.view.state is None


def test_status_and_results_are_routed() -> None:
    h = hub()
    send(h, "status", "online")
    send(h, f"result/{samples.GAME}", samples.game_over(30))
    send(h, "state", samples.state(seq=30, phase="over", turn=None))
    snap = h.view.snapshot(0)
    assert snap["controller"]["status"] == "online"
    assert snap["game_over"]["winner"] == 3


def test_another_topic_prefix_and_utf8_names() -> None:
    h = Hub(DisplayServerSettings(table=samples.TABLE, topic_prefix="club/t7"), clock=lambda: 0.0)
    state = samples.state()
    state["seats"][1]["name"] = "Begoña"
    h.on_message("club/t7/state", json.dumps(state, ensure_ascii=False).encode())
    assert h.view.state is not None
    assert h.view.state["seats"][1]["name"] == "Begoña"


def test_payloads_of_the_wrong_shape_are_ignored() -> None:
    h = hub()
    send(h, "state", samples.state(seq=20))
    broken = samples.state(seq=21)
    broken["layout"] = []
    send(h, "state", broken)
    send(h, "event/alert", {"seq": "x", "id": [], "resolved": "no"})
    send(h, "event/play", {"seq": 22, "tile": None, "hand": {}})
    send(h, "event/game", {"seq": 23, "event": "over", "game_id": ["x"]})
    send(h, f"result/{samples.GAME}", [1, 2])
    assert h.view.state is not None and h.view.state["seq"] == 20
    h.view.snapshot(0)  # still renders
