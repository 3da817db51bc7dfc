"""Simulated players at a real (emulated) table, for `domino-table demo`.

The players play a full-information game among themselves. Each tile they play is laid
on the board emulator where a player would lay it (`engine.geometry.Placer`); what the
table cannot see they say over MQTT, as a phone at the table would: who led, passes,
draws, going out, and their tiles at the end of a hand. Then they clear the table and
the next hand starts. The table service referees all of it exactly as a real table.
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
import uuid
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from engine import rulesets
from engine.game import Game, Mode, Phase
from engine.geometry import GeometryError, Placer
from engine.players import GreedyPlayer, Player, RandomPlayer
from engine.surface import SeenTile
from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.messages import TileAt

log = logging.getLogger(__name__)

SYNC_TIMEOUT_S = 8.0


def _at(seen: SeenTile) -> TileAt:
    return TileAt(seen.a, seen.b, round(seen.xa), round(seen.ya), round(seen.xb), round(seen.yb))


class SimulatedPlayers:
    """Plays games on the emulated board and tells the table what it cannot see."""

    def __init__(
        self,
        board: BoardEmulator,
        mqtt_host: str,
        mqtt_port: int,
        *,
        table: str,
        rules: str,
        seats: int,
        surface: tuple[int, int] = (900, 600),
        seed: int | None = None,
        pace: float = 1.0,
        target: int | None = None,
    ) -> None:
        self.board = board
        self.prefix = f"domino/{table}"
        self.rules = rulesets.load(rules) if not rules.endswith(".toml") else None
        self.rules_name = rules
        self.seats = seats
        self.surface = surface
        self.rng = random.Random(seed)
        self.pace = pace
        self.target = target  # None: the rules' own
        self.players: list[Player] = [
            GreedyPlayer(self.rng) if s % 2 == 0 else RandomPlayer(self.rng) for s in range(seats)
        ]
        self._state: dict[str, Any] = {}
        self._changed = threading.Condition()
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=f"demo-{uuid.uuid4().hex[:8]}"
        )
        self.client.on_connect = lambda c, *a: c.subscribe(f"{self.prefix}/state", qos=1)
        self.client.on_message = self._on_state
        self.client.reconnect_delay_set(1, 2)
        self.client.connect_async(mqtt_host, mqtt_port)
        self.client.loop_start()

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()

    def __enter__(self) -> SimulatedPlayers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- what the table publishes ---------------------------------------------------------

    def _on_state(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        try:
            state = json.loads(msg.payload)
        except ValueError:
            return
        with self._changed:
            self._state = state
            self._changed.notify_all()

    def _wait(self, test: Any, stop: threading.Event, timeout: float = SYNC_TIMEOUT_S) -> bool:
        deadline = time.monotonic() + timeout
        with self._changed:
            while not test(self._state):
                left = deadline - time.monotonic()
                if left <= 0 or stop.is_set():
                    return False
                self._changed.wait(min(left, 0.2))
        return True

    def _say(self, action: str, **fields: Any) -> None:
        body = {"id": f"demo-{uuid.uuid4().hex[:12]}", "action": action, **fields}
        self.client.publish(f"{self.prefix}/cmd", json.dumps(body), qos=1)

    # --- playing --------------------------------------------------------------------------

    def run(self, stop: threading.Event, games: int | None = None) -> None:
        """Play games until `stop` is set (or `games` have been played)."""
        played = 0
        if not self._wait(lambda s: s.get("phase") in ("lead", "play"), stop, 30):
            log.warning("demo: the table never became ready")
            return
        while not stop.is_set() and (games is None or played < games):
            self._play_game(stop)
            played += 1

    def _play_game(self, stop: threading.Event) -> None:
        rules = self.rules or rulesets.load(self.rules_name)
        game = Game(
            rules, self.seats, mode=Mode.FULL, seed=self.rng.randrange(2**32), target=self.target
        )
        game.start()
        if self._state.get("hand", 0) > 1 or self._state.get("phase") not in ("lead",):
            given = {} if self.target is None else {"target": self.target}
            self._say("new_game", rules=self.rules_name, seats=self.seats, **given)
            self._wait(lambda s: s.get("phase") == "lead" and s.get("hand") == 1, stop)
        while not stop.is_set():
            if not self._play_hand(game, stop):
                return
            if game.phase is Phase.OVER:
                time.sleep(self.pace * 4)
                return
            game.next_hand()
            # The cleared board starts the table's next hand: lay nothing before it has.
            self._wait(
                lambda s, n=game.hand_no: s.get("hand") == n and s.get("phase") == "lead", stop
            )

    def _play_hand(self, game: Game, stop: threading.Event) -> bool:
        placer = Placer(*self.surface)
        coords: list[SeenTile] = []
        while game.phase in (Phase.LEAD, Phase.PLAY) and not stop.is_set():
            time.sleep(self.pace)
            seat = game.turn
            assert seat is not None
            moves = game.legal_moves()
            if moves:
                move = self.players[seat].choose(game, moves)
                try:
                    seen = placer.place(game.layout, coords, move.tile, move.end)
                except GeometryError:
                    log.info("demo: no room left on the table; the hand is dealt again")
                    self._say("redeal")
                    self._clear(coords)
                    return False
                lead = not game.layout.nodes
                game.push(move)
                coords.append(seen)
                self.board.place(_at(seen))
                laid = len(coords)
                self._wait(lambda s, n=laid: len(s.get("layout", {}).get("tiles", [])) >= n, stop)
                if lead and self._state.get("turn") is None:
                    self._say("lead", seat=seat)
            elif game.can_draw():
                game.draw()
                self._say("draw", seat=seat)
            else:
                game.push_pass()
                self._say("pass", seat=seat)
        self._finish_hand(game, stop)
        self._clear(coords)
        return True

    def _finish_hand(self, game: Game, stop: threading.Event) -> None:
        """Say what the table cannot see at the end of a hand: going out, the tiles left."""
        time.sleep(self.pace)
        record = game.history[-1] if game.history else None
        if record is None:
            return  # the game ended mid-hand (a target reached at once)
        if self._state.get("phase") == "play" and record.winner is not None:
            self._say("out", seat=record.winner)
        self._wait(lambda s: s.get("phase") in ("counting", "hand_over", "over"), stop)
        if self._state.get("phase") == "counting":
            assert game.hands is not None
            for seat, hand in enumerate(game.hands):
                if hand or seat != game.out_seat:
                    self._say("count", seat=seat, tiles=[t.text for t in hand])
            self._wait(lambda s: s.get("phase") in ("hand_over", "over"), stop)
        time.sleep(self.pace * 3)

    def _clear(self, coords: list[SeenTile]) -> None:
        for seen in coords:
            self.board.lift(seen.tile)
