"""The example Mosquitto configs load in a real Mosquitto, as an organiser installs them."""

from __future__ import annotations

import contextlib
import queue
import subprocess
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_recorder import Recorder
from tests.fixtures.spec import validate
from tests.tournament.desk_process import DeskProcess
from tests.tournament.tables import publish_once, result_payload
from tests.tournament.test_bridge import wait_bridged

pytestmark = pytest.mark.broker

CONFIGS = Path(__file__).resolve().parents[2] / "config" / "mosquitto"


def test_a_table_pi_with_the_whole_bridge_file_forwards_to_the_central_broker(
    tmp_path: Path,
) -> None:
    with contextlib.ExitStack() as stack:
        central = stack.enter_context(Mosquitto(tmp_path / "central"))
        text = (CONFIGS / "table-bridge.conf").read_text()
        text = text.replace("kitchen", "patio").replace(
            "central.local:1883", f"127.0.0.1:{central.port}"
        )
        table = stack.enter_context(Mosquitto(tmp_path / "patio", extra=text))
        rec = stack.enter_context(Recorder(central.host, central.port, ["domino/#"]))
        wait_bridged(central, "patio")
        publish_once(table.host, table.port, "domino/patio/status", b"online")
        publish_once(table.host, table.port, "domino/other/status", b"online")  # not its prefix
        got = rec.wait_for(
            lambda seen: any(s.topic == "domino/patio/status" for s in seen), timeout=20
        )
        assert [(s.topic, s.payload) for s in got] == [("domino/patio/status", b"online")]


def secure_central(tmp_path: Path) -> Mosquitto:
    """The central broker with central.conf, its password file (desk, domino/patio) and
    ACL; `with` starts it."""
    passwd = tmp_path / "passwd"
    subprocess.run(["mosquitto_passwd", "-b", "-c", str(passwd), "desk", "secret"], check=True)
    subprocess.run(["mosquitto_passwd", "-b", str(passwd), "domino/patio", "tablepw"], check=True)
    text = (CONFIGS / "central.conf").read_text()
    text = (
        text.replace("listener 1883", "")
        .replace("/etc/mosquitto/domino/passwd", str(passwd))
        .replace("/etc/mosquitto/domino/central-acl.conf", str(CONFIGS / "central-acl.conf"))
    )
    central = Mosquitto(tmp_path / "central", extra=text)
    central.config_text = lambda: Mosquitto.config_text(central).replace(  # type: ignore[method-assign]
        "allow_anonymous true\n", ""
    )
    return central


def test_the_central_config_loads_with_its_password_file_and_acl(tmp_path: Path) -> None:
    with secure_central(tmp_path) as central:
        assert connect(central, None, None).is_failure  # anonymous: refused
        assert connect(central, "desk", "wrong").is_failure
        assert not connect(central, "desk", "secret").is_failure


def connect(broker: Mosquitto, user: str | None, password: str | None) -> ReasonCode:
    """The broker's answer to a client logging in as `user`."""
    answers: queue.Queue[ReasonCode] = queue.Queue()
    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    if user is not None:
        client.username_pw_set(user, password)
    client.on_connect = lambda c, u, f, reason, p: answers.put(reason)
    client.connect(broker.host, broker.port)
    client.loop_start()
    try:
        return answers.get(timeout=10)
    finally:
        client.disconnect()
        client.loop_stop()


@pytest.mark.process
def test_secured_end_to_end_a_table_bridges_in_as_its_user_and_the_desk_ranks_it(
    tmp_path: Path,
) -> None:
    with contextlib.ExitStack() as stack:
        central = stack.enter_context(secure_central(tmp_path))
        text = (CONFIGS / "table-bridge.conf").read_text()
        text = (
            text.replace("kitchen", "patio")
            .replace("central.local:1883", f"127.0.0.1:{central.port}")
            .replace("#remote_username", "remote_username")
            .replace("#remote_password <the table's password>", "remote_password tablepw")
        )
        table = stack.enter_context(Mosquitto(tmp_path / "patio", extra=text))
        password = tmp_path / "desk.password"
        password.write_text("secret\n")
        login = ("--mqtt-username", "desk", "--mqtt-password-file", str(password))
        desk = DeskProcess(central.host, central.port, tmp_path / "desk", *login)
        stack.enter_context(desk)
        result = result_payload("patio", "g1", ["Ana", "Bo"], [100, 61], winner=0)
        publish_once(table.host, table.port, "domino/patio/status", b"online")
        publish_once(table.host, table.port, "domino/patio/result/g1", result)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            got = desk.get_json("/api/stats")
            if got["games"] == 1 and got["published"] >= 1:
                break
            time.sleep(0.1)
        standings = desk.get_json("/api/standings")
        validate("standings", standings)
        assert [(e["name"], e["wins"], e["margin"]) for e in standings["entries"]] == [
            ("Ana", 1, 39), ("Bo", 0, -39),
        ]  # fmt: skip
        assert standings["tables"] == [
            {"table": "patio", "status": "online", "game_id": None, "hand": None}
        ]
