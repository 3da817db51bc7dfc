"""`domino-table run` as a real process against a real Mosquitto: commands, kill -9, restart."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_recorder import Recorder
from tests.fixtures.process import BIN
from tests.fixtures.service_process import TOPICS, P, Service, last_state, replies, send
from tests.fixtures.tiers import needs


@pytest.fixture
@needs("process")
def service(broker: Mosquitto, tmp_path: Path) -> Iterator[Service]:
    with Service(broker, tmp_path / "state", "--rules", "puerto-rico", "--seats", "4") as s:
        yield s


def test_online_with_state_then_commands_with_replies(broker: Mosquitto, service: Service) -> None:
    rec = Recorder(broker.host, broker.port, TOPICS)
    try:
        rec.wait_for(
            lambda seen: any(s.topic == f"{P}/status" and s.payload == b"online" for s in seen),
            timeout=15,
        )
        state = last_state(rec.seen)
        assert state is not None and state["rules"] == "puerto-rico" and state["phase"] == "lead"
        send(broker, {"id": "n1", "action": "new_game", "rules": "walnut", "seats": ["Ana", "Bo"]})
        send(broker, b"{not json")
        send(broker, {"id": "x1", "action": "pass", "seat": "zero"})
        send(broker, {"id": "u1", "action": "undo"})
        send(broker, {"id": "big", "action": "rename", "seat": 0, "name": "x" * 20000})
        send(broker, {"id": "r1", "action": "rename", "seat": 1, "name": "Bea"}, retain=True)
        got = rec.wait_for(lambda seen: {"n1", "x1", "u1"} <= set(replies(seen)), timeout=15)
        answers = replies(got)
        assert answers["n1"]["ok"] is True
        assert answers["x1"]["ok"] is False and answers["u1"]["ok"] is False
        rec.wait_for(lambda seen: (last_state(seen) or {}).get("rules") == "walnut")
        state = last_state(rec.seen)
        assert state is not None
        assert [s["name"] for s in state["seats"]] == ["Ana", "Bo"]
        assert "r1" not in replies(rec.seen)  # a retained command is ignored
        assert not rec.errors
    finally:
        rec.close()


def test_kill_9_and_restart_keep_the_game_and_seq(
    broker: Mosquitto, service: Service, tmp_path: Path
) -> None:
    rec = Recorder(broker.host, broker.port, TOPICS)
    try:
        rec.wait_for(lambda seen: last_state(seen) is not None, timeout=15)
        send(broker, {"id": "n1", "action": "new_game", "rules": "outdoor", "seats": 2})
        rec.wait_for(lambda seen: (last_state(seen) or {}).get("rules") == "outdoor")
        before = last_state(rec.seen)
        assert before is not None
        service.kill()
        rec.wait_for(
            lambda seen: [s.payload for s in seen if s.topic == f"{P}/status"][-1:] == [b"offline"],
            timeout=20,
        )
        service.start()
        rec.wait_for(
            lambda seen: [s.payload for s in seen if s.topic == f"{P}/status"][-1:] == [b"online"],
            timeout=20,
        )
        after = last_state(rec.seen)
        assert after is not None
        for key in ("seq", "game_id", "rules", "phase", "seats", "hand"):
            assert after[key] == before[key], key
        send(broker, {"id": "n1", "action": "new_game", "rules": "walnut", "seats": 3})
        got = rec.wait_for(lambda seen: len([s for s in seen if s.topic == f"{P}/cmd/reply"]) >= 2)
        again = [s.json() for s in got if s.topic == f"{P}/cmd/reply"]
        assert again[-1]["ok"] is True and again[-1]["id"] == "n1"
        assert (last_state(rec.seen) or {})["rules"] == "outdoor"  # a repeated id is not re-run
    finally:
        rec.close()


@pytest.mark.process
def test_bad_settings_flag_is_a_clear_error(tmp_path: Path) -> None:
    result = subprocess.run(
        [str(BIN), "run", "--table", "Tournament!", "--state-dir", str(tmp_path)],
        check=False, capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert result.returncode == 2
    assert "--table" in result.stderr and "table.id" in result.stderr
