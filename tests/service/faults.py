"""The harness of the fault tests (no tests of its own): the real service process, its
journal read from outside, a full-information game laid tile by tile on the board
emulator, and the checks that nothing was lost.

- `on_board`: `domino-table run` as a child process (`Service`) on the emulated board,
  its log in `service.log`.
- `JournalView`: the service's journal read-only from the test process (sqlite, WAL):
  the oracle of what the service accepted, usable while the broker is down.
- `Commander`: commands over MQTT, one connection each, retried while the broker is away.
- `Player`: one full-information random game (`Mode.FULL`, seeded) whose tiles are laid
  on the emulator where a player would lay them (the Placer); passes and draws are sent
  as commands, and the lead is named when the table raises LEAD_UNKNOWN.
- `check_delivery`: every event 1..N reached a persistent subscriber, duplicates
  byte-for-byte equal to the first copy and equal to the journal's.
- `Rig` / `rig_for`: all of it started together (an emulated board, a desk, the
  service on the board's link, a player), online; the `rig` fixture
  (tests/service/conftest.py) is one with a fault-free board.
"""

from __future__ import annotations

import json
import random
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from engine import Game, Mode, Phase, Tile, rulesets
from engine.geometry import Placer
from engine.players import RandomPlayer
from engine.surface import SeenTile
from firmware_bridge.emulator import BoardEmulator, FaultRates
from firmware_bridge.messages import TileAt
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_fake import FakeBroker
from tests.fixtures.mqtt_recorder import Recorder, Seen
from tests.fixtures.service_process import Service

TABLE = "t1"
P = f"domino/{TABLE}"
TOPICS = [f"{P}/status", f"{P}/state", f"{P}/event/#", f"{P}/cmd/reply", f"{P}/result/#"]
W, H = 900, 600


def at(seen: SeenTile) -> TileAt:
    return TileAt(seen.a, seen.b, round(seen.xa), round(seen.ya), round(seen.xb), round(seen.yb))


def wait(predicate: Callable[[], Any], timeout: float = 10.0, what: str = "") -> Any:
    """Poll `predicate` until it returns something truthy; fail after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        time.sleep(0.01)


def on_board(broker: Mosquitto, tmp_path: Path, rules: str = "walnut", seats: int = 2) -> Service:
    """The service on the emulator's link `tmp_path/board`, its state in `tmp_path/state`."""
    return Service(
        broker, tmp_path / "state",
        "--serial", str(tmp_path / "board"), "--rules", rules, "--seats", str(seats),
        log=tmp_path / "service.log",
    )  # fmt: skip


@dataclass(frozen=True)
class Stored:
    seq: int
    kind: str
    payload: dict[str, Any]
    acked: bool


class JournalView:
    """The service's journal, read-only, from the test process."""

    def __init__(self, state_dir: Path) -> None:
        self.path = state_dir / "journal.sqlite3"

    def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        if not self.path.exists():
            return []
        db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=10)
        try:
            return db.execute(sql, args).fetchall()
        except sqlite3.OperationalError:
            return []  # tables not made yet
        finally:
            db.close()

    def events(self) -> list[Stored]:
        rows = self._rows("SELECT seq, kind, payload, acked FROM events ORDER BY seq")
        return [Stored(r[0], r[1], json.loads(r[2]), bool(r[3])) for r in rows]

    def last_seq(self) -> int:
        rows = self._rows("SELECT value FROM counters WHERE name='seq'")
        return int(rows[0][0]) if rows else 0

    def input_count(self) -> int:
        rows = self._rows("SELECT count(*) FROM inputs")
        return int(rows[0][0]) if rows else 0

    def reply(self, cmd_id: str) -> dict[str, Any] | None:
        rows = self._rows("SELECT reply FROM replies WHERE cmd_id=?", (cmd_id,))
        return json.loads(rows[0][0]) if rows else None

    def unacked(self) -> list[int]:
        return [r[0] for r in self._rows("SELECT seq FROM events WHERE acked=0 ORDER BY seq")]

    def game_events(self) -> list[Stored]:
        """The events of the latest game (from its `game started` event on)."""
        events = self.events()
        start = max(
            (i for i, e in enumerate(events) if e.kind == "game" and e.payload["event"] != "over"),
            default=0,
        )
        return events[start:]

    def plays(self) -> list[dict[str, Any]]:
        """The latest game's plays as stored (undone plays removed)."""
        out: list[dict[str, Any]] = []
        for e in self.game_events():
            if e.kind == "play":
                out.append(e.payload)
            elif e.kind == "undo":
                out = [p for p in out if p["seq"] != e.payload["undone"]]
        return out

    def standing(self, code: str) -> bool:
        """Whether an alert with `code` was raised and not resolved yet (latest game)."""
        up = False
        for e in self.game_events():
            if e.kind == "alert" and e.payload["code"] == code:
                up = not e.payload["resolved"]
        return up


