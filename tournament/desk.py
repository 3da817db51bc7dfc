"""The desk: the central broker's table topics in, `domino/tournament/standings` out.

paho runs its network loop in its own thread; every callback crosses into the asyncio
loop in exactly one way (`loop.call_soon_threadsafe`), and `Desk` does the rest there.

After each (re)connect the broker re-sends every retained `status`, `state` and
`result/<game_id>`. The desk publishes only once it has them all: it subscribes, then
publishes a marker to its own sync topic; the broker delivers the marker after the
retained messages of the subscriptions made before it, so the marker's return means the
board is rebuilt (or `sync_timeout_s` passes). Publications are then coalesced: at most
one every `publish_interval_s`.

`seq` is reserved in `<state dir>/seq` (synced to disk) before it is used, and never
below the `seq` of the retained standings on the broker, so it
keeps increasing across restarts. The games counted are also appended to
`<state dir>/results.jsonl` (synced before the publication that counts them), read back
at start-up before the broker's retained results.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
import uuid
from collections import deque
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import paho.mqtt.client as mqtt

from durable import append_file, make_dirs, write_file
from mqttweb.envelope import encode, utc_ts
from mqttweb.link import SubscriberLink
from tournament.board import Board
from tournament.errors import StateDirError
from tournament.settings import DeskSettings

log = logging.getLogger(__name__)

STANDINGS = "domino/tournament/standings"
SYNC_PREFIX = "domino/tournament/desk-sync/"
SUBSCRIPTIONS = ("domino/+/status", "domino/+/state", "domino/+/result/+", STANDINGS)


class SeqFile:
    """The standings `seq`, reserved on disk a block at a time.

    The file holds the highest `seq` the desk may have used; a block of `block` numbers
    is written (and synced) before the first of them is used, so after a crash the desk
    starts above anything it published, with one disk sync per `block` publications.
    """

    def __init__(self, state_dir: Path, block: int = 64) -> None:
        self.path = state_dir / "seq"
        self.block = block
        try:
            make_dirs(state_dir)
            text = self.path.read_text(encoding="ascii") if self.path.exists() else "0"
        except OSError as exc:
            raise StateDirError(
                f"cannot use the state directory {state_dir}: {exc.strerror}; "
                "give one this user may write with --state-dir"
            ) from exc
        try:
            self.value = self.reserved = int(text.strip() or "0")
        except ValueError as exc:
            raise StateDirError(
                f"{self.path} does not hold a number; delete it to start again from the "
                "broker's retained standings"
            ) from exc

    def raise_to(self, seq: int) -> None:
        """Never go below `seq` (the retained standings the broker holds)."""
        self.value = max(self.value, seq)

    def claim(self) -> tuple[int, int | None]:
        """The next `seq`, and the block to `write()` before it is used (None: reserved)."""
        self.value += 1
        return self.value, (self.value + self.block - 1 if self.value > self.reserved else None)

    def unclaim(self, seq: int) -> None:
        """`seq` was not published (its block could not be written)."""
        if self.value == seq:
            self.value -= 1

    def write(self, reserved: int) -> None:
        write_file(self.path, f"{reserved}\n", keep_spare=True)
        self.reserved = reserved


class ResultLog:
    """Every finished game the desk counted (or saw cleared), one JSON line each.

    The broker's retained results are the record the desk rebuilds from; this log keeps
    the standings right should the central broker lose what it saved last.
    """

    def __init__(self, state_dir: Path) -> None:
        self.path = state_dir / "results.jsonl"

    def load(self, board: Board) -> int:
        """Replay the log into `board`; the number of lines read."""
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return 0
        except OSError as exc:
            raise StateDirError(f"cannot read {self.path}: {exc.strerror}") from exc
        for number, line in enumerate(lines, start=1):
            try:
                record = json.loads(line)
                table, game_id, payload = record["table"], record["game_id"], record["result"]
                if payload is None:
                    board.results.pop((table, game_id), None)
                else:
                    board.add_result(table, game_id, payload)
            except (KeyError, TypeError, ValueError) as exc:
                # a line cut short by a power cut: the broker's retained results cover it
                log.warning("desk: %s line %d skipped: %s", self.path, number, exc)
        board.drain_changes()
        return len(lines)

    def append(self, changes: list[tuple[str, str, Any]]) -> None:
        """Add the changes and sync them to disk."""
        if not changes:
            return
        text = "".join(
            json.dumps({"table": t, "game_id": g, "result": p}, separators=(",", ":")) + "\n"
            for t, g, p in changes
        )
        append_file(self.path, text)


TS = re.compile(rb'"ts":\s*"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)"')


def ts_seconds(payload: bytes) -> float | None:
    """The `ts` of a JSON payload (stamped near its start) as epoch seconds, or None."""
    found = TS.search(payload, 0, 256)
    if found is None:
        return None
    moment = datetime.strptime(found.group(1).decode(), "%Y-%m-%dT%H:%M:%S.%fZ")
    return moment.replace(tzinfo=UTC).timestamp()


def lag_summary(lags: deque[float]) -> dict[str, float | int | None]:
    ordered = sorted(lags)
    if not ordered:
        return {"samples": 0, "p50_ms": None, "p99_ms": None, "max_ms": None}

    def at(q: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)

    return {
        "samples": len(ordered),
        "p50_ms": at(0.50),
        "p99_ms": at(0.99),
        "max_ms": round(1000 * ordered[-1], 1),
    }


class LagStats:
    """How far the desk trails the tables, from the `ts` the tables stamp (their clocks).

    `intake`: from a table's `ts` to the desk folding the message in (every live
    message). `board`: to the publication of the standings it changed (only messages
    that change them). Retained messages re-sent on a (re)connect are not counted.
    """

    def __init__(self, keep: int = 20000) -> None:
        self.intake: deque[float] = deque(maxlen=keep)
        self.board: deque[float] = deque(maxlen=keep)
        self.pending: list[float] = []

    def taken_in(self, stamped: float | None, now: float, changed: bool) -> None:
        if stamped is None:
            return
        self.intake.append(now - stamped)
        if changed:
            self.pending.append(stamped)

    def take(self) -> list[float]:
        """The stamps of the changes the next publication carries."""
        pending, self.pending = self.pending, []
        return pending

    def published(self, now: float, covered: list[float]) -> None:
        self.board.extend(now - t for t in covered)

    def summary(self) -> dict[str, dict[str, float | int | None]]:
        return {"intake": lag_summary(self.intake), "board": lag_summary(self.board)}


class LinkSide:
    """What both desks (`Desk`, standings only; `EventDesk`, running an event) keep of
    their link on the loop: connected and synced, the counts, the seq, the watchers told
    of each change, and named timers. After a (re)connect the desk is synced when its
    marker comes back (`on_synced`) or, at the latest, after `sync_timeout_s`."""

    def __init__(self, settings: DeskSettings) -> None:
        self.settings = settings
        self.seq = SeqFile(settings.state_dir)
        self.connected = self.synced = False
        self.messages = self.published = 0
        self.watchers: list[Callable[[], None]] = []
        self._timers: dict[str, asyncio.TimerHandle] = {}

    def on_connection(self, connected: bool) -> None:
        self.connected, self.synced = connected, False
        self._cancel("sync")
        if connected:
            self._later("sync", self.settings.sync_timeout_s, self._sync_timeout)
        self._tell()

    def on_synced(self) -> None:
        if self.synced or not self.connected:
            return
        self._cancel("sync")
        self.synced = True
        self._rebuilt()

    def _rebuilt(self) -> None:
        """Synced: what the desk does once the broker has re-sent everything retained."""
        raise NotImplementedError

    def _sync_timeout(self) -> None:
        log.warning(
            "desk: no sync marker back from the broker in %.1f s; publishing what it has",
            self.settings.sync_timeout_s,
        )
        self.on_synced()

    def _later(self, name: str, delay: float, method: Callable[[], None]) -> None:
        self._cancel(name)
        self._timers[name] = asyncio.get_running_loop().call_later(delay, method)

    def _cancel(self, name: str) -> None:
        timer = self._timers.pop(name, None)
        if timer is not None:
            timer.cancel()

    def _tell(self) -> None:
        for watcher in self.watchers:
            watcher()

    def stop(self) -> None:
        for name in list(self._timers):
            self._cancel(name)

    def link_stats(self) -> dict[str, Any]:
        return {
            "connected": self.connected,
            "synced": self.synced,
            "messages": self.messages,
            "published": self.published,
            "seq": self.seq.value,
        }


class Desk(LinkSide):
    """The loop side: folds messages into the `Board`, publishes the standings."""

    def __init__(
        self,
        settings: DeskSettings,
        publish: Callable[[bytes], bool],
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(settings)
        self.publish = publish
        self.clock = clock
        self.board = Board()
        self.results_log = ResultLog(settings.state_dir)
        if self.results_log.load(self.board):
            log.info(
                "desk: %d finished games from %s", len(self.board.results), self.results_log.path
            )
        self.lag = LagStats()
        self.standings: dict[str, Any] | None = None
        self._dirty = True
        self._last_publish = 0.0
        self._writing = False

    # ---- from the link ------------------------------------------------------------------

    def _rebuilt(self) -> None:
        log.info(
            "desk: rebuilt from the broker: %d tables, %d finished games",
            len(self.board.tables),
            len(self.board.results),
        )
        self._dirty = True
        self._schedule()

    def on_message(self, topic: str, payload: bytes, retained: bool) -> None:
        if topic == STANDINGS:
            self._retained_standings(payload)
            return
        self.messages += 1
        changed = self.board.on_message(topic, payload)
        if not retained:
            self.lag.taken_in(ts_seconds(payload), self.clock(), changed)
        if changed:
            self._dirty = True
            self._schedule()

    def _retained_standings(self, payload: bytes) -> None:
        try:
            seq = json.loads(payload).get("seq") if payload else None
        except (AttributeError, ValueError):
            seq = None
        if isinstance(seq, int) and seq > self.seq.value:
            log.info("desk: the broker holds standings seq %d; continuing after it", seq)
            self.seq.raise_to(seq)

    # ---- publishing -----------------------------------------------------------------------

    def _schedule(self) -> None:
        if not (self.synced and self.connected and self._dirty) or "publish" in self._timers:
            return
        wait = self._last_publish + self.settings.publish_interval_s - self.clock()
        self._later("publish", max(0.0, wait), self._flush)

    def _flush(self) -> None:
        """Build the next standings now; write the disk part off the loop, then publish."""
        self._timers.pop("publish", None)
        if not (self.synced and self.connected and self._dirty) or self._writing:
            return
        changes = self.board.drain_changes()
        seq, reserve = self.seq.claim()
        payload = {"v": 1, "ts": utc_ts(), "seq": seq, **self.board.payload()}
        covered = self.lag.take()
        self._dirty = False
        if not changes and reserve is None:
            self._send(payload, covered)
            return
        self._writing = True
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(None, self._write, changes, reserve)
        future.add_done_callback(lambda f: self._written(f, payload, covered, changes))

    def _write(self, changes: list[tuple[str, str, Any]], reserve: int | None) -> None:
        """In a worker thread: the counted games, then the seq block, synced to disk."""
        self.results_log.append(changes)
        if reserve is not None:
            self.seq.write(reserve)

    def _written(
        self,
        future: asyncio.Future[None],
        payload: dict[str, Any],
        covered: list[float],
        changes: list[tuple[str, str, Any]],
    ) -> None:
        self._writing = False
        exc = future.exception()
        if exc is None:
            self._send(payload, covered)
        else:
            self.seq.unclaim(payload["seq"])
            self.board.changes[:0] = changes  # written with the next publication
            self._dirty = True
            log.error("desk: cannot write the state directory (%s); standings not published", exc)
        self._schedule()

    def _send(self, payload: dict[str, Any], covered: list[float]) -> None:
        if not self.publish(encode(payload)):
            log.warning("desk: standings seq %d not sent; sent again on reconnect", payload["seq"])
            self._dirty = True
            return
        self._last_publish = now = self.clock()
        self.lag.published(now, covered)
        self.published += 1
        self.standings = payload
        self._tell()

    def stats(self) -> dict[str, Any]:
        return {
            **self.link_stats(),
            "tables": len(self.board.tables),
            "games": len(self.board.results),
            "lag": self.lag.summary(),
        }


class LinkUser(Protocol):
    """What the link hands messages to: a `Desk`, or an `EventDesk` running an event."""

    def on_connection(self, connected: bool) -> None: ...
    def on_synced(self) -> None: ...
    def on_message(self, topic: str, payload: bytes, retained: bool) -> None: ...


class DeskLink(SubscriberLink):
    """The desk's paho client: subscriptions, the sync marker, publications out."""

    def __init__(
        self, settings: DeskSettings, subscriptions: tuple[str, ...] = SUBSCRIPTIONS
    ) -> None:
        client_id = f"domino-tournament-{uuid.uuid4().hex[:8]}"
        super().__init__(settings, client_id, who="desk", log=log)
        self.subscriptions = subscriptions
        self.desk: LinkUser | None = None
        self.sync_topic = SYNC_PREFIX + client_id
        self.client.max_inflight_messages_set(100)

    def start(self, loop: asyncio.AbstractEventLoop, desk: LinkUser) -> None:
        self.desk = desk
        self._connect(loop)

    def publish(self, payload: bytes) -> bool:
        """The standings, retained, QoS 1; False when the broker is not there."""
        return self.send(STANDINGS, payload, retain=True)

    def send(self, topic: str, payload: bytes, retain: bool) -> bool:
        """One message at QoS 1; False when the broker is not there."""
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        return bool(info.rc == mqtt.MQTT_ERR_SUCCESS)

    # ---- paho's thread ----------------------------------------------------------------

    def _subscribe(self, client: mqtt.Client) -> str:
        topics = [*self.subscriptions, self.sync_topic]
        client.subscribe([(t, 1) for t in topics])
        client.publish(self.sync_topic, b"sync", qos=1)
        return ", ".join(self.subscriptions)

    def _connection(self, connected: bool) -> None:
        if self.desk is not None:
            self._handoff(self.desk.on_connection, connected)

    def _message(self, msg: mqtt.MQTTMessage) -> None:
        assert self.desk is not None
        if msg.topic == self.sync_topic:
            self._handoff(self.desk.on_synced)
        else:
            self._handoff(self.desk.on_message, msg.topic, bytes(msg.payload), bool(msg.retain))
