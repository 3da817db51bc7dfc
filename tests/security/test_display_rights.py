"""Real displays against the shipped ACL: a read-only display's command never reaches
the table, a display whose user is a named commander gets its command applied.

Three real processes on one broker: the table service (`domino-table run`, user
`domino/kitchen`, TLS) and two `domino-table display` servers on the broker's loopback
listener, one as `display-kitchen`, one as `referee` (test_tls_clients.py runs the
display over TLS).
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.fixtures.display_http import post_command
from tests.fixtures.process import BIN, ChildProcess
from tests.security.broker import USERS, Client, SecureBroker
from tests.security.service_proc import TableProcess, kitchen_settings


@contextmanager
def display(
    broker: SecureBroker, user: str, folder: Path, *extra: str, tls: bool = False
) -> Iterator[str]:
    """`domino-table display` for table kitchen as `user` (with TLS on the TLS port, or
    on the loopback listener); yields its base URL once it is connected and shows the
    table's state (so the ACL let it read)."""
    folder.mkdir(parents=True)
    secret = folder / "password"
    secret.write_text(USERS[user] + "\n")
    secret.chmod(0o600)
    args = [
        str(BIN), "display", "--table", "kitchen", "--mqtt-host", broker.host,
        "--mqtt-port", str(broker.port if tls else broker.plain_port), "--mqtt-username", user,
        "--mqtt-password-file", str(secret), "--http-host", "127.0.0.1",
        "--http-port", "0", "--reply-timeout", "2", *extra,
    ]  # fmt: skip
    if "--command-pin-file" not in extra:
        args.append("--no-pin")  # open buttons: the ACL is what is tested here
    if tls:
        args += ["--mqtt-tls", "--mqtt-ca-file", str(broker.certs / "ca.crt")]

    with ChildProcess(args, folder / "display.log", stdout=True) as proc:
        url = f"http://127.0.0.1:{proc.served_port()}"

        def shows_the_table() -> bool:
            view = json.loads(urllib.request.urlopen(f"{url}/api/view", timeout=2).read())
            return bool(view["broker"]["connected"] and view["state"] is not None)

        proc.wait_until(shows_the_table)
        yield url


def seat_names(desk: Client) -> list[str]:
    state = json.loads(desk.payloads("domino/kitchen/state")[-1])
    return [seat["name"] for seat in state["seats"]]


def test_only_a_commander_display_commands_the_table(
    secure_broker: SecureBroker, tmp_path: Path
) -> None:
    desk = Client(secure_broker, "desk")
    assert desk.connect() and desk.subscribe("domino/#")
    settings = kitchen_settings(tmp_path, secure_broker)
    try:
        with TableProcess(settings):
            desk.wait_for("domino/kitchen/status", b"online", timeout=20)
            with display(secure_broker, "display-kitchen", tmp_path / "viewer") as viewer:
                status, reply, _ = post_command(viewer, {"id": "v1", "action": "rename", "seat": 0,
                                              "name": "Mallory"})  # fmt: skip
            assert status == 504 and reply["display_error"] == "timeout", reply
            with display(secure_broker, "referee", tmp_path / "referee") as referee:
                status, reply, _ = post_command(referee, {"id": "r1", "action": "rename", "seat": 0,
                                               "name": "Ana"})  # fmt: skip
            assert status == 200 and reply["ok"] is True, reply
            desk.wait_for("domino/kitchen/cmd/reply")
            deadline = time.monotonic() + 10
            while seat_names(desk)[0] != "Ana":
                assert time.monotonic() < deadline, seat_names(desk)
                time.sleep(0.1)
            replied = {json.loads(p)["id"] for p in desk.payloads("domino/kitchen/cmd/reply")}
            assert replied == {"r1"}  # the viewer's command never reached the table
            assert "Mallory" not in b"".join(desk.payloads("domino/kitchen/state")).decode()
    finally:
        desk.close()