class Commander:
    """Sends commands on `<prefix>/cmd`, one short connection each."""

    def __init__(self, broker: Mosquitto | FakeBroker) -> None:
        self.broker = broker
        self.n = 0

    def publish(self, payload: bytes, *, topic: str = f"{P}/cmd", retain: bool = False,
                timeout: float = 20.0) -> None:  # fmt: skip
        deadline = time.monotonic() + timeout
        while True:
            client = mqtt.Client(CallbackAPIVersion.VERSION2)
            try:
                client.connect(self.broker.host, self.broker.port)
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
                continue
            client.loop_start()
            try:
                info = client.publish(topic, payload, qos=1, retain=retain)
                info.wait_for_publish(5)
                if info.is_published():
                    return
            except (RuntimeError, ValueError):
                pass
            finally:
                client.disconnect()  # wakes paho's loop: loop_stop() returns at once
                client.loop_stop()
            if time.monotonic() > deadline:
                raise AssertionError(f"could not publish a command to {topic}")
            time.sleep(0.1)

    def send(self, body: dict[str, Any]) -> str:
        """Publish a command (an id is added when it has none); returns its id."""
        if "id" not in body:
            self.n += 1
            body = {"id": f"c{self.n}-{time.monotonic_ns()}", **body}
        self.publish(json.dumps(body).encode())
        return str(body["id"])


