"""The record on disk: each game copied from the journal, its pictures written whole,
kept within its size, read back by another process."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from engine.inputs import Count, EndHand, Input, Lead, NewGame, Pass
from service.history.store import KEEP_GAMES, HistoryError, HistoryStore
from service.store.journal import JournalEvent, JournalInput
from tests.service.history.tables import BoardTable, events_of

GAME_SIZE = 2000  # bytes of events of one game of `FakeJournal.game` (about)


def finish_hand(table: BoardTable, pips: tuple[int, int]) -> None:
    table.tell(EndHand())
    table.tell(Count(seat=0, pips=pips[0]))
    table.tell(Count(seat=1, pips=pips[1]))


def test_each_game_is_copied_from_the_journal_as_it_was_published(tmp_path: Path) -> None:
    table = BoardTable(tmp_path, target=10)
    try:
        first = table.game_id()
        table.lay("6-6")
        table.tell(Lead(seat=0))
        table.lay("6-5")
        table.tell(Pass(seat=0))
        finish_hand(table, (10, 20))  # blocked: seat 0 holds fewer pips, wins 10: over
        table.tell(NewGame("straight-block", 2, game_id="second"))
        table.clear()
        table.lay("5-5")
        table.idle()
        store = HistoryStore(tmp_path, read_only=True)
        games = store.games()
        assert [g.game_id for g in games] == ["second", first]  # newest first
        done = games[1]
        assert (done.hands, done.scores, done.rules) == (1, (10, 0), "straight-block")
        assert done.started is not None and done.ended is not None and done.source == "board"
        assert games[0].ended is None and games[0].names == ("Player 1", "Player 2")

        journal = [
            e for s in range(1, table.journal.last_seq() + 1) if (e := table.journal.event(s))
        ]
        for game_id in (first, "second"):
            record = store.record(game_id)
            assert record is not None
            published = [
                {"type": e.kind, **e.payload} for e in journal if e.payload["game_id"] == game_id
            ]
            assert list(record.events) == published  # every event, as published, seq order
            assert record.inputs[0]["input"]["action"] == "new_game"
            made = sorted(s for i in record.inputs for s in i["seqs"])
            assert set(made) <= {e["seq"] for e in record.events}
        record = store.record(first)
        assert record is not None
        assert [e["tile"] for e in events_of({"events": record.events}, "play")] == ["6-6", "6-5"]
        assert record.inputs[0]["input"]["game_id"] == first
        # the board's surface is kept for every event after the first report
        assert list(record.frames) == [e["seq"] for e in record.events[1:]]
        assert store.record("nowhere") is None
        store.close()
    finally:
        table.close()


@dataclass
class FakeJournal:
    """A journal's reading side, games made up quickly (`game`), seqs that may be missing."""

    events: dict[int, JournalEvent] = field(default_factory=dict)
    told: list[JournalInput] = field(default_factory=list)
    handed: int = 0  # seqs handed out and not stored

    def last_seq(self) -> int:
        return max([*self.events, self.handed], default=0)

    def last_input_id(self, action: str) -> int:
        return max((i.id for i in self.told if i.told.action == action), default=0)

    def inputs(self, after: int = 0) -> list[JournalInput]:
        return [i for i in self.told if i.id > after]

    def inputs_after(self, after: int, seq_after: int) -> list[JournalInput]:
        return [
            JournalInput(i.id, i.told, tuple(s for s in i.seqs if s > seq_after))
            for i in self.told
            if i.id > after
        ]

    def event(self, seq: int) -> JournalEvent | None:
        return self.events.get(seq)

    def add(self, told: Input | None, *events: tuple[str, dict[str, Any]]) -> list[int]:
        seqs = list(range(self.last_seq() + 1, self.last_seq() + 1 + len(events)))
        for seq, (kind, payload) in zip(seqs, events, strict=True):
            self.events[seq] = JournalEvent(seq, kind, {"seq": seq, "ts": f"t{seq}", **payload})
        if told is not None:
            self.told.append(JournalInput(len(self.told) + 1, told, tuple(seqs)))
        return seqs

    def game(self, game_id: str, plays: int = 10) -> list[int]:
        seqs = self.add(
            NewGame("walnut", 2, game_id=game_id),
            (
                "game",
                {"game_id": game_id, "event": "started", "names": ["A", "B"], "rules": "walnut"},
            ),
        )
        for n in range(plays):
            payload = {"game_id": game_id, "hand": 1, "tile": "6-6", "padding": "x" * 150, "n": n}
            seqs += self.add(None, ("play", payload))
        return seqs


