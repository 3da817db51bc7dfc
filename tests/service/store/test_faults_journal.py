"""A damaged journal: the real service refuses to start with one sentence, and a seq is
never reused, not even by a new journal started after the old one was moved aside."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import pytest

from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_recorder import Recorder
from tests.fixtures.service_process import Service
from tests.service.faults import (
    Commander,
    JournalView,
    desk,
    statuses,
    wait,
)

pytestmark = pytest.mark.process

JOURNAL = "journal.sqlite3"


class Table:
    """The service on a state folder, a desk with a persistent session, commands."""

    def __init__(self, broker: Mosquitto, tmp_path: Path) -> None:
        self.state = tmp_path / "state"
        self.proc = Service(broker, self.state, "--rules", "walnut", log=tmp_path / "service.log")
        self.desk = desk(broker)
        self.journal = JournalView(self.state)
        self.commands = Commander(broker)

    def start(self) -> None:
        self.proc.start()
        n = len(statuses(self.desk.seen))
        self.desk.wait_for(lambda s: statuses(s)[n:].count(b"online") >= 1, timeout=20)

    def new_games(self, n: int) -> None:
        """`n` new games by command, each answered (each makes an event, `game started`)."""
        for _ in range(n):
            body = {"action": "new_game", "rules": "walnut", "seats": ["Ana", "Ben"]}
            cmd_id = self.commands.send(body)
            wait(partial(self.journal.reply, cmd_id), 10, f"the reply to {cmd_id}")

    def refusal(self) -> str:
        """The service exits at once with an error: the one line it printed."""
        assert self.proc.proc is not None
        code = self.proc.proc.wait(30)
        assert code != 0
        text = self.proc.log.read_text()
        assert "Traceback" not in text, text
        errors = [line for line in text.splitlines() if line.startswith("Error: ")]
        assert len(errors) == 1, text
        return errors[0]

    def close(self) -> None:
        self.proc.stop()
        self.desk.close()


@pytest.fixture
def table(broker: Mosquitto, tmp_path: Path) -> Iterator[Table]:
    t = Table(broker, tmp_path)
    yield t
    t.close()


def event_seqs(rec: Recorder) -> dict[int, bytes]:
    """seq -> payload of every event seen; fails if a seq came with two contents."""
    seen: dict[int, bytes] = {}
    for s in rec.seen:
        if "/event/" in s.topic:
            seq = s.json()["seq"]
            assert seen.setdefault(seq, s.payload) == s.payload, f"seq {seq} reused"
    return seen


def cut(path: Path) -> None:
    path.write_bytes(b"")


def corrupt_header(path: Path) -> None:
    with path.open("r+b") as f:
        f.write(b"this is no longer a database!!!!")


def corrupt_pages(path: Path) -> None:
    size = path.stat().st_size
    assert size >= 4 * 4096, size
    with path.open("r+b") as f:
        for page in range(1, size // 4096):
            f.seek(page * 4096)
            f.write(bytes([0xA5]) * 64)


def test_a_zero_length_journal_is_refused_with_one_sentence(table: Table) -> None:
    table.start()
    table.new_games(2)
    table.proc.stop()
    cut(table.state / JOURNAL)
    table.proc.start()
    line = table.refusal()
    assert "is empty (0 bytes)" in line and "move journal.sqlite3" in line, line
    assert (table.state / JOURNAL).stat().st_size == 0  # left for the operator to look at


def test_a_deleted_journal_whose_wal_is_left_is_refused(table: Table) -> None:
    table.start()
    table.new_games(1)
    table.proc.kill()  # no clean close: the write-ahead log stays
    wal = table.state / f"{JOURNAL}-wal"
    assert wal.exists()
    (table.state / JOURNAL).unlink()
    table.proc.start()
    line = table.refusal()
    assert "is gone but its write-ahead log" in line and "aside" in line, line


@pytest.mark.parametrize("damage", [corrupt_header, corrupt_pages], ids=["header", "pages"])
def test_corrupted_bytes_are_a_clear_error(table: Table, damage: Callable[[Path], None]) -> None:
    table.start()
    table.new_games(40)  # a journal of several pages
    table.proc.stop()
    damage(table.state / JOURNAL)
    table.proc.start()
    line = table.refusal()
    assert "is damaged" in line and "move it aside" in line, line


@pytest.mark.parametrize("stop", ["clean", "kill"])
def test_a_journal_moved_aside_never_reuses_a_seq(table: Table, stop: str) -> None:
    table.start()
    table.new_games(3)
    last = table.journal.last_seq()
    table.desk.wait_for(lambda s: max(event_seqs(table.desk), default=0) >= last, timeout=10)
    table.proc.stop() if stop == "clean" else table.proc.kill()
    aside = table.state.parent / "aside"
    aside.mkdir()
    for name in os.listdir(table.state):
        if name.startswith(JOURNAL + "-") or name == JOURNAL:
            (table.state / name).rename(aside / name)
    table.start()  # a new journal: the configured game again
    table.new_games(1)
    after = table.journal.last_seq()
    table.desk.wait_for(lambda s: max(event_seqs(table.desk)) >= after, timeout=10)
    new = [e.seq for e in table.journal.events()]
    assert new and min(new) > last, (last, new)
    event_seqs(table.desk)  # no seq came back with another content
    assert "events go on from seq" in table.proc.log.read_text()
    assert not table.proc.errors(), table.proc.errors()


def test_a_killed_service_goes_on_with_the_next_seq(table: Table) -> None:
    """The usual restart: no gap, nothing skipped."""
    table.start()
    table.new_games(1)
    last = table.journal.last_seq()
    table.proc.kill()
    table.start()
    table.new_games(1)
    assert [e.seq for e in table.journal.events()] == list(range(1, last + 2))
