"""The event desk's loop side without a broker: what it sends, in which order, and what is
on disk by then. `EventDesk` is fed as the link feeds it (connected, synced, messages)
and sends through a list; the journal is read back from its file, by another connection,
at the moment each message goes out."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from tests.tournament.hall import players
from tournament.desk import STANDINGS
from tournament.event import EventConfig, parse
from tournament.journal import Kind, read
from tournament.runner import ROUND, EventDesk
from tournament.settings import DeskSettings

EVENT = parse(
    {"name": "Loop Open", "format": "singles", "rules": "walnut", "rounds": 2,
     "tables": ["t1", "t2"], "seed": 5, "players": players(4), "auto_advance": True},
    "test",
)  # fmt: skip


class Sent:
    """What the desk sends, each with the journal's records on disk at that moment."""

    def __init__(self, journal: Path) -> None:
        self.journal = journal
        self.out: list[tuple[str, dict[str, Any], list[Kind]]] = []

    def __call__(self, topic: str, payload: bytes, retain: bool) -> bool:
        on_disk = [r.kind for r in read(self.journal)]
        self.out.append((topic, json.loads(payload), on_disk))
        return True

    def topics(self) -> list[str]:
        return [t for t, _, _ in self.out]


def run_alone(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """`asyncio.run(main())` on a thread of its own. A session's Playwright browser (the
    display tests, on the same xdist worker) keeps its event loop running in the main
    thread, where `asyncio.run` refuses to start another."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(lambda: asyncio.run(main())).result()


def desk_for(tmp: Path, interval: float, event: EventConfig = EVENT) -> tuple[EventDesk, Sent]:
    settings = DeskSettings(state_dir=tmp, publish_interval_s=interval, resend_s=60)
    sent = Sent(tmp / "journal.sqlite")
    desk = EventDesk(settings, event, sent)
    desk.on_connection(True)
    desk.on_synced()
    return desk, sent


async def round_one(
    tmp: Path, interval: float, event: EventConfig = EVENT
) -> tuple[EventDesk, Sent]:
    """A desk with round 1 seated and sent, what it sent so far forgotten."""
    desk, sent = desk_for(tmp, interval, event)
    await turns()
    assert desk.command({"id": "s1", "action": "start_round"}, "test")["ok"]
    await turns()
    del sent.out[:]
    return desk, sent


async def turns(count: int = 3) -> None:
    """Let the loop run what is due now (no timer of the desk's is shorter than 60 s)."""
    for _ in range(count):
        await asyncio.sleep(0)


def result(desk: EventDesk, table: str, scores: list[int]) -> bytes:
    rnd = desk.ledger.current
    assert rnd is not None
    seated = rnd.tables[table]
    body = {"v": 1, "table": table, "ts": "2026-11-29T10:00:00.000Z", "seq": 50,
            "game_id": f"{table}-r{rnd.number}", "event": "over", "winner": 0, "team": None,
            "scores": scores, "team_scores": [], "names": [s.name for s in seated.seats],
            "rules": "walnut", "target": 100, "reason": "target", "tournament": EVENT.name,
            "round": rnd.number, "players": seated.players}  # fmt: skip
    return json.dumps(body).encode()


def test_a_change_is_published_at_once_and_the_next_within_the_interval_waits(
    tmp_path: Path,
) -> None:
    async def run() -> None:
        desk, sent = desk_for(tmp_path, interval=60.0)
        await turns()
        assert sent.topics() == [STANDINGS]  # synced: published at once, not after 60 s
        assert desk.command({"id": "s1", "action": "start_round"}, "test")["ok"]
        await turns()
        assert STANDINGS not in sent.topics()[1:], "within the interval: coalesced"
        desk.stop()

    run_alone(run)


def test_a_burst_of_news_is_one_commit_and_nothing_goes_out_before_it_is_on_disk(
    tmp_path: Path,
) -> None:
    async def run() -> None:
        by_hand = EVENT.model_copy(update={"auto_advance": False})
        desk, sent = await round_one(tmp_path, interval=0.0, event=by_hand)
        for table in ("t1", "t2"):  # both results in one turn of the loop
            desk.on_message(f"domino/{table}/result/{table}-r1", result(desk, table, [100, 40]),
                            False)  # fmt: skip
        assert sent.out == [], "nothing is sent before the commit"
        assert [r.kind for r in read(tmp_path / "journal.sqlite")][-1] is not Kind.RESULT
        await turns()
        first = next(out for out in sent.out if out[0] == STANDINGS)
        assert sum(e["games"] for e in first[1]["entries"]) == 4, "both in one publication"
        assert first[2].count(Kind.RESULT) == 2, "both results on disk when it went out"
        for _topic, _body, on_disk in sent.out:
            assert Kind.RESULT in on_disk
        desk.stop()

    run_alone(run)


def test_the_last_result_of_a_round_is_published_before_the_next_round_is_seated(
    tmp_path: Path,
) -> None:
    async def run() -> None:
        desk, sent = await round_one(tmp_path, interval=60.0)
        desk.on_message("domino/t1/result/t1-r1", result(desk, "t1", [100, 40]), False)
        desk.on_message("domino/t2/result/t2-r1", result(desk, "t2", [30, 100]), False)
        await turns()
        topics = sent.topics()
        assert desk.ledger.current is not None and desk.ledger.current.number == 2
        counted = next(n for n, (t, body, _) in enumerate(sent.out) if t == STANDINGS
                       and sum(e["games"] for e in body["entries"]) == 4)  # fmt: skip
        seated = topics.index("domino/t1/cmd")
        assert counted < seated, topics
        assert ROUND in topics
        desk.stop()

    run_alone(run)


def test_a_game_counted_or_voided_goes_out_at_once_within_the_interval(tmp_path: Path) -> None:
    async def run() -> None:
        by_hand = EVENT.model_copy(update={"auto_advance": False})
        desk, sent = await round_one(tmp_path, interval=60.0, event=by_hand)
        desk.on_message("domino/t1/result/t1-r1", result(desk, "t1", [100, 40]), False)
        await turns()
        counted = [b for t, b, _ in sent.out if t == STANDINGS]
        assert [sum(e["games"] for e in b["entries"]) for b in counted] == [2]
        void = {"id": "v1", "action": "void", "table": "t1", "game_id": "t1-r1", "reason": "x"}
        assert desk.command(void, "test")["ok"]
        await turns()
        counted = [b for t, b, _ in sent.out if t == STANDINGS]
        assert [sum(e["games"] for e in b["entries"]) for b in counted] == [2, 0]
        desk.stop()

    run_alone(run)
