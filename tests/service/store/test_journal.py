"""The journal: seqs, pending/acked, inputs to replay, replies, kv, and kill -9 safety."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from config.errors import SettingsError
from config.loader import load_settings
from config.settings import Synchronous
from engine.inputs import Draw, Undo
from service.store.journal import FILE_NAME, Journal, JournalError, JournalEvent, JournalInput
from service.store.seq_mark import RESERVE
from tests.fixtures.spec import validate

ROOT = Path(__file__).resolve().parents[2]


def drawn(stored: JournalInput) -> int:
    """The tiles of a stored `Draw` (the inputs these tests number)."""
    assert isinstance(stored.told, Draw)
    return stored.told.count


def play(n: int) -> dict[str, object]:
    return {
        "game_id": "g1",
        "hand": 1,
        "seat": n % 4,
        "tile": "6-4",
        "points": 0,
        "ends_total": 10,
        "score": 0,
        "announce": [],
    }


def test_seqs_count_up_and_events_are_stamped(tmp_path: Path) -> None:
    with Journal(tmp_path, "kitchen") as j:
        assert j.last_seq() == 0
        assert j.append(
            Undo(), [("play", play(1)), ("pass", {"hand": 1, "seat": 2, "game_id": "g1"})]
        ) == [1, 2]
        assert j.append(None, [("play", play(2))]) == [3]
        assert j.append(Undo(), []) == []
        assert j.last_seq() == 3
        events = j.pending()
        assert [(e.seq, e.kind) for e in events] == [(1, "play"), (2, "pass"), (3, "play")]
        for e in events:
            assert e.payload["seq"] == e.seq and e.payload["table"] == "kitchen"
            validate(e.kind, e.payload)


def test_seqs_are_never_reused_across_restarts(tmp_path: Path) -> None:
    with Journal(tmp_path, "t") as j:
        j.append(None, [("play", play(1))] * 3)
    with Journal(tmp_path, "t") as j:
        assert j.last_seq() == 3
        assert j.append(None, [("play", play(4))]) == [4]


def test_pending_and_acked(tmp_path: Path) -> None:
    with Journal(tmp_path, "t") as j:
        j.append(None, [("play", play(i)) for i in range(5)])
        j.mark_acked(2)
        j.mark_acked(4)
        assert [e.seq for e in j.pending()] == [1, 3, 5]
        assert j.pending_count() == 3
    with Journal(tmp_path, "t") as j:
        assert [e.seq for e in j.pending()] == [1, 3, 5]


def test_mark_acked_from_other_threads(tmp_path: Path) -> None:
    with Journal(tmp_path, "t") as j:
        j.append(None, [("play", play(i)) for i in range(200)])
        threads = [
            threading.Thread(target=lambda k=k: list(map(j.mark_acked, range(k, 201, 4))))
            for k in range(1, 5)
        ]
        for t in threads:
            t.start()
        j.append(None, [("play", play(0))])  # meanwhile, from this thread
        for t in threads:
            t.join()
        assert [e.seq for e in j.pending()] == [201]


def test_inputs_replay_in_order_with_their_seqs(tmp_path: Path) -> None:
    with Journal(tmp_path, "t") as j:
        j.append(Draw(count=1), [("play", play(1))])
        j.append(Draw(count=2), [])
        j.append(Draw(count=3), [("play", play(2)), ("play", play(3))])
        got = j.inputs()
        assert [(i.told, i.seqs) for i in got] == [
            (Draw(count=1), (1,)),
            (Draw(count=2), ()),
            (Draw(count=3), (2, 3)),
        ]
        assert [drawn(i) for i in j.inputs(after=got[0].id)] == [2, 3]


def test_replies_survive_restarts_and_are_bounded(tmp_path: Path) -> None:
    with Journal(tmp_path, "t", replies_kept=10) as j:
        for i in range(25):
            j.put_reply(f"c{i}", {"id": f"c{i}", "ok": True})
        j.append(Undo(), [("play", play(1))], reply={"id": "cx", "ok": True, "error": None})
    with Journal(tmp_path, "t", replies_kept=10) as j:
        assert j.get_reply("c24") == {"id": "c24", "ok": True}
        assert j.get_reply("cx") == {"id": "cx", "ok": True, "error": None}
        assert j.get_reply("c0") is None
        assert j.get_reply("never") is None


def test_kv(tmp_path: Path) -> None:
    with Journal(tmp_path, "t") as j:
        assert j.get("game_id") is None and j.get("x", 5) == 5
        j.put("game_id", "2026-11-22T04:00:00Z")
        j.put("calibration", {"h": [[1, 0], [0, 1]]})
    with Journal(tmp_path, "t") as j:
        assert j.get("game_id") == "2026-11-22T04:00:00Z"
        assert j.get("calibration") == {"h": [[1, 0], [0, 1]]}


def test_wal_mode_and_close_is_idempotent(tmp_path: Path) -> None:
    j = Journal(tmp_path, "t")
    assert j.journal_mode() == "wal"
    j.close()
    j.close()
    with pytest.raises(JournalError, match="after close"):
        j.last_seq()


def test_unwritable_state_dir_says_what_to_do(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(JournalError, match="state directory is writable"):
        Journal(blocker / "state", "t")


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    Journal(tmp_path, "t").close()
    db = sqlite3.connect(tmp_path / FILE_NAME)
    db.execute("PRAGMA user_version=99")
    db.close()
    with pytest.raises(JournalError, match="schema version 99"):
        Journal(tmp_path, "t")


WRITER = """
import sys
from pathlib import Path
from engine.inputs import Draw
from service.store.journal import Journal
j = Journal(Path(sys.argv[1]), "t")
n = 0
while True:
    n += 1
    payload = {"game_id": "g", "i": n, "pad": "x" * 500}
    events = [("play", payload) for k in range(1 + n % 3)]
    seqs = j.append(Draw(count=n), events)
    print(seqs[-1], flush=True)
