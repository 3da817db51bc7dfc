"""The real tournament desk against the shipped ACL: as user `desk` it reads the tables
(domino/#) and writes domino/tournament/# (its sync marker and the standings), which
every user may read.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.fixtures.mosquitto import free_port
from tests.security.broker import USERS, Client, SecureBroker, settle
from tests.security.service_proc import TableProcess, table_settings

BIN = Path(sys.executable).parent / "domino-table"
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
        "--http-port", str(free_port()), "--state-dir", str(folder / "state"),
    ]  # fmt: skip
    if tls:
        args += ["--mqtt-tls", "--mqtt-ca-file", str(broker.certs / "ca.crt")]
    log = folder / "desk.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT)
    try:
        yield log
        assert proc.poll() is None, log.read_text()
    finally:
        proc.terminate()
        proc.wait(10)
    assert USERS[user] not in log.read_text()


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
    settings = table_settings(tmp_path / "table", secure_broker, "domino/kitchen",
                              USERS["domino/kitchen"])  # fmt: skip
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
    settings = table_settings(tmp_path / "table", secure_broker, "domino/kitchen",
                              USERS["domino/kitchen"])  # fmt: skip
    try:
        with desk_process(secure_broker, "referee", tmp_path / "desk"), TableProcess(settings):
            watcher.wait_for("domino/kitchen/status", b"online", timeout=20)
            settle(5.0)  # the real desk above ranks the table well within this
        assert viewer.payloads(STANDINGS) == []
    finally:
        viewer.close()
        watcher.close()
