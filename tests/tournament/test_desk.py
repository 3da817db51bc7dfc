"""`domino-table tournament` as a real process on a real Mosquitto: standings, restarts, page."""

from __future__ import annotations

import json
import socket
import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_recorder import Recorder
from tests.fixtures.process import BIN
from tests.fixtures.tiers import needs
from tests.tournament.desk_process import STANDINGS, DeskProcess, wait_standings
from tests.tournament.tables import publish_once, result_payload

ANA_BO = result_payload("t1", "g1", ["Ana", "Bo"], [100, 94], winner=0)
TEAMS = result_payload(
    "t2", "g7", ["Cy", "Di", "Ed", "Flo"], [83, 257, 83, 257], team_scores=[83, 257], team=1
)


def expected_after_two_games() -> list[dict[str, Any]]:
    def entry(rank: int, name: str, wins: int, points: int, margin: int) -> dict[str, Any]:
        return {"rank": rank, "name": name, "games": 1, "wins": wins, "points": points,
                "margin": margin}  # fmt: skip

    return [
        entry(1, "Di", 1, 257, 174),
        entry(1, "Flo", 1, 257, 174),
        entry(3, "Ana", 1, 100, 6),
        entry(4, "Bo", 0, 94, -6),
        entry(5, "Cy", 0, 83, -174),
        entry(5, "Ed", 0, 83, -174),
    ]


@pytest.fixture
@needs("process")
def desk(broker: Mosquitto, tmp_path: Path) -> Iterator[DeskProcess]:
    with DeskProcess(broker.host, broker.port, tmp_path / "desk") as process:
        yield process


@pytest.fixture
def rec(broker: Mosquitto) -> Iterator[Recorder]:
    recorder = Recorder(broker.host, broker.port, [STANDINGS])
    try:
        yield recorder
    finally:
        recorder.close()


def two_finished_games(broker: Mosquitto) -> None:
    publish_once(broker.host, broker.port, "domino/t1/status", b"online")
    publish_once(broker.host, broker.port, "domino/t1/state", {"game_id": "g2", "hand": 3})
    publish_once(broker.host, broker.port, "domino/t1/result/g1", ANA_BO)
    publish_once(broker.host, broker.port, "domino/t2/result/g7", TEAMS)
    publish_once(broker.host, broker.port, "domino/t2/status", b"offline")


def test_finished_games_become_retained_standings(
    broker: Mosquitto, desk: DeskProcess, rec: Recorder
) -> None:
    two_finished_games(broker)
    got = wait_standings(rec, lambda p: len(p["entries"]) == 6 and len(p["tables"]) == 2)
    assert got["entries"] == expected_after_two_games()
    assert got["tables"] == [
        {"table": "t1", "status": "online", "game_id": "g2", "hand": 3},
        {"table": "t2", "status": "offline", "game_id": None, "hand": None},
    ]
    seqs = [s.json()["seq"] for s in rec.on(STANDINGS)]
    assert seqs == sorted(set(seqs)), "seq goes up by publication"
    # retained, QoS 1: a newcomer gets the latest at once
    late = Recorder(broker.host, broker.port, [STANDINGS])
    try:
        first = late.wait_for(bool)[0]
        assert first.retain and first.json()["entries"] == expected_after_two_games()
    finally:
        late.close()


def test_a_game_published_again_counts_once_and_a_bad_result_changes_nothing(
    broker: Mosquitto, desk: DeskProcess, rec: Recorder
) -> None:
    two_finished_games(broker)
    wait_standings(rec, lambda p: len(p["entries"]) == 6)
    publish_once(broker.host, broker.port, "domino/t1/result/g1", ANA_BO)  # again
    publish_once(broker.host, broker.port, "domino/t3/result/x", {"event": "started"})
    publish_once(broker.host, broker.port, "domino/t3/result/y", b"{not json")
    second = result_payload("t1", "g2", ["Ana", "Cy"], [50, 110], winner=1)
    publish_once(broker.host, broker.port, "domino/t1/result/g2", second)
    got = wait_standings(rec, lambda p: any(e["games"] == 2 for e in p["entries"]))
    by_name = {e["name"]: e for e in got["entries"]}
    assert by_name["Ana"] == {"rank": 3, "name": "Ana", "games": 2, "wins": 1, "points": 150,
                              "margin": 6 - 60}  # fmt: skip
    assert by_name["Bo"]["games"] == 1 and by_name["Cy"]["games"] == 2
    assert [t["table"] for t in got["tables"]] == ["t1", "t2", "t3"]
    stats = desk.get_json("/api/stats")
    assert stats["games"] == 3 and stats["synced"] is True
    assert "domino/t3/result/x ignored" in desk.output()


