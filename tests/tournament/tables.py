"""Test helpers: tables that play real engine games and publish them as spec/mqtt.md says.

An `EmulatedTable` is what the desk sees of a table: its retained `status` (Last Will
`offline`), a `state` after every event, every event on `event/<kind>` with the next
`seq`, and the `game` event that ended each game retained on `result/<game_id>`. The
games are the engine's own (full information, random legal moves), numbered by the
service's own `Numbering`, so every payload is one the table service would publish.
"""

from __future__ import annotations

import json
import queue
import random
import threading
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from engine import Game, Mode, Phase, rulesets
from engine.events import Event, GameEvent, HandEvent, Termination
from engine.players import RandomPlayer, play_turn
from mqttweb.envelope import encode, stamp
from service.core.payloads import Numbering
from service.core.table import SIDES
from tests.fixtures.spec import validate


def engine_events(game: Game, seed: int) -> Iterator[Event]:
    """A whole game, event by event, with random legal moves."""
    players = [RandomPlayer(random.Random(seed * 31 + s)) for s in range(game.seats)]
    yield from game.start()
    for _ in range(500):
        while game.phase is Phase.LEAD or game.phase is Phase.PLAY:
            assert game.turn is not None
            yield from play_turn(game, players[game.turn]).events
        if game.phase is Phase.OVER:
            return
        yield from game.next_hand().events


def state_payload(game: Game, numbering: Numbering, last: dict[str, Any] | None) -> dict[str, Any]:
    summary = game.summary()
    sides = SIDES.get(game.seats, ())
    for seat in summary["seats"]:
        seat["side"] = sides[seat["seat"]] if sides else None
    body = {
        "seq": max(numbering.seq, 1),
        "game_id": numbering.game_id,
        **summary,
        "surface": {"width_mm": 900, "height_mm": 600},
        "alerts": [],
        "last": last,
    }
    return stamp(numbering.table, body)


class EmulatedTable:
    """One table: a paho client publishing its games to a broker (QoS 1, as the service)."""

    def __init__(
        self,
        table: str,
        host: str,
        port: int,
        names: Sequence[str],
        *,
        rules: str = "walnut",
        seed: int = 1,
        games: int = 1,
        pause_s: float = 0.0,
    ) -> None:
        self.table = table
        self.prefix = f"domino/{table}"
        self.names = list(names)
        self.rules = rulesets.load(rules)
        self.seed = seed
        self.games = games
        self.pause_s = pause_s
        self.results: list[tuple[str, dict[str, Any]]] = []  # (game_id, payload) as published
        self.published = 0
        self.done = threading.Event()
        self.error: BaseException | None = None
        self.numbering = Numbering(table, "")
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"domino-table-{table}")
        client.will_set(f"{self.prefix}/status", b"offline", qos=1, retain=True)
        client.max_inflight_messages_set(100)
        client.on_connect = self._on_connect
        self.connected = threading.Event()
        self.client = client
        client.connect(host, port, keepalive=10)
        client.loop_start()
        assert self.connected.wait(10), f"table {table} could not connect"

    def _on_connect(self, client: mqtt.Client, *args: Any) -> None:
        self.connected.set()

    def publish(self, suffix: str, payload: dict[str, Any] | bytes, retain: bool = False) -> None:
        body = payload if isinstance(payload, bytes) else encode(payload)
        info = self.client.publish(f"{self.prefix}/{suffix}", body, qos=1, retain=retain)
        assert info.rc == mqtt.MQTT_ERR_SUCCESS, info.rc
        self.published += 1

    def play(self) -> None:
        """Play `games` games, publishing everything; the results are kept in `results`."""
        self.publish("status", b"online", retain=True)
        for number in range(1, self.games + 1):
            game_id = f"{self.table}-g{number}"
            self.numbering.game_id = game_id
            game = Game(self.rules, len(self.names), mode=Mode.FULL, names=self.names,
                        seed=self.seed * 1000 + number)  # fmt: skip
            for event in engine_events(game, self.seed * 1000 + number):
                payload = self.numbering.payload(event)
                self.publish(f"event/{event.kind}", payload)
                self.publish("state", state_payload(game, self.numbering, payload), retain=True)
                if isinstance(event, GameEvent) and event.event == "over":
                    self.publish(f"result/{game_id}", payload, retain=True)
                    self.results.append((game_id, payload))
                if self.pause_s:
                    time.sleep(self.pause_s)

    def start(self) -> threading.Thread:
        def run() -> None:
            try:
                self.play()
            except BaseException as exc:
                self.error = exc
            finally:
                self.done.set()

        thread = threading.Thread(target=run, name=f"table-{self.table}", daemon=True)
        thread.start()
        return thread

    def close(self, clean: bool = True) -> None:
        if clean:
            self.publish("status", b"offline", retain=True)
        self.client.disconnect()
        self.client.loop_stop()


