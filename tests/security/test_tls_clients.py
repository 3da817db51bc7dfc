"""The display and the desk over TLS, on the shipped configuration's TLS listener.

Real processes on the real Mosquitto of broker.py: the table service (`domino-table
run`, TLS), `domino-table display` with `--mqtt-tls --mqtt-ca-file` (and a command PIN)
and `domino-table tournament` likewise; and both given the CA of another broker, which
must be refused with a sentence that says so, not a silent hang.
"""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.fixtures.display_http import post_command
from tests.fixtures.process import BIN, ChildProcess
from tests.security.broker import USERS, Client, SecureBroker, make_ca_and_server_cert
from tests.security.service_proc import TableProcess, kitchen_settings
from tests.security.test_desk_rights import desk_process, ranked_tables
from tests.security.test_display_rights import display, seat_names

PIN = "7319"


def test_a_display_over_tls_shows_the_table_and_applies_a_commanders_command(
    secure_broker: SecureBroker, tmp_path: Path
) -> None:
    desk = Client(secure_broker, "desk")
    assert desk.connect() and desk.subscribe("domino/#")
    settings = kitchen_settings(tmp_path, secure_broker)
    pin_file = tmp_path / "pin"
    pin_file.write_text(PIN + "\n")
    try:
        with TableProcess(settings):
            desk.wait_for("domino/kitchen/status", b"online", timeout=20)
            folder = tmp_path / "referee"
            # `display` returns once the display shows the table's state: read over TLS
            with display(secure_broker, "referee", folder, "--command-pin-file", str(pin_file),
                         tls=True) as referee:  # fmt: skip
                ask = {"action": "rename", "seat": 0}
                status, reply, _ = post_command(referee, {**ask, "id": "nopin", "name": "Mallory"})
                assert (status, reply["display_error"]) == (401, "pin_needed"), reply
                status, reply, _ = post_command(referee, {**ask, "id": "r1", "name": "Ana"}, PIN)
            assert status == 200 and reply["ok"] is True, reply
            deadline = time.monotonic() + 10
            while seat_names(desk)[0] != "Ana":
                assert time.monotonic() < deadline, seat_names(desk)
                time.sleep(0.1)
            replied = {json.loads(p)["id"] for p in desk.payloads("domino/kitchen/cmd/reply")}
            assert replied == {"r1"}  # the command without the PIN never reached the table
        log = (folder / "display.log").read_text()
        assert f"connecting to 127.0.0.1:{secure_broker.port} (TLS)" in log
        assert "its command buttons ask for the command PIN" in log
        assert PIN not in log and USERS["referee"] not in log
    finally:
        desk.close()


def test_a_desk_over_tls_ranks_a_table(secure_broker: SecureBroker, tmp_path: Path) -> None:
    viewer = Client(secure_broker, "display-kitchen")
    assert viewer.connect() and viewer.subscribe("domino/tournament/standings")
    settings = kitchen_settings(tmp_path, secure_broker)
    try:
        with (
            desk_process(secure_broker, "desk", tmp_path / "desk", tls=True) as log,
            TableProcess(settings),
        ):
            deadline = time.monotonic() + 30
            while not any(
                t["table"] == "kitchen" and t["status"] == "online" for t in ranked_tables(viewer)
            ):
                assert time.monotonic() < deadline, (ranked_tables(viewer), log.read_text())
                time.sleep(0.2)
        text = log.read_text()
        assert f"connecting to 127.0.0.1:{secure_broker.port} (TLS)" in text
        assert "refused" not in text.lower() and "failed" not in text.lower()
    finally:
        viewer.close()


def fetch_view(url: str) -> dict[str, Any] | None:
    try:
        with urllib.request.urlopen(f"{url}/api/view", timeout=2) as response:
            view: dict[str, Any] = json.loads(response.read())
            return view
    except OSError:
        return None


REFUSED = "failed: the broker's certificate was refused (unable to get local issuer certificate)"


def test_a_server_certificate_from_another_ca_is_refused_with_a_clear_message(
    secure_broker: SecureBroker, tmp_path: Path
) -> None:
    other = tmp_path / "other-ca"
    make_ca_and_server_cert(other)  # a CA that did not sign this broker's certificate
    tls = ["--mqtt-tls", "--mqtt-ca-file", str(other / "ca.crt")]
    password = tmp_path / "password"
    password.write_text(USERS["referee"] + "\n")
    common = ["--mqtt-host", "127.0.0.1", "--mqtt-port", str(secure_broker.port),
              "--mqtt-username", "referee", "--mqtt-password-file", str(password),
              "--http-host", "127.0.0.1", *tls]  # fmt: skip
    display_log, desk_log = tmp_path / "display.log", tmp_path / "desk.log"
    shown = ChildProcess(
        [str(BIN), "display", "--table", "kitchen", "--http-port", "0", "--no-pin",
         *common], display_log, stdout=True,
    )  # fmt: skip
    desk = ChildProcess(
        [str(BIN), "tournament", "--http-port", "0",
         "--state-dir", str(tmp_path / "state"), *common], desk_log, stdout=True,
    )  # fmt: skip
    with shown, desk:
        url = f"http://127.0.0.1:{shown.served_port()}"
        deadline = time.monotonic() + 15
        view = None
        while not (view and view["broker"]["refused"] and REFUSED in desk_log.read_text()):
            assert shown.alive() and desk.alive(), display_log.read_text()
            assert time.monotonic() < deadline, (
                view,
                display_log.read_text(),
                desk_log.read_text(),
            )
            time.sleep(0.2)
            view = fetch_view(url)
        assert view is not None
        where = f"TLS with 127.0.0.1:{secure_broker.port} "
        hint = "; --mqtt-ca-file must be the CA that signed it, and --mqtt-host a name it holds"
        assert view["broker"]["refused"] == where + REFUSED + hint
        assert "broker_refused" in view["stale"] and view["broker"]["connected"] is False
        time.sleep(3)  # paho retries every 1-2 s: the message is logged once, not each time
        for log in (display_log, desk_log):
            text = log.read_text()
            assert text.count(where + REFUSED) == 1, text
            assert USERS["referee"] not in text
        assert shown.alive() and desk.alive()  # still retrying, not crashed