@dataclass
class Player:
    """One full-information game, laid on the board as it is played.

    `full` deals and knows every hand; each turn its seat plays a random legal tile
    (laid on the emulator where the Placer puts it), or draws or passes (a command).
    `laid` is what the table must have judged: (tile, seat, points) per play.
    """

    board: BoardEmulator
    journal: JournalView
    commands: Commander
    rules: str = "walnut"
    seats: int = 2
    seed: int = 1
    full: Game = field(init=False)
    placer: Placer = field(init=False)
    coords: list[SeenTile] = field(default_factory=list)
    laid: list[tuple[str, int, int]] = field(default_factory=list)
    surface: list[TileAt] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.full = Game(rulesets.load(self.rules), self.seats, mode=Mode.FULL, seed=self.seed)
        self.full.start()
        self.placer = Placer(W, H)
        self.rng = random.Random(self.seed)
        self.player = RandomPlayer(self.rng)

    @property
    def in_play(self) -> bool:
        return self.full.phase in (Phase.LEAD, Phase.PLAY)

    def command(self, body: dict[str, Any], timeout: float = 20.0) -> dict[str, Any]:
        """Send a command until the journal holds its reply.

        A command published while the service is not subscribed (its broker just came
        back) is lost, as MQTT goes: a client sends it again under the same id, which
        the service never applies twice.
        """
        cmd_id = self.commands.send(body)
        deadline = time.monotonic() + timeout
        while True:
            try:
                reply: dict[str, Any] = wait(lambda: self.journal.reply(cmd_id), 2.0)
                return reply
            except AssertionError:
                if time.monotonic() > deadline:
                    raise AssertionError(f"no reply to {body}") from None
                self.commands.send({"id": cmd_id, **body})

    def next_tile(self) -> TileAt | None:
        """Play the full game until its turn seat lays a tile; None when the hand is over.

        Draws and passes on the way are sent as commands (and answered) first.
        """
        while self.in_play:
            seat = self.full.turn
            assert seat is not None
            moves = self.full.legal_moves()
            if moves:
                move = self.player.choose(self.full, moves)
                seen = self.placer.place(self.full.layout, self.coords, move.tile, move.end)
                judged = self.full.play(move.tile, move.end)
                assert judged.ok, judged
                play = judged.events[0]
                self.coords.append(seen)
                self.laid.append((move.tile.text, seat, int(play.payload()["points"])))
                tile = at(seen)
                self.surface.append(tile)
                return tile
            if self.full.can_draw():
                n = 0
                while not self.full.legal_moves() and self.full.can_draw():
                    assert self.full.draw().ok
                    n += 1
                reply = self.command({"action": "draw", "seat": seat, "count": n})
            else:
                assert self.full.pass_turn().ok
                reply = self.command({"action": "pass", "seat": seat})
            assert reply["ok"], reply
        return None

    def lay(self, *, wait_judged: bool = True, timeout: float = 20.0) -> TileAt | None:
        """The next tile laid on the board; with `wait_judged`, until the table has it."""
        tile = self.next_tile()
        if tile is None:
            return None
        self.board.place(tile)
        if wait_judged:
            self.judged(timeout)
        return tile

    def judged(self, timeout: float = 20.0) -> None:
        """Wait until the table accepted every tile laid (naming the leader if asked)."""
        want = len(self.laid)
        wait(lambda: len(self.journal.plays()) >= want, timeout, f"{want} plays judged")
        self.name_leader()
        assert self.table_plays() == [(t, s) for t, s, _ in self.laid], self.laid

    def table_plays(self) -> list[tuple[str, int | None]]:
        """(tile, seat) of the plays the table accepted; the lead's seat as named."""
        leads = [e.payload["seat"] for e in self.journal.game_events() if e.kind == "lead"]
        return [
            (p["tile"], p["seat"] if p["seat"] is not None or not leads else leads[-1])
            for p in self.journal.plays()
        ]

    def name_leader(self) -> None:
        """Answer LEAD_UNKNOWN with a `lead` command, once."""
        if not self.journal.standing("LEAD_UNKNOWN"):
            return
        reply = self.command({"action": "lead", "seat": self.laid[0][1]})
        assert reply["ok"], reply
        wait(lambda: not self.journal.standing("LEAD_UNKNOWN"), 10, "LEAD_UNKNOWN resolved")

    def play(self, n: int, pause: float = 0.0) -> int:
        """Lay up to `n` tiles, each judged before the next (then `pause` s); the number laid."""
        done = 0
        while done < n and self.lay() is not None:
            done += 1
            time.sleep(pause)
        return done

    def expect_state(self, state: dict[str, Any]) -> None:
        """`state` (a state payload) is the game these plays imply."""
        full = self.full
        tiles = [t["tile"] for t in state["layout"]["tiles"]]
        assert tiles == [t for t, _, _ in self.laid]
        assert [t["seat"] for t in state["layout"]["tiles"]] == [s for _, s, _ in self.laid]
        assert [s["score"] for s in state["seats"]] == list(full.scores())
        assert state["layout"]["ends_total"] == full.ends_total()
        if self.in_play:
            assert state["turn"] == full.turn
            assert state["phase"] == "play"


def check_delivery(seen: list[Seen], journal: JournalView) -> int:
    """Every journaled event reached the subscriber: seqs 1..N, a repeat equal to the
    first copy, each equal to what the journal stored. Returns N."""
    stored = {e.seq: e.payload for e in journal.events()}
    n = max(stored, default=0)
    assert sorted(stored) == list(range(1, n + 1)), "the journal has a gap"
    first: dict[int, bytes] = {}
    for s in seen:
        if "/event/" not in s.topic:
            continue
        body = s.json()
        seq = body["seq"]
        assert first.setdefault(seq, s.payload) == s.payload, f"seq {seq} came back different"
        assert body == stored[seq], f"seq {seq} differs from the journal"
        assert s.topic == f"{P}/event/{journal_kind(stored, seq, journal)}"
    missing = sorted(set(stored) - set(first))
    assert not missing, f"events never delivered: {missing}"
    return n


