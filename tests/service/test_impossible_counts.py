"""Impossible counts and other impossible commands, over the fake broker (issue 24 point 1).

A walnut table for two runs in this process (`TableService`, its MQTT link on the fake
broker, `tests/fixtures/mqtt_fake.py`: the broker is not what is tested here); a
full-information game is played on it as a board would see it (each tile laid is a
snapshot of the surface; draws, passes, the leader and the counts at each hand's end
are commands). Between the true inputs come hostile commands that
cannot be true: a `count` with a tile not in the set, a tile twice, a tile on the table
or counted for the other seat, more tiles or pips than the seat can hold, a count when
no hand is over; a `correct` to a tile not in the set or already on the table, or once
the hand is over; seats that do not exist; more draws than the boneyard holds. Each is
answered, none with `ok: true`, and none changes the journal or the state; the true
inputs are all taken, and the table scores each hand as the game did.
"""

from __future__ import annotations

import itertools
import json
import random
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paho.mqtt.enums import CallbackAPIVersion

from config.loader import load_settings
from engine import Game, Mode, Phase, Tile, rulesets
from engine.geometry import Placer
from engine.players import RandomPlayer
from engine.surface import SeenTile, Snapshot
from service.app import TableService
from tests.fixtures.mqtt_fake import FakeBroker
from tests.fixtures.spec import validate
from tests.service.faults import JournalView

P = "domino/t1"
SET = [Tile(a, b) for a in range(7) for b in range(a + 1)]  # walnut for two: double-six
NOT_IN_SET = ["9-9", "7-0", "7-7", "12-3", "18-18", "10-6"]
HAND, BONEYARD = 7, 14  # walnut for two: 7 tiles each, 14 to draw


class Listener:
    """The table's replies (by id) and its latest state, each checked against the schema."""

    def __init__(self, broker: FakeBroker) -> None:
        self.replies: dict[str, dict[str, Any]] = {}
        self.states: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.cond = threading.Condition()
        self.subscribed = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2)
        self.client.on_connect = lambda c, *a: c.subscribe(
            [(f"{P}/state", 1), (f"{P}/cmd/reply", 1)]
        )
        self.client.on_subscribe = lambda *a: self.subscribed.set()
        self.client.on_message = self._on_message
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        payload = json.loads(msg.payload)
        kind = "reply" if msg.topic.endswith("/reply") else "state"
        try:
            validate(kind, payload)
        except AssertionError as exc:
            self.errors.append(str(exc))
        with self.cond:
            if kind == "reply":
                self.replies[payload["id"]] = payload
            else:
                self.states.append(payload)
            self.cond.notify_all()

    def wait(self, test: Callable[[], Any], what: str) -> Any:
        with self.cond:
            if not self.cond.wait_for(test, timeout=20):
                last = self.states[-1] if self.states else None
                raise AssertionError(f"timed out waiting for {what}; the last state: {last}")
            return test()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


