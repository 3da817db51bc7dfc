"""config/mosquitto/acl.conf and secure.conf, enforced by a real Mosquitto.

Every "cannot" is checked against a "can" on the same broker: a subscriber that may read
the topic sees the allowed message and never the forged one.
"""

from __future__ import annotations

import ssl
from pathlib import Path

import pytest

from tests.security.broker import (
    USERS,
    Client,
    SecureBroker,
    make_ca_and_server_cert,
    settle,
)


def connected(broker: SecureBroker, user: str | None, password: str | None = None) -> Client:
    client = Client(broker, user, password)
    assert client.connect(), f"{user} refused: {client.refused}"
    return client


def test_a_table_writes_its_own_topics_and_reads_its_commands(secure_broker: SecureBroker) -> None:
    desk = connected(secure_broker, "desk")
    table = connected(secure_broker, "domino/kitchen")
    try:
        assert desk.subscribe("domino/#")
        assert table.subscribe("domino/kitchen/cmd")
        for topic in ("status", "state", "event/play", "result/g1", "cmd/reply", "history/frame"):
            table.publish(f"domino/kitchen/{topic}", b"real")
            desk.wait_for(f"domino/kitchen/{topic}", b"real")
        referee = connected(secure_broker, "referee")
        referee.publish("domino/kitchen/cmd", b'{"id": "c1", "action": "undo"}')
        table.wait_for("domino/kitchen/cmd")
        referee.close()
    finally:
        desk.close()
        table.close()


@pytest.mark.parametrize(
    ("user", "topic"),
    [
        ("domino/patio", "domino/kitchen/state"),  # another table
        ("domino/patio", "domino/kitchen/event/play"),
        ("domino/patio", "domino/kitchen/result/g1"),
        ("domino/patio", "domino/kitchen/history/frame"),
        ("display-kitchen", "domino/kitchen/state"),  # its own table's display
        ("display-kitchen", "domino/kitchen/event/play"),
        ("referee", "domino/kitchen/event/play"),  # a commander only commands
        ("desk", "domino/kitchen/state"),  # the desk only reads tables
        ("domino/kitchen", "domino/tournament/standings"),  # a table is not the desk
        ("domino/kitchen", "domino/lobby/state"),  # nor a table it makes up
        ("display-kitchen", "domino/lobby/result/g1"),
    ],
)
def test_nobody_forges_a_table(secure_broker: SecureBroker, user: str, topic: str) -> None:
    desk = connected(secure_broker, "desk")
    forger = connected(secure_broker, user)
    try:
        assert desk.subscribe("domino/#")
        forger.publish(topic, b'{"forged": true}')
        forger.publish(topic, b'{"forged": true}', retain=True)
        settle()
        if topic.startswith("domino/kitchen/"):  # the real table still gets through
            table = connected(secure_broker, "domino/kitchen")
            table.publish(topic, b"real")
            desk.wait_for(topic, b"real")
            table.close()
        assert b'{"forged": true}' not in desk.payloads(topic)
        late = connected(secure_broker, "desk")  # nothing forged was kept as retained
        assert late.subscribe("domino/#")
        settle()
        assert b'{"forged": true}' not in late.payloads(topic)
        late.close()
    finally:
        desk.close()
        forger.close()


@pytest.mark.parametrize("user", ["display-kitchen", "domino/patio", "domino/kitchen", "desk"])
def test_only_commanders_send_commands(secure_broker: SecureBroker, user: str) -> None:
    table = connected(secure_broker, "domino/kitchen")
    sender = connected(secure_broker, user)
    referee = connected(secure_broker, "referee")
    try:
        assert table.subscribe("domino/kitchen/cmd")
        sender.publish("domino/kitchen/cmd", b"not allowed")
        referee.publish("domino/kitchen/cmd", b"allowed")
        table.wait_for("domino/kitchen/cmd", b"allowed")
        settle()
        assert table.payloads("domino/kitchen/cmd") == [b"allowed"]
    finally:
        for client in (table, sender, referee):
            client.close()


def test_reading_is_limited_too(secure_broker: SecureBroker) -> None:
    """A display reads its own table only; a table reads only its own commands.

    (Mosquitto 2.0 grants the SUBSCRIBE and then delivers only what the ACL lets the
    subscriber read.)"""
    desk = connected(secure_broker, "desk")
    display = connected(secure_broker, "display-kitchen")
    kitchen = connected(secure_broker, "domino/kitchen")
    patio = connected(secure_broker, "domino/patio")
    referee = connected(secure_broker, "referee")
    clients = (desk, display, kitchen, patio, referee)
    try:
        for client in (desk, display, kitchen):
            client.subscribe("domino/#")
        patio.publish("domino/patio/state", b"patio")
        referee.publish("domino/patio/cmd", b"to patio")
        kitchen.publish("domino/kitchen/state", b"kitchen")
        desk.wait_for("domino/patio/cmd", b"to patio")
        desk.wait_for("domino/kitchen/state", b"kitchen")
        display.wait_for("domino/kitchen/state", b"kitchen")
        settle()
        assert display.topics() == {"domino/kitchen/state"}
        assert kitchen.topics() == set()  # not even its own state: it only reads cmd
    finally:
        for client in clients:
            client.close()


def test_the_desk_publishes_standings(secure_broker: SecureBroker) -> None:
    desk = connected(secure_broker, "desk")
    display = connected(secure_broker, "display-kitchen")
    try:
        assert desk.subscribe("domino/tournament/#")
        assert display.subscribe("domino/tournament/#")  # standings are public
        desk.publish("domino/tournament/standings", b"{}", retain=True)
        desk.wait_for("domino/tournament/standings", b"{}")
        display.wait_for("domino/tournament/standings", b"{}")
        desk.publish("domino/tournament/standings", b"", retain=True)  # clear it
    finally:
        desk.close()
        display.close()


def test_wrong_password_unknown_user_and_anonymous_are_refused(
    secure_broker: SecureBroker,
) -> None:
    for user, password in (
        ("domino/kitchen", "wrong-" + USERS["domino/kitchen"]),
        ("domino/kitchen", USERS["domino/patio"]),  # another user's password
        ("nobody", "whatever"),
        (None, None),  # anonymous
    ):
        client = Client(secure_broker, user, password)
        assert not client.connect(), f"{user} was let in"
        assert client.refused is not None and client.refused.value in (0x86, 0x87)
        client.close()


def test_plain_mqtt_on_the_tls_port_gets_nowhere(secure_broker: SecureBroker) -> None:
    plain = Client(secure_broker, "domino/kitchen", tls=False)
    plain.port = secure_broker.port
    try:
        with pytest.raises((TimeoutError, OSError)):
            plain.connect(timeout=3)
    finally:
        plain.close()


def test_a_server_the_ca_did_not_sign_is_refused(
    secure_broker: SecureBroker, tmp_path: Path
) -> None:
    other = tmp_path / "other-ca"
    make_ca_and_server_cert(other)
    client = Client(secure_broker, "domino/kitchen", ca_file=other / "ca.crt")
    try:
        with pytest.raises(ssl.SSLError):
            client.connect()
    finally:
        client.close()


def test_the_loopback_listener_still_asks_for_a_password(secure_broker: SecureBroker) -> None:
    table = Client(secure_broker, "domino/kitchen", tls=False)
    assert table.connect()
    table.close()
    anonymous = Client(secure_broker, None, tls=False)
    assert not anonymous.connect()
    anonymous.close()
