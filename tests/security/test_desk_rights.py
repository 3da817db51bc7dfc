"""The real tournament desk against the shipped ACL: as user `desk` it reads the tables
(domino/#) and writes domino/tournament/# (its sync marker and the standings), which
every user may read.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from tests.fixtures.mosquitto import free_port
from tests.security.broker import USERS, Client, SecureBroker
from tests.security.service_proc import TableProcess, table_settings

BIN = Path(sys.executable).parent / "domino-table"
STANDINGS = "domino/tournament/standings"


def test_the_desk_ranks_a_table_and_everyone_reads_the_standings(
    secure_broker: SecureBroker, tmp_path: Path
) -> None:
    secret = tmp_path / "desk-password"
    secret.write_text(USERS["desk"] + "\n")
    secret.chmod(0o600)
    args = [
        str(BIN), "tournament", "--mqtt-host", secure_broker.host,
        "--mqtt-port", str(secure_broker.plain_port), "--mqtt-username", "desk",
        "--mqtt-password-file", str(secret), "--http-host", "127.0.0.1",
        "--http-port", str(free_port()), "--state-dir", str(tmp_path / "desk"),
    ]  # fmt: skip
    viewer = Client(secure_broker, "display-kitchen")
    assert viewer.connect() and viewer.subscribe(STANDINGS)
    log = tmp_path / "desk.log"
    with log.open("wb") as out:
        desk = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT)
    settings = table_settings(tmp_path / "table", secure_broker, "domino/kitchen",
                              USERS["domino/kitchen"])  # fmt: skip
    try:
        with TableProcess(settings):
            deadline = time.monotonic() + 30
            while True:
                tables = [
                    table
                    for payload in viewer.payloads(STANDINGS)
                    if payload
                    for table in json.loads(payload)["tables"]
                ]
                if any(t["table"] == "kitchen" and t["status"] == "online" for t in tables):
                    break
                assert desk.poll() is None, log.read_text()
                assert time.monotonic() < deadline, (tables, log.read_text())
                time.sleep(0.2)
    finally:
        desk.terminate()
        desk.wait(10)
        viewer.close()
    assert "refused" not in log.read_text().lower()
    assert USERS["desk"] not in log.read_text()