"""


@pytest.mark.process
def test_kill_9_mid_write_loses_nothing_committed(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(tmp_path)],
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        text=True,
    )
    assert proc.stdout is not None
    committed = 0
    deadline = time.monotonic() + 20
    while committed < 300 and time.monotonic() < deadline:
        committed = int(proc.stdout.readline())
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    assert proc.returncode == -signal.SIGKILL
    assert committed >= 300, "the writer was too slow"

    with Journal(tmp_path, "t") as j:
        assert j.journal_mode() == "wal"
        last = j.last_seq()
        assert last >= committed  # every append it reported as committed is there
        events = j.pending()
        assert [e.seq for e in events] == list(range(1, last + 1))  # contiguous, none half-written
        inputs = j.inputs()
        assert [drawn(i) for i in inputs] == list(range(1, len(inputs) + 1))
        for i in inputs:  # each input has exactly the events it produced
            n = drawn(i)
            assert len(i.seqs) == 1 + n % 3
            assert [events[s - 1].payload["i"] for s in i.seqs] == [n] * len(i.seqs)
        assert j.append(None, [("play", {"game_id": "g"})]) == [last + 1]


def test_pending_since_adds_recent_acked_events(tmp_path: Path) -> None:
    with Journal(tmp_path, "t") as j:
        j.append(None, [("play", play(i)) for i in range(6)])
        for seq in (1, 2, 4, 5):
            j.mark_acked(seq)
        assert [e.seq for e in j.pending_since(5)] == [3, 5, 6]


def test_a_failed_append_stores_nothing_and_uses_no_seq(tmp_path: Path) -> None:
    with Journal(tmp_path, "t") as j:
        j.append(Draw(count=1), [("play", play(1))])
        with pytest.raises(TypeError):
            j.append(Draw(count=2), [("play", play(2)), ("play", {"bad": object()})])
        assert j.last_seq() == 1
        assert [i.told for i in j.inputs()] == [Draw(count=1)]
        assert j.append(Draw(count=3), [("play", play(3))]) == [2]


def crash(j: Journal) -> None:
    """The process dies: the database is left as it is, the seq mark still `open`."""
    assert j._db is not None
    j._db.close()
    j._db = None


def reboot(state_dir: Path) -> None:
    """The machine went down meanwhile: the mark was written in another boot."""
    mark = state_dir / "journal.seq"
    data = json.loads(mark.read_text())
    mark.write_text(json.dumps(data | {"boot": "an-earlier-boot"}))


def test_a_journal_left_open_in_an_earlier_boot_skips_to_the_reserved_seqs(
    tmp_path: Path,
) -> None:
    j = Journal(tmp_path, "t")
    j.append(None, [("play", play(1))] * 3)
    crash(j)
    with Journal(tmp_path, "t") as j:  # killed in this boot: nothing the kernel had is lost
        assert j.last_seq() == 3
        assert j.append(None, [("play", play(4))]) == [4]
        crash(j)
    reboot(tmp_path)
    with Journal(tmp_path, "t") as j:  # a power cut may have taken what was not fsynced
        assert j.last_seq() == 3 + RESERVE  # reserved when it was opened after seq 3
        assert j.append(None, [("play", play(5))]) == [4 + RESERVE]
    with Journal(tmp_path, "t") as j:  # closed cleanly: the next seq, no gap
        assert j.append(None, [("play", play(6))]) == [5 + RESERVE]


def test_seqs_are_reserved_ahead_in_the_mark(tmp_path: Path) -> None:
    mark = tmp_path / "journal.seq"
    with Journal(tmp_path, "t") as j:
        j.append(None, [("play", play(1))] * 5)
        inode = mark.stat().st_ino
        j.append(None, [("play", play(1))] * 5)
        assert mark.stat().st_ino == inode  # stored in the journal: the mark is not written
        j.append(None, [("play", play(1))] * RESERVE)
        marks = json.loads(mark.read_text())
        assert marks["reserved"] >= RESERVE + 10 and marks["open"]
        assert mark.stat().st_ino != inode  # replaced whole, never written in place
        assert mark.stat().st_size == 160
        assert (tmp_path / "journal.seq.tmp").stat().st_size == 160  # the spare: no new space
    marks = json.loads(mark.read_text())
    assert marks["last"] == RESERVE + 10 and not marks["open"]  # a clean stop writes `last`


@pytest.mark.parametrize("damage", [b"", b" " * 160, b'{"last": 3, "reser', b"\xff\xfe"])
def test_a_damaged_mark_on_a_journal_with_no_event_is_a_fresh_start(
    tmp_path: Path, damage: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    """A cut during the very first start, as an earlier version wrote the mark (in place,
    fsynced afterwards): the mark empty, the journal holding no event."""
    sqlite3.connect(tmp_path / FILE_NAME).close()  # the journal's file, made and empty
    (tmp_path / "journal.seq").write_bytes(damage)
    with Journal(tmp_path, "t") as j:
        assert j.append(None, [("play", play(1))]) == [1]
    assert "holds no event: a fresh start" in caplog.text
    assert json.loads((tmp_path / "journal.seq").read_text())["reserved"] == RESERVE


def test_a_damaged_mark_on_a_journal_with_events_goes_on_past_any_seq_it_held(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with Journal(tmp_path, "t") as j:
        j.append(None, [("play", play(1))] * 7)
    (tmp_path / "journal.seq").write_bytes(b"")
    with Journal(tmp_path, "t") as j:  # the table starts: a jump forward, never a reuse
        assert j.append(None, [("play", play(8))]) == [7 + RESERVE + 1]
        assert j.last_event_seq() == 7 + RESERVE + 1
    assert "journal.seq is damaged (empty (0 bytes))" in caplog.text
    assert "holds events up to seq 7" in caplog.text


def test_a_journal_without_its_mark_goes_on_with_the_next_seq(tmp_path: Path) -> None:
    """A journal restored from a copy, or older than the mark: its own seqs go on."""
    with Journal(tmp_path, "t") as j:
        j.append(None, [("play", play(1))] * 7)
    (tmp_path / "journal.seq").unlink()
    with Journal(tmp_path, "t") as j:
        assert j.append(None, [("play", play(8))]) == [8]


def test_the_last_event_seq_names_an_event_after_a_power_cut(tmp_path: Path) -> None:
    """`state.seq` is the last event's: after a cut the next seq jumps, the state's not."""
    j = Journal(tmp_path, "t")
    j.append(None, [("play", play(1))] * 3)
    crash(j)
    reboot(tmp_path)
    with Journal(tmp_path, "t") as j:
        assert j.last_seq() == RESERVE  # reserved at the first start: the next takes 1001
        assert j.last_event_seq() == 3  # the last event there is
        seq = j.hand_out()  # published, not stored (a full disk)
        assert j.last_event_seq() == seq == RESERVE + 1


def test_a_seq_handed_out_unstored_is_never_handed_out_again(tmp_path: Path) -> None:
    j = Journal(tmp_path, "t")
    j.append(None, [("play", play(1))])
    seq = j.hand_out()  # the disk is full: an alert is published, not stored
    assert seq == 2 and j.last_seq() == 2
    crash(j)
    with Journal(tmp_path, "t") as j:
        assert j.append(None, [("play", play(3))]) == [3]  # 2 may have been seen
    j = Journal(tmp_path, "t")
    seq = j.hand_out()
    stored = JournalEvent(seq, "alert", {"seq": seq, "game_id": "g", "code": "X"})
    j.record_handed([stored])  # the disk has room again: stored exactly as published
    assert j.event(seq) == stored
    assert j.append(None, [("play", play(5))]) == [seq + 1]
    j.close()


def test_a_batch_is_one_transaction(tmp_path: Path) -> None:
    with Journal(tmp_path, "t") as j:
        with pytest.raises(RuntimeError), j.batch():
            j.append(Draw(count=1), [("play", play(1))])
            j.put_reply("c1", {"id": "c1", "ok": True})
            raise RuntimeError("the table failed half way")
        assert j.last_seq() == 0 and not j.inputs() and j.get_reply("c1") is None
        with j.batch():
            j.append(Draw(count=2), [("play", play(2))])
            j.append(Draw(count=3), [("play", play(3))])
        assert [drawn(i) for i in j.inputs()] == [2, 3] and j.last_seq() == 2


def test_synchronous_is_a_setting(tmp_path: Path) -> None:
    settings = load_settings(None, {"state.synchronous": "normal"})
    assert settings.state.synchronous is Synchronous.NORMAL
    assert load_settings(None, {}).state.synchronous is Synchronous.FULL
    with pytest.raises(SettingsError, match=r"state\.synchronous"):
        load_settings(None, {"state.synchronous": "off"})
    with Journal(tmp_path, "t", synchronous=settings.state.synchronous.value) as j:
        assert j._query("PRAGMA synchronous")[0][0] == 1  # NORMAL
        j.append(None, [("play", play(1))])
        j.mark_acked(1)
        assert j._query("PRAGMA synchronous")[0][0] == 1  # still NORMAL after an ack
