"""Simulated players at a real (emulated) table, for `domino-table demo`.

The players play a full-information game among themselves at the simulated table
(`tablesim.table.play_table`, the same loop the simulated camera renders). Each tile
they lay goes on the board emulator where a player would lay it; what the table cannot
see they say over MQTT, as a phone at the table would: who led, passes, draws, going
out, and their tiles at the end of a hand. Then they clear the table and the next hand
starts. The table service referees all of it exactly as a real table; the players wait
for it (its published `state`) before going on.
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from engine import rulesets
from engine.game import Game, Mode, Phase
from engine.players import GreedyPlayer, Player, RandomPlayer
from engine.surface import SeenTile
from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.messages import TileAt
from mqttweb.client import new_client
from tablesim.table import Action, Clear, Ending, Lay, PlaySurface, Reveal, Say, Step, play_table

log = logging.getLogger(__name__)

SYNC_TIMEOUT_S = 8.0
State = dict[str, Any]


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
        self.surface = PlaySurface(surface)
        self.rng = random.Random(seed)
        self.pace = pace
        self.target = target  # None: the rules' own
        self.players: list[Player] = [
            GreedyPlayer(self.rng) if s % 2 == 0 else RandomPlayer(self.rng) for s in range(seats)
        ]
        self._state: State = {}
        self._changed = threading.Condition()
        self._on_board: list[SeenTile] = []
        self._laid = 0  # tiles laid in this hand's layout
        self.client = new_client(f"demo-{uuid.uuid4().hex[:8]}")
        self.client.on_connect = lambda c, *a: c.subscribe(f"{self.prefix}/state", qos=1)
        self.client.on_message = self._on_state
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

    def _wait(
        self, test: Callable[[State], bool], stop: threading.Event, timeout: float = SYNC_TIMEOUT_S
    ) -> bool:
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
        for step in play_table(game, self.players, self.surface):
            if stop.is_set():
                return
            self._take(step, game, stop)
        time.sleep(self.pace * 4)  # the game is over: its result on the display a moment

    def _take(self, step: Step, game: Game, stop: threading.Event) -> None:
        """Do one step at the table: lay on the board, say over MQTT, or clear the board."""
        match step:
            case Lay(seen=seen):
                time.sleep(self.pace)
                self._place(seen)
                self._laid += 1
                laid = self._laid
                self._wait(lambda s: _layout_size(s) >= laid, stop)
            case Reveal(tiles=tiles):  # tiles laid in a seat's zone (a surface with zones)
                for seen in tiles:
                    self._place(seen)
            case Say():
                self._tell(step, stop)
            case Clear(ending=ending):
                self._clear(ending, game, stop)

    def _tell(self, say: Say, stop: threading.Event) -> None:
        """Say what the table cannot see, once it is ready to hear it."""
        if say.action is Action.LEAD and self._state.get("turn") is not None:
            return  # the table knows who led
        if say.action in (Action.DRAW, Action.PASS, Action.OUT, Action.END_HAND):
            time.sleep(self.pace)  # a turn, or the end of the hand: at the players' pace
        elif say.action in (Action.COUNT, Action.CONFIRM):
            self._wait(lambda s: s.get("phase") in ("counting", "hand_over", "over"), stop)
        elif say.action is Action.REDEAL:
            log.info("demo: no room left on the table; the hand is dealt again")
        body = say.body()
        self._say(body.pop("action"), **body)

    def _clear(self, ending: Ending, game: Game, stop: threading.Event) -> None:
        """Take every tile off the board; wait for the table to start the next hand."""
        if ending is not Ending.REDEAL:
            self._wait(lambda s: s.get("phase") in ("hand_over", "over"), stop)
            time.sleep(self.pace * 3)
        for seen in self._on_board:
            self.board.lift(seen.tile)
        self._on_board.clear()
        self._laid = 0
        if game.phase is not Phase.OVER and self._state.get("phase") != "over":
            # The cleared board starts the table's next hand: lay nothing before it has
            # (or the table ended the game itself: a tournament round's clock ran out).
            hand = game.hand_no
            self._wait(
                lambda s: (
                    (s.get("hand") == hand and s.get("phase") == "lead") or s.get("phase") == "over"
                ),
                stop,
            )

    def _place(self, seen: SeenTile) -> None:
        self.board.place(_at(seen))
        self._on_board.append(seen)


def _layout_size(state: State) -> int:
    layout = state.get("layout") or {}
    return len(layout.get("tiles", []))