def test_after_a_restart_the_desk_rebuilds_from_retained_results_and_seq_goes_on(
    broker: Mosquitto, desk: DeskProcess, rec: Recorder, tmp_path: Path
) -> None:
    two_finished_games(broker)
    before = wait_standings(rec, lambda p: len(p["entries"]) == 6)
    desk.kill()
    desk.start()
    after = wait_standings(rec, lambda p: p["seq"] > before["seq"])
    # published once, after the retained results were all back: never a partial board
    later = [p for p in (s.json() for s in rec.on(STANDINGS)) if p["seq"] > before["seq"]]
    assert all(p["entries"] == expected_after_two_games() for p in later)
    assert after["tables"] == before["tables"]
    # the state directory lost too: seq still goes on from the broker's retained standings
    desk.stop()
    for path in (tmp_path / "desk").iterdir():
        path.unlink()
    fresh = DeskProcess(broker.host, broker.port, tmp_path / "desk")
    fresh.start()
    try:
        again = wait_standings(rec, lambda p: p["seq"] > after["seq"])
        assert again["entries"] == expected_after_two_games()
    finally:
        fresh.stop()


def test_the_broker_restarted_the_desk_reconnects_and_publishes_on(
    broker: Mosquitto, desk: DeskProcess, rec: Recorder
) -> None:
    two_finished_games(broker)
    before = wait_standings(rec, lambda p: len(p["entries"]) == 6)
    broker.stop()
    broker.start()
    publish_once(broker.host, broker.port, "domino/t1/status", b"offline")
    got = wait_standings(rec, lambda p: p["tables"][0]["status"] == "offline", timeout=20)
    assert got["seq"] > before["seq"] and got["entries"] == expected_after_two_games()


def test_the_page_and_its_event_stream(broker: Mosquitto, desk: DeskProcess, rec: Recorder) -> None:
    two_finished_games(broker)
    published = wait_standings(rec, lambda p: len(p["entries"]) == 6)
    html = urllib.request.urlopen(desk.url("/"), timeout=5).read().decode()
    assert "/static/app.js" in html and "<table>" in html
    assert b"EventSource" in urllib.request.urlopen(desk.url("/static/app.js"), timeout=5).read()
    assert desk.get_json("/api/standings")["seq"] >= published["seq"]
    with urllib.request.urlopen(desk.url("/events"), timeout=5) as stream:
        lines: list[str] = []
        while not lines or lines[-1] != "":
            line = stream.readline().decode().rstrip("\n")
            if line.startswith(("event:", "data:")) or (lines and line == ""):
                lines.append(line)
    assert lines[0] == "event: board"
    view = json.loads(lines[1].removeprefix("data: "))
    assert view["connected"] and view["synced"]
    assert view["standings"]["entries"] == expected_after_two_games()


def test_the_broker_lost_its_retained_results_the_desks_own_log_keeps_them(
    broker: Mosquitto, desk: DeskProcess, rec: Recorder
) -> None:
    two_finished_games(broker)
    before = wait_standings(rec, lambda p: len(p["entries"]) == 6)
    desk.stop()
    broker.stop()
    (broker.workdir / "mosquitto.db").unlink()  # a central broker that lost its disk
    broker.start()
    desk.start()
    after = wait_standings(rec, lambda p: p["seq"] > before["seq"])  # the seq file kept
    assert after["entries"] == expected_after_two_games()


@pytest.mark.process
def test_the_pages_port_in_use_is_said_in_words_and_the_desk_ends(
    broker: Mosquitto, tmp_path: Path
) -> None:
    """Not a traceback: the port, why, and what to give instead (the desk given a port
    chosen for it in advance, and taken by another program meanwhile, ended that way)."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        ended = subprocess.run(
            [str(BIN), "tournament", "--mqtt-host", broker.host, "--mqtt-port",
             str(broker.port), "--http-host", "127.0.0.1", "--http-port", str(port),
             "--state-dir", str(tmp_path / "desk")],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
    assert ended.returncode == 1, ended.stderr
    assert (
        f"Error: the pages cannot listen on 127.0.0.1:{port} (Address already in use): give "
        "another --http-port (0: any free one, said in the log) or --http-host"
    ) in ended.stderr
    assert "Traceback" not in ended.stderr
