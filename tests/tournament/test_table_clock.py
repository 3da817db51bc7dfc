"""The round's clock on a real table: `domino-table run` on the board emulator, seated by a
desk's `new_game` with an `ends_at` a few seconds ahead.

Walnut for two, the leaflet's opening laid on the board (5-5 by seat 0: 10; 5-0 by seat
1: 10); the clock runs out while the hand is in play; the table says `last_hand`; it is
SIGKILLed and restarted (the seating and the last hand survive); the hand goes on (5-3,
2-0: 5 more to seat 1), is blocked and counted, and the game is over: seat 1 ahead 15 to
10, `reason: "time"`, the desk's fields echoed. Then both players confirm the result,
and the retained result says who confirmed. Every payload is checked against the schema.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.emulator import BoardEmulator
from mqttweb.envelope import utc_ts
from tests.fixtures.board_table import Table
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_recorder import Recorder, Seen
from tests.fixtures.service_process import Service
from tests.tournament.tables import publish_once

pytestmark = pytest.mark.process

P = "domino/t1"
TOPICS = [f"{P}/{t}" for t in ("state", "status", "event/#", "cmd/reply", "result/+")]


def latest_state(seen: list[Seen]) -> dict[str, Any]:
    states = [s.json() for s in seen if s.topic == f"{P}/state"]
    return states[-1] if states else {}


def command(broker: Mosquitto, rec: Recorder, body: dict[str, Any]) -> dict[str, Any]:
    """Send a command on the table's broker; its reply."""
    publish_once(broker.host, broker.port, f"{P}/cmd", body, retain=False)

    def reply(seen: list[Seen]) -> dict[str, Any] | None:
        found = [s.json() for s in seen if s.topic == f"{P}/cmd/reply"]
        return next((r for r in reversed(found) if r["id"] == body["id"]), None)

    return reply(rec.wait_for(lambda s: reply(s) is not None, timeout=20)) or {}


def wait_state(rec: Recorder, test: Any, timeout: float = 30) -> dict[str, Any]:
    return latest_state(rec.wait_for(lambda s: bool(test(latest_state(s))), timeout=timeout))


@pytest.mark.slow
def test_the_clock_ends_the_game_after_the_hand_in_play(broker: Mosquitto, tmp_path: Path) -> None:
    ends_at = utc_ts(datetime.now(UTC) + timedelta(seconds=4))
    seated = {"tournament": "Spring Open", "round": 3, "players": ["p4", "p9"], "ends_at": ends_at}
    link = tmp_path / "board"
    service = Service(broker, tmp_path / "state", "--serial", str(link),
                      "--rules", "walnut", "--seats", "2")  # fmt: skip
    rec = Recorder(broker.host, broker.port, TOPICS)
    with BoardEmulator(link=link) as board:
        service.start()
        try:
            rec.wait_for(lambda s: any(x.payload == b"online" for x in s), timeout=30)
            new_game = {"id": "tournament-r3-t1-1", "action": "new_game", "rules": "walnut",
                        "seats": ["Ana", "Bo"], **seated}  # fmt: skip
            assert command(broker, rec, new_game)["ok"] is True
            state = wait_state(rec, lambda st: st.get("round") == 3 and st["phase"] == "lead")
            assert {k: state[k] for k in seated} == seated and state["last_hand"] is False
            game_id = state["game_id"]
            table = Table("walnut", 2, board)
            table.lay("5-5")
            wait_state(rec, lambda st: any(a["code"] == "LEAD_UNKNOWN" for a in st["alerts"]))
            assert command(broker, rec, {"id": "lead", "action": "lead", "seat": 0})["ok"]
            table.lay("5-0", "5-5")
            wait_state(rec, lambda st: len(st["layout"]["tiles"]) == 2)

            wait_state(rec, lambda st: st["last_hand"] is True)  # 4 s after the new game
            service.kill()
            service.start()  # restarted mid-hand: the seating and the last hand stay
            rec.wait_for(back_online, timeout=30)
            state = latest_state(rec.seen)
            assert {k: state[k] for k in seated} == seated
            assert (state["game_id"], state["last_hand"], state["phase"]) == (game_id, True, "play")

            table.lay("5-3", "5-5")
            table.lay("2-0", "5-0")
            wait_state(rec, lambda st: len(st["layout"]["tiles"]) == 4)
            assert command(broker, rec, {"id": "end", "action": "end_hand"})["ok"]
            for seat in (0, 1):
                body = {"id": f"count-{seat}", "action": "count", "seat": seat, "pips": 20}
                assert command(broker, rec, body)["ok"]
            final = wait_state(rec, lambda st: st["phase"] == "over")
            assert final["hand"] == 1 and [s["score"] for s in final["seats"]] == [10, 15]

            result_topic = f"{P}/result/{game_id}"
            seen = rec.wait_for(lambda s: any(x.topic == result_topic for x in s))
            result = next(x.json() for x in seen if x.topic == result_topic)
            assert (result["event"], result["reason"], result["winner"]) == ("over", "time", 1)
            assert result["scores"] == [10, 15] and {k: result[k] for k in seated} == seated
            over = [x.json() for x in seen if x.topic == f"{P}/event/game"][-1]
            assert over == result

            for seat in (1, 0):
                body = {"id": f"confirm-{seat}", "action": "confirm", "seat": seat}
                assert command(broker, rec, body)["ok"]
            confirmed = [x.json() for x in rec.wait_for(lambda s: len(_on(s, result_topic)) >= 3)
                         if x.topic == result_topic]  # fmt: skip
            assert [r.get("confirmed_by") for r in confirmed] == [None, [1], [1, 0]]
            assert confirmed[-1] == result | {"confirmed_by": [1, 0]}
            assert wait_state(rec, lambda st: "confirmed_by" in st)["confirmed_by"] in ([1], [1, 0])
        finally:
            service.stop()
            rec.close()  # (every payload it saw passed the schema)


def _on(seen: list[Seen], topic: str) -> list[Seen]:
    return [x for x in seen if x.topic == topic]


def back_online(seen: list[Seen]) -> bool:
    """The table went offline (its Last Will) and came back online since."""
    status = [x.payload for x in _on(seen, f"{P}/status")]
    return b"offline" in status and status[-1] == b"online"