def result_payload(
    table: str,
    game_id: str,
    names: Sequence[str],
    scores: Sequence[int],
    *,
    team_scores: Sequence[int] = (),
    winner: int | None = None,
    team: int | None = None,
    seq: int = 1,
) -> dict[str, Any]:
    """A spec-valid `game` event that ends a game (for tests that write results by hand)."""
    body = {
        "game_id": game_id,
        "event": "over",
        "winner": winner,
        "team": team,
        "scores": list(scores),
        "team_scores": list(team_scores),
        "names": list(names),
        "rules": "walnut",
        "target": 100,
    }
    return stamp(table, body, seq=seq)


def publish_once(host: str, port: int, topic: str, payload: Any, retain: bool = True) -> None:
    """One message, QoS 1, from a short-lived client (connected before it publishes)."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    connected = threading.Event()
    client.on_connect = lambda *args: connected.set()
    client.connect(host, port)
    client.loop_start()
    try:
        assert connected.wait(10), f"no connection to {host}:{port}"
        body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        client.publish(topic, body, qos=1, retain=retain).wait_for_publish(5)
    finally:
        client.disconnect()  # first: the network thread then ends at once
        client.loop_stop()


class SeatedTable:
    """A table seated by the desk: it speaks spec/mqtt.md's tournament fields.

    It listens on `domino/<table>/cmd` of its own broker (bridged to the central one) and
    answers each command on `cmd/reply`, the same reply again for an id it has handled.
    A `new_game` starts an engine game with the names, teams and target it names; the
    table keeps `tournament`, `round`, `players` and `ends_at` in its `state` and echoes
    them in the `game` events and `result/<game_id>`, which says `reason`: `target`, or
    `time` when `ends_at` had passed at the end of a hand (the leader wins).

    For tests of the desk's patience: `ignore` first new_games get no answer at all,
    `refuse` more get `ok: false`; with `hold` set, a finished game's result waits until
    `release()`.
    """

    def __init__(
        self,
        table: str,
        host: str,
        port: int,
        *,
        seed: int = 1,
        pause_s: float = 0.0,
        ignore: int = 0,
        refuse: int = 0,
        hold: bool = False,
    ) -> None:
        self.table, self.prefix, self.seed, self.pause_s = table, f"domino/{table}", seed, pause_s
        self.ignore, self.refuse = ignore, refuse
        self.hold = threading.Event()
        if not hold:
            self.hold.set()
        self.replies: dict[str, dict[str, Any]] = {}
        self.commands: list[dict[str, Any]] = []  # every command received, in order
        self.results: list[tuple[str, dict[str, Any]]] = []
        self.published_at: dict[str, float] = {}  # game_id -> when its result went out
        self.errors: list[str] = []
        self.games = 0
        self.numbering = Numbering(table, "")
        self._queue: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._queued: set[str] = set()  # command ids taken, answered or not yet
        self._lock = threading.Lock()
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"domino-table-{table}")
        client.will_set(f"{self.prefix}/status", b"offline", qos=1, retain=True)
        client.max_inflight_messages_set(100)
        client.on_connect = self._on_connect
        client.on_message = self._on_message
        self.connected = threading.Event()
        self.client = client
        client.connect(host, port, keepalive=10)
        client.loop_start()
        assert self.connected.wait(10), f"table {table} could not connect"
        self._worker = threading.Thread(target=self._work, name=f"seated-{table}", daemon=True)
        self._worker.start()

    def _on_connect(self, client: mqtt.Client, *args: Any) -> None:
        client.subscribe(f"{self.prefix}/cmd", qos=1)
        client.publish(f"{self.prefix}/status", b"online", qos=1, retain=True)
        self.connected.set()

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        if msg.retain:
            return
        try:
            body = json.loads(msg.payload)
            validate("command", body)
        except (AssertionError, ValueError) as exc:
            self.errors.append(f"bad command {msg.payload[:200]!r}: {exc}")
            return
        with self._lock:
            self.commands.append(body)
            known = self.replies.get(body["id"])
            queued = body["id"] in self._queued
            self._queued.add(body["id"])
        if known is not None:
            self._send("cmd/reply", stamp(self.table, known))
        elif not queued:  # a resend before the worker answered is not applied twice
            self._queue.put(body)

    def _send(self, suffix: str, payload: dict[str, Any], retain: bool = False) -> None:
        self.client.publish(f"{self.prefix}/{suffix}", encode(payload), qos=1, retain=retain)

    def _answer(self, body: dict[str, Any], ok: bool, error: str | None) -> None:
        reply = {"id": body["id"], "ok": ok, "error": error}
        with self._lock:
            self.replies[body["id"]] = reply
        self._send("cmd/reply", stamp(self.table, reply))

    def _work(self) -> None:
        while (body := self._queue.get()) is not None:
            if body["action"] != "new_game":
                self._answer(body, False, "this emulated table only knows new_game")
            elif self.ignore > 0:
                self.ignore -= 1
                with self._lock:
                    self.commands.append({"ignored": body["id"]})
                    self._queued.discard(body["id"])  # as if never heard: a resend is new
            elif self.refuse > 0:
                self.refuse -= 1
                self._answer(body, False, "a game is being scored: try again")
            else:
                self._answer(body, True, None)
                try:
                    self._play(body)
                except Exception as exc:  # the test reads it from `errors`
                    self.errors.append(f"{self.table}: {exc!r}")

    def _play(self, cmd: dict[str, Any]) -> None:
        self.games += 1
        game_id = f"{self.table}-g{self.games}"
        self.numbering.game_id = game_id
        teams = cmd.get("teams")
        groups = None
        if teams:
            groups = [[s for s, t in enumerate(teams) if t == team] for team in sorted(set(teams))]
        rules = rulesets.load(cmd["rules"])
        names = cmd["seats"]
        game = Game(rules, len(names), mode=Mode.FULL, names=names, teams=groups,
                    target=cmd.get("target"), seed=self.seed * 1000 + self.games)  # fmt: skip
        echo = {k: cmd.get(k) for k in ("tournament", "round", "players")}
        ends_at = cmd.get("ends_at")
        for event in _until_time(game, self.seed * 1000 + self.games, ends_at):
            payload = {**self.numbering.payload(event), **echo}  # an end says its `reason`
            self._send(f"event/{event.kind}", payload)
            state = state_payload(game, self.numbering, payload) | echo | {"ends_at": ends_at}
            self._send("state", state, retain=True)
            if isinstance(event, GameEvent) and event.event == "over":
                self.hold.wait()
                self.published_at[game_id] = time.time()
                self._send(f"result/{game_id}", payload, retain=True)
                self.results.append((game_id, payload))
            if self.pause_s:
                time.sleep(self.pause_s)

    def release(self) -> None:
        self.hold.set()

    def close(self, clean: bool = True) -> None:
        self._queue.put(None)
        self.hold.set()
        self._worker.join(10)
        if clean:
            self.client.publish(f"{self.prefix}/status", b"offline", qos=1, retain=True)
        self.client.disconnect()
        self.client.loop_stop()


def _until_time(game: Game, seed: int, ends_at: str | None) -> Iterator[Event]:
    """`engine_events`, but once `ends_at` has passed at the end of a hand, the game is
    over there: won by the seat or team ahead (as the engine's `Game.call_time` would)."""
    deadline = None
    if ends_at:
        deadline = datetime.strptime(ends_at, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    for event in engine_events(game, seed):
        yield event
        ended = isinstance(event, HandEvent) and game.phase is not Phase.OVER
        if ended and deadline is not None and datetime.now(UTC) >= deadline:
            yield _time_over(game)
            return


def _time_over(game: Game) -> GameEvent:
    summary = game.summary()
    scores = tuple(s["score"] for s in summary["seats"])
    team_scores = tuple(t["score"] for t in summary["teams"])
    if team_scores:
        best = max(range(len(team_scores)), key=lambda t: team_scores[t])
        winner, team = None, best
    else:
        winner, team = max(range(len(scores)), key=lambda s: scores[s]), None
    return GameEvent("over", winner, team, scores, team_scores, tuple(game.names),
                     game.rules.name, game.target, Termination.TIME)  # fmt: skip
