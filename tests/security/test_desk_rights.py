"""The real tournament desk against the shipped ACLs: as user `desk` it reads the tables
(domino/#) and writes domino/tournament/# (its sync marker and the standings), which
every user may read. On a tournament's central broker (central.conf, central-acl.conf)
only the desk seats tables and writes domino/tournament/: a table cannot forge a seating
or a result for another table.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.process import BIN, ChildProcess
from tests.security.broker import USERS, Client, SecureBroker, make_password_file, settle
from tests.security.service_proc import TableProcess, kitchen_settings

STANDINGS = "domino/tournament/standings"


@contextmanager
def desk_process(
    broker: SecureBroker, user: str, folder: Path, *, tls: bool = False
) -> Iterator[Path]:
    """`domino-table tournament` logged in as `user` (with TLS on the TLS port, or on
    the loopback listener); yields its log file."""
    folder.mkdir(parents=True)
    secret = folder / "password"
    secret.write_text(USERS[user] + "\n")
    secret.chmod(0o600)
    args = [
        str(BIN), "tournament", "--mqtt-host", broker.host,
        "--mqtt-port", str(broker.port if tls else broker.plain_port), "--mqtt-username", user,
        "--mqtt-password-file", str(secret), "--http-host", "127.0.0.1",
        "--http-port", "0", "--state-dir", str(folder / "state"),
    ]  # fmt: skip
    if tls:
        args += ["--mqtt-tls", "--mqtt-ca-file", str(broker.certs / "ca.crt")]
    with ChildProcess(args, folder / "desk.log", stdout=True) as proc:
        yield proc.log
        assert proc.alive(), proc.output()
    assert USERS[user] not in proc.output()


def ranked_tables(viewer: Client) -> list[dict[str, object]]:
    return [
        table
        for payload in viewer.payloads(STANDINGS)
        if payload
        for table in json.loads(payload)["tables"]
    ]


def test_the_desk_ranks_a_table_and_everyone_reads_the_standings(
    secure_broker: SecureBroker, tmp_path: Path
) -> None:
    viewer = Client(secure_broker, "display-kitchen")
    assert viewer.connect() and viewer.subscribe(STANDINGS)
    settings = kitchen_settings(tmp_path, secure_broker)
    try:
        with desk_process(secure_broker, "desk", tmp_path / "desk") as log, TableProcess(settings):
            deadline = time.monotonic() + 30
            while not any(
                t["table"] == "kitchen" and t["status"] == "online" for t in ranked_tables(viewer)
            ):
                assert time.monotonic() < deadline, (ranked_tables(viewer), log.read_text())
                time.sleep(0.2)
        assert "refused" not in log.read_text().lower()
    finally:
        viewer.close()


def test_a_desk_without_the_desks_rights_publishes_nothing(
    secure_broker: SecureBroker, tmp_path: Path
) -> None:
    """The same desk logged in as `referee`: its standings are dropped by the broker."""
    viewer = Client(secure_broker, "display-kitchen")
    watcher = Client(secure_broker, "desk")
    assert viewer.connect() and viewer.subscribe(STANDINGS)
    assert watcher.connect() and watcher.subscribe("domino/kitchen/status")
    settings = kitchen_settings(tmp_path, secure_broker)
    try:
        with desk_process(secure_broker, "referee", tmp_path / "desk"), TableProcess(settings):
            watcher.wait_for("domino/kitchen/status", b"online", timeout=20)
            settle(5.0)  # the real desk above ranks the table well within this
        assert viewer.payloads(STANDINGS) == []
    finally:
        viewer.close()
        watcher.close()


# --- a tournament's central broker: central.conf with central-acl.conf ---------------------

CONFIG = Path(__file__).resolve().parents[2] / "config" / "mosquitto"
CENTRAL_USERS = {
    "desk": USERS["desk"],
    "domino/kitchen": USERS["domino/kitchen"],
    "domino/patio": USERS["domino/patio"],
    "screen": "Screen-pw-27",
}
FORGED = b'{"forged": true}'


class CentralBroker(Mosquitto):
    """Mosquitto running config/mosquitto/central.conf as shipped (paths and port
    pointed into the test's folder), with its password file and central-acl.conf."""

    def __init__(self, workdir: Path) -> None:
        super().__init__(workdir)
        self.certs = workdir  # unused: no TLS listener here
        self.passwd = workdir / "passwd"
        make_password_file(self.passwd, CENTRAL_USERS)

    @property
    def plain_port(self) -> int:
        """For tests.security.broker.Client without TLS (the port may move at start)."""
        return self.port

    def config_text(self) -> str:
        text = (CONFIG / "central.conf").read_text()
        for shipped, here in (
            ("/etc/mosquitto/domino/passwd", self.passwd),
            ("/etc/mosquitto/domino/central-acl.conf", CONFIG / "central-acl.conf"),
        ):
            assert shipped in text, f"central.conf no longer names {shipped}"
            text = text.replace(shipped, str(here))
        text = text.replace("listener 1883\n", f"listener {self.port} 127.0.0.1\n")
        base = [line for line in super().config_text().splitlines()
                if not line.startswith(("listener ", "allow_anonymous "))]  # fmt: skip
        return "\n".join(base) + "\n" + text


@pytest.fixture
def central(tmp_path: Path) -> Iterator[CentralBroker]:
    with CentralBroker(tmp_path / "central") as broker:
        yield broker


def central_client(broker: CentralBroker, user: str) -> Client:
    client = Client(broker, user, CENTRAL_USERS[user], tls=False)  # type: ignore[arg-type]
    assert client.connect(), f"{user} refused: {client.refused}"
    return client


NEW_GAME = json.dumps({"id": "forged-1", "action": "new_game", "rules": "walnut",
                       "seats": ["Mallory", "Eve"], "tournament": "Spring Open", "round": 1,
                       "players": ["p7", "p8"]}).encode()  # fmt: skip


@pytest.mark.broker
@pytest.mark.parametrize(
    ("topic", "what"),
    [
        ("domino/kitchen/cmd", "a seating for another table (its new_game)"),
        ("domino/kitchen/result/g1", "a result for another table"),
        ("domino/tournament/round", "the round's seating"),
        ("domino/tournament/standings", "the standings"),
        ("domino/tournament/cmd", "a command to the desk (a hand-entered result)"),
        ("domino/patio/cmd", "its own seating"),
    ],
)
def test_a_table_cannot_forge_a_seating_or_a_result(
    central: CentralBroker, topic: str, what: str
) -> None:
    desk = central_client(central, "desk")
    kitchen = central_client(central, "domino/kitchen")
    patio = central_client(central, "domino/patio")
    try:
        assert desk.subscribe("domino/#") and kitchen.subscribe("domino/kitchen/cmd")
        patio.publish(topic, FORGED)
        patio.publish(topic, FORGED, retain=True)
        patio.publish("domino/patio/result/g1", b"its own")  # what a table may write
        desk.wait_for("domino/patio/result/g1", b"its own")
        settle()
        assert FORGED not in desk.payloads(topic), what
        assert kitchen.payloads("domino/kitchen/cmd") == []
        late = central_client(central, "desk")  # nothing forged was kept as retained
        assert late.subscribe("domino/#")
        settle()
        assert FORGED not in late.payloads(topic), what
        late.close()
    finally:
        for client in (desk, kitchen, patio):
            client.close()


@pytest.mark.broker
def test_only_the_desk_seats_tables_and_publishes_the_round(central: CentralBroker) -> None:
    desk = central_client(central, "desk")
    kitchen = central_client(central, "domino/kitchen")
    screen = central_client(central, "screen")
    try:
        assert kitchen.subscribe("domino/kitchen/cmd") and screen.subscribe("domino/#")
        screen.publish("domino/kitchen/cmd", NEW_GAME)  # a screen: refused as well
        desk.publish("domino/kitchen/cmd", NEW_GAME)
        kitchen.wait_for("domino/kitchen/cmd", NEW_GAME)
        desk.publish("domino/tournament/round", b"{}", retain=True)
        screen.wait_for("domino/tournament/round", b"{}")
        kitchen.publish("domino/kitchen/cmd/reply", b"ok")
        desk_seen = central_client(central, "desk")
        assert desk_seen.subscribe("domino/kitchen/cmd/reply")
        assert desk_seen.subscribe("domino/kitchen/history/frame")
        kitchen.publish("domino/kitchen/cmd/reply", b"ok again")
        desk_seen.wait_for("domino/kitchen/cmd/reply", b"ok again")
        kitchen.publish(
            "domino/kitchen/history/frame", b"\xff\xd8 a kept frame"
        )  # asked by the desk
        desk_seen.wait_for("domino/kitchen/history/frame", b"\xff\xd8 a kept frame")
        desk_seen.close()
        settle()
        assert kitchen.payloads("domino/kitchen/cmd") == [NEW_GAME]
        assert screen.topics() == {"domino/tournament/round"}  # it reads the public topics only
        desk.publish("domino/tournament/round", b"", retain=True)
    finally:
        for client in (desk, kitchen, screen):
            client.close()
