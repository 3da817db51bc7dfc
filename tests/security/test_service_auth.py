"""The real service with a user name and password over TLS, against the shipped ACL.

The service (`domino-table run`, a child process) is table `kitchen`, user
`domino/kitchen`. The desk (reads domino/#) watches everything the broker delivers.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.security.broker import USERS, Client, SecureBroker, settle
from tests.security.service_proc import TableProcess, table_settings

P = "domino/kitchen"


@pytest.fixture
def desk(secure_broker: SecureBroker) -> Iterator[Client]:
    client = Client(secure_broker, "desk")
    assert client.connect()
    assert client.subscribe("domino/#")
    yield client
    client.close()


def command(broker: SecureBroker, user: str, body: dict[str, object]) -> None:
    sender = Client(broker, user)
    assert sender.connect()
    sender.publish(f"{P}/cmd", json.dumps(body))
    sender.close()


def replies(desk: Client) -> dict[str, dict[str, object]]:
    return {r["id"]: r for r in map(json.loads, desk.payloads(f"{P}/cmd/reply"))}


def last_state(desk: Client) -> dict[str, object]:
    return json.loads(desk.payloads(f"{P}/state")[-1])  # type: ignore[no-any-return]


def test_the_service_connects_over_tls_with_its_password_and_publishes(
    secure_broker: SecureBroker, desk: Client, tmp_path: Path
) -> None:
    password = USERS[f"{P}"]
    settings = table_settings(tmp_path / "table", secure_broker, P, password)
    with TableProcess(settings) as table:
        desk.wait_for(f"{P}/status", b"online", timeout=20)
        assert last_state(desk)["rules"] == "walnut"
        command(
            secure_broker, "referee", {"id": "r1", "action": "rename", "seat": 0, "name": "Ana"}
        )
        deadline = time.monotonic() + 10
        while "r1" not in replies(desk):
            assert time.monotonic() < deadline, "no reply to the referee's command"
            time.sleep(0.05)
        assert replies(desk)["r1"]["ok"] is True
        table.stop()
        desk.wait_for(f"{P}/status", b"offline")  # a clean stop, allowed by the ACL
    log = table.output()
    assert "mqtt: connected to 127.0.0.1" in log
    assert password not in log


@pytest.mark.parametrize("user", ["display-kitchen", "domino/patio", "desk"])
def test_a_command_without_rights_is_never_applied(
    secure_broker: SecureBroker, desk: Client, tmp_path: Path, user: str
) -> None:
    settings = table_settings(tmp_path / "table", secure_broker, P, USERS[P])
    with TableProcess(settings) as table:
        desk.wait_for(f"{P}/status", b"online", timeout=20)
        seq_before = last_state(desk)["seq"]
        command(secure_broker, user, {"id": "bad", "action": "new_game", "rules": "outdoor",
                                      "seats": 2})  # fmt: skip
        command(secure_broker, user, {"id": "bad2", "action": "rename", "seat": 0, "name": "X"})
        command(secure_broker, "referee", {"id": "good", "action": "rename", "seat": 1,
                                           "name": "Bea"})  # fmt: skip
        deadline = time.monotonic() + 10
        while "good" not in replies(desk):
            assert time.monotonic() < deadline, "no reply to the referee's command"
            time.sleep(0.05)
        settle(1.0)
        assert set(replies(desk)) == {"good"}  # the others never reached the table
        state = last_state(desk)
        assert state["rules"] == "walnut" and len(state["seats"]) == 4  # type: ignore[arg-type]
        names = [seat["name"] for seat in state["seats"]]  # type: ignore[attr-defined]
        assert names[1] == "Bea" and names[0] != "X"
        assert state["seq"] == seq_before  # no event: no game was started
    assert "bad" not in table.output()


def test_a_wrong_password_is_refused_with_a_clear_line_and_never_logged(
    secure_broker: SecureBroker, desk: Client, tmp_path: Path
) -> None:
    wrong = "Wrong-" + USERS[P]
    settings = table_settings(tmp_path / "table", secure_broker, P, wrong)
    with TableProcess(settings) as table:
        deadline = time.monotonic() + 15
        while "refused the connection" not in table.output():
            assert time.monotonic() < deadline, table.output()
            time.sleep(0.1)
        settle(2.5)  # at least one retry
        assert table.proc is not None and table.proc.poll() is None  # keeps retrying
    log = table.output()
    refusals = [line for line in log.splitlines() if "refused the connection" in line]
    assert "WARNING" in refusals[0] and "Not authorized" in refusals[0], refusals
    assert len([line for line in refusals if "WARNING" in line]) == 1  # said once, not spammed
    assert wrong not in log and USERS[P] not in log
    assert desk.payloads(f"{P}/status") == [] and desk.payloads(f"{P}/state") == []


def test_the_password_is_not_in_the_logs_even_at_debug(
    secure_broker: SecureBroker, desk: Client, tmp_path: Path
) -> None:
    """Plain MQTT on the loopback listener too: the password is what a log would leak."""
    password = USERS[P]
    settings = table_settings(tmp_path / "table", secure_broker, P, password, tls=False)
    with TableProcess(settings) as table:
        desk.wait_for(f"{P}/status", b"online", timeout=20)
        table.stop()
    log = table.output()
    assert "DEBUG" in log  # the log was verbose, and still:
    assert password not in log
    assert password not in (tmp_path / "table" / "settings.toml").read_text()