class Table:
    """The table service in this process, its commands and replies over the broker."""

    def __init__(self, broker: FakeBroker, state_dir: Path) -> None:
        settings = load_settings(
            None,
            {
                "table.id": "t1", "table.rules": "walnut", "table.seats": 2,
                "serial.enabled": False, "mqtt.host": broker.host, "mqtt.port": broker.port,
                "state.dir": str(state_dir),
            },
        )  # fmt: skip
        self.service = TableService(settings)
        self.listener = Listener(broker)
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2)
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()
        self.journal = JournalView(state_dir)
        self.ids = itertools.count(1)
        self.asked = 0
        self.hostile = 0  # commands that cannot be true, sent

    def start(self) -> None:
        assert self.listener.subscribed.wait(10)
        self.service.start()
        assert self.service.mqtt is not None and self.service.mqtt.wait_connected(10)
        self.listener.wait(lambda: self.listener.states, "the first state")

    def close(self) -> None:
        self.service.stop()
        self.client.disconnect()
        self.client.loop_stop()
        self.listener.close()
        assert not self.listener.errors, self.listener.errors

    def ask(self, body: dict[str, Any]) -> dict[str, Any]:
        """Send a command; its reply."""
        (reply,) = self.ask_all([body])
        return reply

    def ask_all(self, bodies: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Send commands one after the other, without waiting; their replies."""
        ids = [f"h{next(self.ids)}" for _ in bodies]
        for cmd_id, body in zip(ids, bodies, strict=True):
            self.client.publish(f"{P}/cmd", json.dumps({"id": cmd_id, **body}).encode(), qos=1)
        replies = self.listener.replies
        self.listener.wait(lambda: all(i in replies for i in ids), f"the replies to {bodies}")
        self.asked += len(bodies)
        return [replies[i] for i in ids]

    def state(self) -> dict[str, Any]:
        """The latest `state` (published before the reply to the command that changed it)."""
        return self.listener.states[-1]

    def until(self, test: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        """Wait until the latest state passes `test`."""
        self.listener.wait(lambda: test(self.listener.states[-1]), what)
        return self.state()

    def fingerprint(self) -> tuple[int, int, int]:
        """What a refused command must not change: the seq, the inputs, the events."""
        db = sqlite3.connect(f"file:{self.journal.path}?mode=ro", uri=True, timeout=10)
        try:
            seq = db.execute("SELECT value FROM counters WHERE name='seq'").fetchone()[0]
            inputs = db.execute("SELECT count(*) FROM inputs").fetchone()[0]
            events = db.execute("SELECT count(*) FROM events").fetchone()[0]
        finally:
            db.close()
        return int(seq), int(inputs), int(events)


class Truth:
    """One full-information walnut game for two, told to the table as it is played."""

    def __init__(self, table: Table, seed: int) -> None:
        self.table = table
        self.full = Game(rulesets.load("walnut"), 2, mode=Mode.FULL, seed=seed, target=1000)
        self.full.start()
        self.player = RandomPlayer(random.Random(seed))
        self.placer = Placer(900, 600)
        self.surface: list[SeenTile] = []
        self.drawn = [0, 0]  # draws told this hand, by seat
        self.counted: dict[int, list[str]] = {}  # counts the table took this hand
        table.service.submit(Snapshot(()))  # (the last game's tiles taken away)
        self.ask_ok({"action": "new_game", "rules": "walnut", "seats": 2, "target": 1000})
        self.begin_hand()

    def begin_hand(self) -> None:
        """The draws for a double before the lead, told seat by seat."""
        self.drawn, self.counted = [0, 0], {}
        for seat, hand in enumerate(self.full.hands or []):
            if len(hand) > HAND:
                self.ask_ok({"action": "draw", "seat": seat, "count": len(hand) - HAND})
                self.drawn[seat] += len(hand) - HAND

    def ask_ok(self, body: dict[str, Any]) -> None:
        reply = self.table.ask(body)
        assert reply["ok"], (body, reply)

    @property
    def in_play(self) -> bool:
        return self.full.phase in (Phase.LEAD, Phase.PLAY)

    def step(self) -> None:
        """The game's next input, told: a tile laid (a snapshot), a draw or a pass."""
        full, seat = self.full, self.full.turn
        assert seat is not None
        moves = full.legal_moves()
        if moves:
            move = self.player.choose(full, moves)
            seen = self.placer.place(full.layout, self.surface, move.tile, move.end)
            assert full.play(move.tile, move.end).ok
            self.surface.append(seen)
            self.table.service.submit(Snapshot(tuple(self.surface)))
            laid = len(full.layout.nodes)
            state = self.table.until(lambda s: len(s["layout"]["tiles"]) == laid, "laid")
            if any(a["code"] == "LEAD_UNKNOWN" for a in state["alerts"]):
                self.ask_ok({"action": "lead", "seat": seat})
            return
        if full.can_draw():
            n = 0
            while not full.legal_moves() and full.can_draw():
                assert full.draw().ok
                n += 1
            self.ask_ok({"action": "draw", "seat": seat, "count": n})
            self.drawn[seat] += n
            return
        assert full.pass_turn().ok
        self.ask_ok({"action": "pass", "seat": seat})

    def count(self, seat: int) -> None:
        """The seat's true count, at the hand's end."""
        tiles = [t.text for t in (self.full.hands or [])[seat]]
        self.ask_ok({"action": "count", "seat": seat, "tiles": tiles})
        self.counted[seat] = tiles

    def next_hand(self) -> None:
        """The surface cleared: the table starts the next hand by itself."""
        hand = self.table.state()["hand"]
        self.surface = []
        self.table.service.submit(Snapshot(()))
        self.table.until(lambda s: s["hand"] == hand + 1 and s["phase"] == "lead", "next hand")
        assert self.full.next_hand().ok
        self.begin_hand()


@pytest.fixture
def table(mqtt_fake: FakeBroker, tmp_path: Path) -> Iterator[Table]:
    made = Table(mqtt_fake, tmp_path / "state")
    made.start()
    try:
        yield made
    finally:
        made.close()


# --- what cannot be true -----------------------------------------------------------------------


Body = dict[str, Any]


class Point:
    """Where the game is, as the table shows it and the test knows it."""

    def __init__(self, state: dict[str, Any], truth: Truth, seat: int) -> None:
        self.phase, self.seat = state["phase"], seat
        self.laid = [t["tile"] for t in state["layout"]["tiles"]]
        self.boneyard: int | None = state["boneyard"]
        self.theirs = truth.counted.get(1 - seat, [])
        taken = {*self.laid, *self.theirs}
        self.free = [t.text for t in SET if t.text not in taken]  # tiles the seat may hold
        played = sum(1 for t in state["layout"]["tiles"] if t["seat"] == seat)
        # More than the seat can hold: its deal less its plays, and all the boneyard the
        # other seat is not told to have drawn.
        self.most = HAND - played + BONEYARD - truth.drawn[1 - seat]


def count(point: Point, *, tiles: list[str] | None = None, pips: int | None = None) -> Body:
    given = {"tiles": tiles} if tiles is not None else {"pips": pips}
    return {"action": "count", "seat": point.seat, **given}


def no_such_seat(d: st.DrawFn, point: Point) -> Body:
    action = d(st.sampled_from(["pass", "draw", "lead", "out", "count", "rename"]))
    extra: Body = {"pips": 3} if action == "count" else {"name": "X"} if action == "rename" else {}
    return {"action": action, "seat": d(st.integers(2, 9)), **extra}


Kind = Callable[[st.DrawFn, Point, list[str]], Body]
KINDS: dict[str, tuple[Callable[[Point], bool], Kind]] = {
    "unknown tile": (
        lambda p: True,
        lambda d, p, some: count(p, tiles=[*some, d(st.sampled_from(NOT_IN_SET))]),
    ),
    "tile twice": (
        lambda p: True,
        lambda d, p, some: count(
            p, tiles=[*some, *[d(st.sampled_from(SET)).text] * d(st.sampled_from([2, 5, 100]))]
        ),
    ),
    "tile on the table": (
        lambda p: bool(p.laid),
        lambda d, p, some: count(p, tiles=[*some, d(st.sampled_from(p.laid))]),
    ),
    "counted for the other seat": (
        lambda p: bool(p.theirs),
        lambda d, p, some: count(p, tiles=[*some, d(st.sampled_from(p.theirs))]),
    ),
    "too many tiles": (
        lambda p: len(p.free) > p.most,
        lambda d, p, some: count(p, tiles=p.free[: p.most + 1]),
    ),
    "too many pips": (
        lambda p: True,
        lambda d, p, some: count(
            p, pips=sum(Tile.parse(t).pips for t in p.free) + d(st.integers(1, 5000))
        ),
    ),
    "a count, no hand over": (
        lambda p: p.phase in ("lead", "hand_over", "over"),
        lambda d, p, some: count(p, tiles=some),
    ),
    "no such seat": (lambda p: True, lambda d, p, some: no_such_seat(d, p)),
    "correct to a tile not in the set": (
        lambda p: True,
        lambda d, p, some: {
            "action": "correct",
            "tile": d(st.sampled_from(p.laid or [t.text for t in SET])),
            "as": d(st.sampled_from(NOT_IN_SET)),
        },
    ),
    "correct to a tile on the table": (
        lambda p: len(p.laid) >= 2,
        lambda d, p, some: dict(
            zip(("action", "tile", "as"), ("correct", *d(st.permutations(p.laid))[:2]), strict=True)
        ),
    ),
    "correct once the hand is over": (
        lambda p: p.phase in ("counting", "hand_over") and bool(p.laid) and bool(p.free),
        lambda d, p, some: {
            "action": "correct",
            "tile": d(st.sampled_from(p.laid)),
            "as": d(st.sampled_from(p.free)),
        },
    ),
    "next hand mid-hand": (
        lambda p: p.phase in ("lead", "play", "counting"),
        lambda d, p, some: {"action": "next_hand"},
    ),
    "draw beyond the boneyard": (
        lambda p: p.phase == "play" and p.boneyard is not None,
        lambda d, p, some: {
            "action": "draw",
            "seat": d(st.sampled_from([0, 1, None])),
            "count": (p.boneyard or 0) + d(st.integers(1, 20)),
        },
    ),
}
"""Commands that cannot be true, by kind: when each can be made, and how."""


@st.composite
def impossible(draw: st.DrawFn, state: dict[str, Any], truth: Truth) -> Body:
    """One command that cannot be true at this point of the game."""
    point = Point(state, truth, draw(st.integers(0, 1)))
    kind = draw(st.sampled_from([k for k, (can, _) in KINDS.items() if can(point)]))
    some = (
        draw(st.lists(st.sampled_from(point.free), max_size=5, unique=True)) if point.free else []
    )
    return KINDS[kind][1](draw, point, some)


def hostile_burst(data: st.DataObject, table: Table, truth: Truth) -> None:
    """Commands that cannot be true, sent together: each answered, none `ok`, and the
    journal and the state as they were (a refused command changes nothing)."""
    state = table.state()
    bodies = data.draw(st.lists(impossible(state, truth), max_size=24))
    if not bodies:
        return
    before = table.fingerprint()
    for body, reply in zip(bodies, table.ask_all(bodies), strict=True):
        assert reply["ok"] is False and reply["error"], (body, reply)
    assert table.fingerprint() == before, bodies
    assert table.state()["seq"] == state["seq"], bodies
    table.hostile += len(bodies)


def play_hand(data: st.DataObject, table: Table, truth: Truth) -> None:
    """One hand told to the table with hostile commands between its inputs, counted at its
    end (with more between the counts), scored as the game scored it."""
    hostile_burst(data, table, truth)
    while truth.in_play:
        truth.step()
        hostile_burst(data, table, truth)
    for seat in data.draw(st.permutations([0, 1])):
        truth.count(seat)
        hostile_burst(data, table, truth)
    state = table.until(lambda s: s["phase"] in ("hand_over", "over"), "scored")
    assert [h["scores"] for h in state["history"]] == [list(h.scores) for h in truth.full.history]


@pytest.mark.slow
@settings(
    max_examples=14,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.integers(0, 2**32 - 1), st.data())
def test_impossible_commands_are_refused_and_change_nothing(
    table: Table, seed: int, data: st.DataObject
) -> None:
    truth = Truth(table, seed)
    play_hand(data, table, truth)
    truth.next_hand()
    play_hand(data, table, truth)
    hostile_burst(data, table, truth)


def six_six_leads(seed: int) -> bool:
    """Whether the first hand of `Truth(table, seed)` is led with 6-6 (the highest double)."""
    game = Game(rulesets.load("walnut"), 2, mode=Mode.FULL, seed=seed, target=1000)
    game.start()
    return Tile(6, 6) in {t for hand in game.hands or [] for t in hand}


def test_the_chaos_harness_findings_are_refused(table: Table) -> None:
    """The counts the chaos harness got `ok: true` for in the middle of a hand: a tile not
    in a double-six set, and 6-6 five and a hundred times while it lay on the table."""
    truth = Truth(table, next(s for s in range(100) if six_six_leads(s)))
    while len(truth.full.layout.nodes) < 3:
        truth.step()
    assert "6-6" in [t["tile"] for t in table.state()["layout"]["tiles"]]
    before, seq = table.fingerprint(), table.state()["seq"]
    findings = [
        {"action": "count", "seat": 0, "tiles": ["9-9"]},
        {"action": "count", "seat": 1, "tiles": ["6-6"] * 5},
        {"action": "count", "seat": 1, "tiles": ["6-6"] * 100},
    ]
    replies = table.ask_all(findings)
    assert [r["ok"] for r in replies] == [False, False, False]
    assert "9-9 is not in this set" in replies[0]["error"]
    assert "6-6 is already on the table" in replies[1]["error"]
    assert replies[2]["error"]  # (a hundred tiles: refused as a list too long to be a count)
    assert table.fingerprint() == before and table.state()["seq"] == seq