def journal_kind(stored: dict[int, dict[str, Any]], seq: int, journal: JournalView) -> str:
    return next(e.kind for e in journal.events() if e.seq == seq)


def all_seqs(journal: JournalView) -> Callable[[list[Seen]], bool]:
    """A `Recorder.wait_for` test: every event in the journal has arrived."""

    def test(seen: list[Seen]) -> bool:
        want = set(range(1, journal.last_seq() + 1))
        got = {s.json()["seq"] for s in seen if "/event/" in s.topic}
        return want <= got

    return test


def last_state(seen: list[Seen]) -> dict[str, Any] | None:
    states = [s.json() for s in seen if s.topic == f"{P}/state"]
    return states[-1] if states else None


def statuses(seen: list[Seen]) -> list[bytes]:
    return [s.payload for s in seen if s.topic == f"{P}/status"]


def desk(broker: Mosquitto, name: str = "desk") -> Recorder:
    """A subscriber with a persistent session (QoS 1 kept for it while it is away),
    whose subscription the broker has saved to disk (autosave every second)."""
    rec = Recorder(broker.host, broker.port, TOPICS, client_id=name, persistent=True)
    assert rec.subscribed.wait(10)
    saved_after = time.time()
    db = broker.workdir / "mosquitto.db"
    wait(
        lambda: db.exists() and db.stat().st_mtime > saved_after + 0.1,
        10,
        "mosquitto saving its sessions",
    )
    return rec


def fresh_state(broker: Mosquitto) -> dict[str, Any]:
    """The retained `state`, read by a new subscriber."""
    rec = Recorder(broker.host, broker.port, [f"{P}/state"])
    try:
        got = rec.wait_for(bool, 10)
        state: dict[str, Any] = got[-1].json()
        return state
    finally:
        rec.close()


def settled_state(rec: Recorder, broker: Mosquitto, seq: int) -> dict[str, Any]:
    """The retained `state` once it has caught up with event `seq`. The service publishes
    an event before the state it leads to, so the last event can reach a subscriber while
    the broker still keeps the state before it: `rec` waits for the state of `seq`, then a
    new subscriber reads what the broker keeps."""
    rec.wait_for(
        lambda seen: any(s.json().get("seq") == seq for s in seen if s.topic == f"{P}/state"),
        timeout=15,
    )
    return fresh_state(broker)


def tile_text(tile: TileAt) -> str:
    return Tile(tile.a, tile.b).text


NO_FAULTS = FaultRates()
SPEED = 3  # the emulator's waits and debounce / 3


@dataclass
class Rig:
    board: BoardEmulator
    journal: JournalView
    player: Player
    proc: Service
    rec: Recorder
    broker: Mosquitto
    link: Path

    def finish(self) -> dict[str, object]:
        """Every event delivered, the final state the plays' game; returns it."""
        self.rec.wait_for(all_seqs(self.journal), timeout=20)
        n = check_delivery(self.rec.seen, self.journal)
        final = settled_state(self.rec, self.broker, n)
        assert final["seq"] == n
        self.player.expect_state(final)
        assert not self.proc.errors(), self.proc.errors()
        return final


def rig_for(
    broker: Mosquitto, tmp_path: Path, rates: FaultRates = NO_FAULTS, seed: int = 11
) -> Iterator[Rig]:
    """A walnut table for two on an emulated board (`tmp_path/board`), its service
    online; stopped (service, board, desk) when the generator is closed."""
    link = tmp_path / "board"
    board = BoardEmulator(link=link, speed=SPEED, rates=rates, seed=seed).start()
    rec = desk(broker)
    journal = JournalView(tmp_path / "state")
    proc = on_board(broker, tmp_path)
    player = Player(board, journal, Commander(broker), rules="walnut", seats=2, seed=seed)
    proc.start()
    rig = Rig(board, journal, player, proc, rec, broker, link)
    try:
        rec.wait_for(lambda s: b"online" in statuses(s), timeout=20)
        yield rig
    finally:
        proc.stop()
        rig.board.stop()
        rec.close()
