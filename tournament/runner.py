"""The desk running an event: the journal and ledger, the tables' topics in, the round,
standings, command replies and each table's `new_game` out.

Everything runs on the asyncio loop (paho's thread hands messages over through the
link, as for `Desk`). A change is journaled before it is applied to the ledger, and
synced to disk before anything is sent, published or answered from it: a command is
committed at once; what the tables tell (replies, states, results) is committed once
for all the messages taken in during the same turn of the loop (a burst of 50 results
is one disk sync, not 50 on the loop). A game's outcome (a result counted, entered,
voided, a forfeit) is published at the end of that turn; other changes (the tables'
rows, a round's state) are coalesced: at once when the last publication was
`publish_interval_s` ago or more, else at that time. At start-up the
ledger is rebuilt from the journal, record by record, so a desk killed mid-round comes
back with the same seating and the same results, and sends the `new_game`s that were
never acknowledged again (with the same ids: a table that had them answers again).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from mqttweb.envelope import encode, utc_ts
from tournament import commands, intake
from tournament.asks import TableAsks
from tournament.board import Board, split_topic
from tournament.desk import STANDINGS, LinkSide, lag_summary, ts_seconds
from tournament.errors import CommandError, JournalError
from tournament.event import EventConfig
from tournament.journal import Journal, Kind, Record
from tournament.ledger import Ledger, TableStatus
from tournament.rounds import new_game
from tournament.settings import DeskSettings
from tournament.views import director_view, event_summary, round_body, standings_body

log = logging.getLogger(__name__)

ROUND = "domino/tournament/round"
CMD = "domino/tournament/cmd"
CMD_REPLY = "domino/tournament/cmd/reply"
SUBSCRIPTIONS = (
    "domino/+/status",
    "domino/+/state",
    "domino/+/result/+",
    "domino/+/cmd/reply",
    "domino/+/history/frame",  # a kept game's frame, asked for by the director's page
    STANDINGS,
    ROUND,
    CMD,
)
Send = Callable[[str, bytes, bool], bool]
OUTCOMES = frozenset({Kind.RESULT, Kind.ENTERED, Kind.VOID, Kind.FORFEIT})  # published at once
Items = list[tuple[Kind, dict[str, Any]]]


def open_ledger(journal: Journal, event: EventConfig, ts: str) -> Ledger:
    """The ledger rebuilt from `journal` (a new journal starts with the event itself)."""
    defined = event.model_dump(mode="json")
    records = list(journal.records())
    if not records:
        records = journal.append_many(ts, [(Kind.EVENT, {"event": defined})])
    first = records[0]
    if first.kind is not Kind.EVENT or first.data.get("event") != defined:
        began = first.data.get("event", {}) if first.kind is Kind.EVENT else {}
        changed = sorted(k for k in defined if began.get(k) != defined[k]) or ["?"]
        raise JournalError(
            f"the journal {journal.path} began with another event file (changed: "
            f"{', '.join(changed)}); start with the file it began with, or give a new "
            "--state-dir for a new event"
        )
    ledger = Ledger(event)
    for record in records:
        ledger.apply(record)
    return ledger


class EventDesk(LinkSide):
    """The loop side of a desk running an event."""

    def __init__(
        self,
        settings: DeskSettings,
        event: EventConfig,
        send: Send,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(settings)
        self.event, self.send, self.clock = event, send, clock
        self.journal = Journal(settings.state_dir / "journal.sqlite")
        self.ledger = open_ledger(self.journal, event, utc_ts())
        self.board = Board()  # the tables' status and state, for the standings' `tables`
        self.asks = TableAsks(send)  # a kept game asked of its table (the director's page)
        self.lags: deque[float] = deque(maxlen=20000)  # result ts to standings out
        self._stamps: list[float] = []
        self._last: dict[str, dict[str, Any]] = {}  # topic -> body last published
        self._last_publish = 0.0  # clock() of the last publication
        self._advancing = False
        self._commit_soon = False  # a commit is scheduled for the end of this turn
        log.info(
            "desk: event %r, %d rounds played, from %d journal records",
            event.name,
            len(self.ledger.rounds),
            self.ledger.last,
        )

    # ---- from the link -------------------------------------------------------------------

    def _rebuilt(self) -> None:
        self._last.clear()  # publish both again: the broker may have lost them
        self._send_new_games()
        self._advance()  # a desk that stopped between a round's last result and its close
        self._schedule()
        self._tell()

    def on_message(self, topic: str, payload: bytes, retained: bool) -> None:
        if topic in (STANDINGS, ROUND):
            self._raise_seq(payload)
            return
        if topic == CMD:
            if not retained:  # a retained command is ignored (spec/mqtt.md)
                self._mqtt_command(payload)
            return
        if topic.endswith("/history/frame"):
            self.asks.on_frame(topic.split("/")[1], payload)
            return
        self.messages += 1
        if topic.endswith("/cmd/reply") and self.asks.on_reply(payload):
            return  # the answer to the director's page asking for a kept game
        if topic.endswith("/cmd/reply"):
            table = topic.split("/")[1]
            self._record(intake.on_reply(self.ledger, table, payload), batch=True)
            return
        where = split_topic(topic)
        if where is None:
            return
        table, kind, game_id = where
        if kind == "result":
            assert game_id is not None
            self._on_result(table, game_id, payload, retained)
            return
        if self.board.on_message(topic, payload):
            self._schedule()
        if kind == "state":
            self._record(intake.on_state(self.ledger, table, payload), batch=True)

    def _on_result(self, table: str, game_id: str, payload: bytes, retained: bool) -> None:
        items = intake.on_result(self.ledger, table, game_id, payload)
        if items and items[0][0] is Kind.RESULT and not retained:
            stamped = ts_seconds(payload)
            if stamped is not None:
                self._stamps.append(stamped)
        self._record(items, batch=True)

    def _raise_seq(self, payload: bytes) -> None:
        try:
            seq = json.loads(payload).get("seq") if payload else None
        except (AttributeError, ValueError):
            seq = None
        if isinstance(seq, int):
            self.seq.raise_to(seq)

    # ---- commands ------------------------------------------------------------------------

    def _mqtt_command(self, payload: bytes) -> None:
        try:
            body = json.loads(payload)
        except (UnicodeDecodeError, ValueError):
            body = None
        reply = self.command(body, "mqtt")
        self.send(CMD_REPLY, encode(reply), False)

    def command(self, body: Any, source: str) -> dict[str, Any]:
        """Apply one desk command (from MQTT, a page or the desk itself); its reply."""
        cid = body.get("id") if isinstance(body, dict) else None
        cid = cid if isinstance(cid, str) and cid else None
        if cid is not None and cid in self.ledger.replies:
            return self._reply(cid, self.ledger.replies[cid])
        now = datetime.fromtimestamp(self.clock(), UTC)
        items: Items = []
        answer: dict[str, Any]
        try:
            command = commands.parse(body)
            began = time.perf_counter()
            detail, items = commands.decide(self.ledger, command, now)
            if isinstance(command, commands.StartRound):  # the seating's cost, kept
                detail["seating_ms"] = round(1000 * (time.perf_counter() - began), 1)
            answer = {"ok": True, "error": None, "detail": detail}
        except CommandError as exc:
            answer = {"ok": False, "error": str(exc), "detail": None}
        log.info("desk: %s command %s: %s", source, cid, answer["error"] or "done")
        record = {"id": cid, "source": source, "command": body, "reply": answer}
        self._record([(Kind.COMMAND, record), *items])
        return self._reply(cid or "", answer)

    def _reply(self, cid: str, answer: dict[str, Any]) -> dict[str, Any]:
        return {"v": 1, "table": "tournament", "ts": utc_ts(), "id": cid, **answer}

    # ---- journal first, then the ledger, then what follows -------------------------------

    def _record(self, items: Items, *, batch: bool = False) -> list[Record]:
        """Journal `items`, apply them, then what follows from them. `batch` (the tables'
        news): committed at the end of this turn of the loop, with the others taken in
        meanwhile, or before that by anything that sends or publishes (`_commit`)."""
        if not items:
            return []
        try:
            records = self.journal.add(utc_ts(), items)
        except JournalError:
            self._rebuild()  # the open transaction was rolled back: the ledger follows it
            raise
        for record in records:
            self.ledger.apply(record)
        if not batch:
            self._commit()
        elif not self._commit_soon:
            self._commit_soon = True
            asyncio.get_running_loop().call_soon(self._commit)
        if any(r.kind is Kind.SEATING for r in records):
            self._send_new_games()
        self._schedule(urgent=any(r.kind in OUTCOMES for r in records))
        self._advance()
        self._tell()
        return records

    def _commit(self) -> None:
        """Every record applied so far on disk, before anything goes out from it."""
        self._commit_soon = False
        if not self.journal.pending:
            return
        try:
            self.journal.commit()
        except JournalError:
            self._rebuild()
            raise

    def _rebuild(self) -> None:
        """The ledger again from what the journal holds (a write failed and was undone)."""
        log.error("desk: cannot write the journal; the event goes on from what it holds")
        self.ledger = open_ledger(self.journal, self.event, utc_ts())

    def _advance(self) -> None:
        """With `auto_advance`: close a round every table reported, start the next."""
        rnd = self.ledger.current
        if not self.event.auto_advance or self._advancing or rnd is None or rnd.closed:
            return
        if rnd.unreported():
            return
        self._flush()  # the standings with the round's last result first, then the seating
        self._advancing = True
        try:
            self.command({"id": f"auto-close-r{rnd.number}", "action": "close_round"}, "auto")
            if rnd.number < self.event.rounds:
                start = {"id": f"auto-start-r{rnd.number + 1}", "action": "start_round"}
                self.command(start, "auto")
        finally:
            self._advancing = False

    def _send_new_games(self) -> None:
        self._commit()
        rnd = self.ledger.current
        self._cancel("resend")
        if rnd is None or rnd.closed:
            return
        waiting = [t for t in rnd.tables.values() if t.status in (TableStatus.SENT,
                   TableStatus.REFUSED)]  # fmt: skip
        if not waiting:
            return
        if self.connected:
            for seated in waiting:
                body = new_game(self.event, rnd, seated)
                self.send(f"domino/{seated.table}/cmd", encode(body), False)
        self._later("resend", self.settings.resend_s, self._send_new_games)

    # ---- publishing ----------------------------------------------------------------------

    def round_payload(self) -> dict[str, Any] | None:
        rnd = self.ledger.current
        return None if rnd is None else round_body(self.ledger, rnd)

    def standings_payload(self) -> dict[str, Any]:
        tables = {t["table"]: t for t in self.board.payload()["tables"]}
        rows = [
            tables.get(t, {"table": t, "status": "unknown", "game_id": None, "hand": None})
            for t in self.event.tables
        ]
        return standings_body(self.ledger, rows)

    def _schedule(self, urgent: bool = False) -> None:
        """The next publication: at the end of this turn for a game's outcome (`urgent`),
        else at once when the last was `publish_interval_s` ago or more (the tables'
        rows, a round's state), else then."""
        if not (self.synced and self.connected):
            return
        if urgent:
            self._later("publish", 0.0, self._flush)
            return
        if "publish" in self._timers:
            return
        wait = self._last_publish + self.settings.publish_interval_s - self.clock()
        self._later("publish", max(0.0, wait), self._flush)

    def _flush(self) -> None:
        self._cancel("publish")
        if not (self.synced and self.connected):
            return
        self._commit()
        stamps, self._stamps = self._stamps, []
        rnd = self.round_payload()
        if rnd is not None and self._publish(ROUND, rnd):
            self._last_publish = self.clock()
        if self._publish(STANDINGS, self.standings_payload()):
            self._last_publish = now = self.clock()
            self.lags.extend(now - t for t in stamps)

    def _publish(self, topic: str, body: dict[str, Any]) -> bool:
        if self._last.get(topic) == body:
            return False
        seq, reserve = self.seq.claim()
        if reserve is not None:
            self.seq.write(reserve)
        payload = {"v": 1, "ts": utc_ts(), "seq": seq, **body}
        if not self.send(topic, encode(payload), True):
            log.warning("desk: %s seq %d not sent; sent again on reconnect", topic, seq)
            return False
        self._last[topic] = body
        self.published += 1
        return True

    # ---- pages ---------------------------------------------------------------------------

    def public_view(self) -> dict[str, Any]:
        self._commit()
        return {
            "connected": self.connected,
            "synced": self.synced,
            "event": event_summary(self.ledger),
            "round": self.round_payload(),
            "standings": self.standings_payload(),
        }

    def director(self) -> dict[str, Any]:
        view = self.public_view()  # committed first: the journal's tail is on disk
        tail = list(self.journal.records(after=max(0, self.ledger.last - 50)))
        return {**view, **director_view(self.ledger, tail)}

    def stats(self) -> dict[str, Any]:
        return {
            **self.link_stats(),
            "records": self.ledger.last,
            "rounds": len(self.ledger.rounds),
            "lag": {"result_to_standings": lag_summary(self.lags)},
        }

    def stop(self) -> None:
        super().stop()
        self._commit()
        self.journal.close()