def test_a_new_record_starts_at_the_game_in_play(tmp_path: Path) -> None:
    journal = FakeJournal()
    journal.game("old")
    journal.game("now")
    store = HistoryStore(tmp_path)
    assert store.catch_up(journal)
    assert [g.game_id for g in store.games()] == ["now"]  # the old one has no frames anyway
    assert not store.catch_up(journal)  # nothing new
    journal.game("next")
    assert store.catch_up(journal)
    assert [g.game_id for g in store.games()] == ["next", "now"]
    record = store.record("next")
    assert record is not None and record.inputs[0]["input"]["game_id"] == "next"


def test_an_event_the_journal_stores_late_is_copied_then(tmp_path: Path) -> None:
    """A seq handed out while the journal could not store (a full disk) is copied once
    stored; a seq that never will be (a power cut's gap) does not hold the rest back."""
    journal = FakeJournal()
    journal.game("g", plays=2)
    store = HistoryStore(tmp_path)
    store.catch_up(journal)
    journal.handed = journal.last_seq() + 1  # published, not stored yet
    assert not store.catch_up(journal)
    late = JournalEvent(journal.handed, "alert", {"game_id": "g", "seq": journal.handed})
    journal.events[late.seq] = late
    assert store.catch_up(journal)
    journal.handed = journal.last_seq() + 5  # a gap: these are never stored...
    nxt = journal.handed + 1
    journal.events[nxt] = JournalEvent(nxt, "play", {"game_id": "g", "seq": nxt})
    assert store.catch_up(journal)  # ...and a later event is copied past it
    record = store.record("g")
    assert record is not None
    assert [e["seq"] for e in record.events][-2:] == [late.seq, journal.handed + 1]


def test_pictures_are_kept_whole_shared_and_read_back(tmp_path: Path) -> None:
    journal = FakeJournal()
    seqs = journal.game("g", plays=3)
    store = HistoryStore(tmp_path)
    store.catch_up(journal)
    jpeg = b"\xff\xd8" + b"frame" * 100 + b"\xff\xd9"
    picture = store.add_jpeg("g", seqs[1:3], jpeg)
    store.link("g", picture, [seqs[3]])
    store.add_surface("g", [seqs[0]], {"surface": [900, 600], "tiles": []})
    assert sorted(p.name for p in (tmp_path / "history" / "frames").rglob("*")) == [
        "1",
        f"{seqs[1]}.jpg",
    ]
    assert not list((tmp_path / "history" / "frames").rglob(".*"))  # no temporary file left
    store.close()
    again = HistoryStore(tmp_path, read_only=True)
    for seq in seqs[1:4]:
        got = again.picture("g", seq)
        assert got is not None and (got.kind, got.jpeg) == ("jpeg", jpeg)
    board = again.picture("g", seqs[0])
    assert board is not None and board.surface == {"surface": [900, 600], "tiles": []}
    assert again.picture("g", 999) is None and again.picture("other", seqs[1]) is None
    record = again.record("g")
    assert record is not None and list(record.frames) == seqs[:4]


