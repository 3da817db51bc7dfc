"""Test helpers: tables that play real engine games and publish them as spec/mqtt.md says.

An `EmulatedTable` is what the desk sees of a table: its retained `status` (Last Will
`offline`), a `state` after every event, every event on `event/<kind>` with the next
`seq`, and the `game` event that ended each game retained on `result/<game_id>`. The
games are the engine's own (full information, random legal moves), numbered by the
service's own `Numbering`, so every payload is one the table service would publish.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from engine import Game, Mode, Phase, rulesets
from engine.events import Event, GameEvent
from engine.players import RandomPlayer, play_turn
from mqttweb.envelope import encode, stamp
from service.payloads import Numbering
from service.table import SIDES


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
