"""The display server over HTTP, on a real Mosquitto: live view, commands and replies."""

from __future__ import annotations

import json
import subprocess
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from engine.alerts import AlertCode
from engine.messages import hint
from tests.display import samples
from tests.display.conftest import Controller, DisplayServer, start_display_on, wait_for
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.spec import validate


def get_view(server: DisplayServer) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}/api/view", timeout=5) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


def post(server: DisplayServer, body: object) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        f"{server.url}/api/cmd",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def live(server: DisplayServer) -> dict[str, Any]:
    view: dict[str, Any] = wait_for(
        lambda: (v := get_view(server))["stale"] == [] and v, what="a live view"
    )
    return view


def test_event_stream_sends_the_latest_view_at_once(
    controller: Controller, display_server: DisplayServer
) -> None:
    controller.state(samples.state())
    controller.status("online")
    live(display_server)
    with urllib.request.urlopen(f"{display_server.url}/events", timeout=5) as stream:
        assert stream.headers["Content-Type"] == "text/event-stream"
        lines = [stream.readline().decode().strip() for _ in range(6)]
    view_line = next(line for line in lines if line.startswith("data: {"))
    view = json.loads(view_line.removeprefix("data: "))
    assert view["state"]["seats"][1]["name"] == "Ben"
    assert view["table"] == samples.TABLE


def test_any_table_id_and_only_its_topics(
    broker: Mosquitto, controller: Controller, display_server: DisplayServer
) -> None:
    other = samples.state()
    other["table"] = "other"
    other["seats"][0]["name"] = "Zed"
    validate("state", other)
    controller.client.publish("domino/other/state", json.dumps(other), qos=1, retain=True)
    controller.state(samples.state())
    controller.status("online")
    assert live(display_server)["state"]["seats"][0]["name"] == "Ana"


def test_a_command_is_published_and_its_reply_returned(
    controller: Controller, display_server: DisplayServer
) -> None:
    controller.status("online")
    controller.answer = lambda c: samples.reply(c["id"], ok=False, error="It is Ben's turn.")
    wait_for(lambda: get_view(display_server)["broker"]["connected"], what="broker")
    status, reply = post(display_server, {"id": "page-42", "action": "pass", "seat": 2})
    assert status == 200
    assert reply["id"] == "page-42" and reply["ok"] is False
    assert reply["error"] == "It is Ben's turn."
    assert controller.commands == [{"id": "page-42", "action": "pass", "seat": 2}]


def test_no_reply_is_a_timeout(controller: Controller, display_server: DisplayServer) -> None:
    wait_for(lambda: get_view(display_server)["broker"]["connected"], what="broker")
    status, reply = post(display_server, {"action": "undo"})
    assert status == 504
    assert reply["ok"] is False and reply["display_error"] == "timeout"
    assert controller.commands[0]["action"] == "undo"


def test_a_body_that_is_not_json_is_refused(display_server: DisplayServer) -> None:
    for body in (b"{not json", b"\xff\xfe"):
        request = urllib.request.Request(
            f"{display_server.url}/api/cmd",
            data=body,
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        try:
            urllib.request.urlopen(request, timeout=5)
        except urllib.error.HTTPError as exc:
            assert exc.code == 400
        else:
            raise AssertionError("a body that is not JSON was accepted")


def test_a_bad_command_is_refused_before_mqtt(
    controller: Controller, display_server: DisplayServer
) -> None:
    status, reply = post(display_server, {"action": "lead"})
    assert status == 400
    assert "needs seat" in reply["error"]
    assert controller.commands == []


def test_without_a_broker_commands_fail_at_once_and_the_view_says_so(
    broker: Mosquitto, display_server: DisplayServer
) -> None:
    wait_for(lambda: get_view(display_server)["broker"]["connected"], what="broker")
    broker.stop()
    wait_for(lambda: "broker_lost" in get_view(display_server)["stale"], what="broker lost")
    status, reply = post(display_server, {"action": "next_hand"})
    assert status == 503
    assert reply["display_error"] == "broker"
    broker.start()
    wait_for(lambda: get_view(display_server)["broker"]["connected"], 8, "reconnected")


@pytest.mark.parametrize("payload", [b"not json", b"[1, 2]", b'{"v": 1}'])
def test_garbage_on_state_is_ignored(
    controller: Controller, display_server: DisplayServer, payload: bytes
) -> None:
    controller.state(samples.state())
    controller.status("online")
    live(display_server)
    controller.client.publish(f"domino/{samples.TABLE}/state", payload, qos=1).wait_for_publish(5)
    controller.event("pass", samples.common(21, hand=3, seat=1))
    wait_for(lambda: get_view(display_server)["last_event"] is not None, what="the pass")
    assert get_view(display_server)["state"]["seq"] == 20


def test_commands_must_be_json_so_other_sites_cannot_post_them(
    controller: Controller, display_server: DisplayServer
) -> None:
    request = urllib.request.Request(
        f"{display_server.url}/api/cmd",
        data=b'{"action": "redeal"}',
        headers={"Content-Type": "text/plain"},
        method="POST",
    )
    try:
        urllib.request.urlopen(request, timeout=5)
    except urllib.error.HTTPError as exc:
        assert exc.code == 415
    else:
        raise AssertionError("a text/plain command was accepted")
    assert controller.commands == []


@pytest.mark.broker
def test_a_refused_login_is_told_and_the_right_one_gets_in(tmp_path: Path) -> None:
    passwords = tmp_path / "passwords"
    subprocess.run(
        ["mosquitto_passwd", "-b", "-c", str(passwords), "display", "right"],
        check=True,
        capture_output=True,
    )
    passwords.chmod(0o600)
    secured = Mosquitto(
        tmp_path / "secured", extra=f"allow_anonymous false\npassword_file {passwords}\n"
    )
    with secured:
        wrong = start_display_on(secured, mqtt_username="display", mqtt_password="wrong")
        try:
            wait_for(lambda: "broker_refused" in get_view(wrong)["stale"], what="a refusal")
            assert get_view(wrong)["broker"]["refused"] == "Not authorized"
        finally:
            wrong.stop()
        right = start_display_on(secured, mqtt_username="display", mqtt_password="right")
        try:
            wait_for(lambda: get_view(right)["broker"]["connected"], what="the right login")
            assert "broker_refused" not in get_view(right)["stale"]
        finally:
            right.stop()


def test_the_page_learns_every_alert_code_and_hint_from_the_engine(
    display_server: DisplayServer,
) -> None:
    with urllib.request.urlopen(f"{display_server.url}/alerts.js", timeout=5) as response:
        assert response.headers["Content-Type"].startswith("text/javascript")
        text = response.read().decode()
    for code in AlertCode:
        assert f'"{code.name}": "{code.value}"' in text
        assert json.dumps(hint(code, "es"), ensure_ascii=False) in text