def test_a_frame_without_its_row_is_removed_at_start(tmp_path: Path) -> None:
    """A cut between writing a frame and committing its row leaves a file no row names."""
    journal = FakeJournal()
    seqs = journal.game("g", plays=2)
    store = HistoryStore(tmp_path)
    store.catch_up(journal)
    store.add_jpeg("g", [seqs[1]], b"\xff\xd8kept")
    store.close()
    stray = tmp_path / "history" / "frames" / "1" / f"{seqs[2]}.jpg"
    stray.write_bytes(b"\xff\xd8lost")
    (tmp_path / "history" / "frames" / "1" / f".{seqs[2]}.jpg.tmp").write_bytes(b"\xff")
    HistoryStore(tmp_path).close()
    assert sorted(p.name for p in (tmp_path / "history" / "frames" / "1").iterdir()) == [
        f"{seqs[1]}.jpg"
    ]


def test_the_oldest_games_go_first_then_their_frames_never_the_game_in_play(
    tmp_path: Path,
) -> None:
    journal = FakeJournal()
    store = HistoryStore(tmp_path)
    frame = b"\xff\xd8" + b"\0" * 10_000
    names = [f"g{n:02d}" for n in range(KEEP_GAMES + 5)]
    for name in names:
        seqs = journal.game(name, plays=10)
        store.catch_up(journal)
        store.add_jpeg(name, seqs[1:2], frame)
    total = sum(e + p for _, _, e, p in store.sizes())
    assert store.prune(total, protect=names[-1]) == []  # within bounds: nothing goes

    # over: the 5 oldest games go whole (50 are left), then the oldest games' frames
    removed = store.prune(total - 5 * 11_000 - 30_000, protect=names[-1])
    assert removed[:5] == [f"game {n}" for n in names[:5]]
    assert removed[5:] == [f"the frames of game {n}" for n in names[5:8]]
    kept = [g.game_id for g in store.games()]
    assert len(kept) == KEEP_GAMES and kept[-1] == names[5]
    assert all(store.record(n) is not None for n in names[5:8])  # their events stay
    assert [store.summary(n).frames for n in names[5:9]] == [0, 0, 0, 1]  # type: ignore[union-attr]
    assert not (tmp_path / "history" / "frames" / "1").exists()

    # never the game in play, nor the newest: at most all the others' frames
    assert store.prune(0, protect=names[10]) != []
    assert [g.game_id for g in store.games() if g.frames] == [names[-1], names[10]]


def test_a_record_of_another_format_is_refused_with_what_to_do(tmp_path: Path) -> None:
    HistoryStore(tmp_path).close()
    db = sqlite3.connect(tmp_path / "history" / "history.sqlite3")
    db.execute("UPDATE marks SET value='7' WHERE name='schema'")
    db.commit()
    db.close()
    with pytest.raises(HistoryError, match=r"format 7.*move the folder"):
        HistoryStore(tmp_path)
    with pytest.raises(HistoryError, match="holds no record of games"):
        HistoryStore(tmp_path / "nowhere", read_only=True)


def test_inputs_are_kept_as_the_journal_wrote_them(tmp_path: Path) -> None:
    journal = FakeJournal()
    journal.game("g", plays=1)
    journal.add(Lead(seat=1))  # an input that made no event stays in its game
    store = HistoryStore(tmp_path)
    store.catch_up(journal)
    record = store.record("g")
    assert record is not None
    assert [json.dumps(i["input"], sort_keys=True) for i in record.inputs] == [
        json.dumps(i.told.to_json(), sort_keys=True) for i in journal.told
    ]
    assert record.inputs[-1]["seqs"] == []


def test_the_journals_new_inputs_read_by_their_keys_are_the_inputs(tmp_path: Path) -> None:
    """`Journal.inputs_after`, which the record follows the journal with, gives what
    `inputs` gives, from any point on."""
    table = BoardTable(tmp_path, rules="walnut")
    try:
        table.lay("6-6")
        table.tell(Lead(seat=1))
        table.lay("6-4")
        table.tell(Pass(seat=1))
        whole = table.journal.inputs()
        assert table.journal.inputs_after(0, 0) == whole
        for cut in range(len(whole)):
            after = whole[cut].id
            seq_after = max((s for i in whole[: cut + 1] for s in i.seqs), default=0)
            assert table.journal.inputs_after(after, seq_after) == whole[cut + 1 :]
    finally:
        table.close()
