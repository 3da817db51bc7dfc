"""Simulated players at a table a tournament desk seats, for `domino-table demo --tournament`.

Like `demo.players.SimulatedPlayers` (whose steps they take: tiles laid on the board
emulator, what the table cannot see said over MQTT), but they start no game of their
own: they wait for the `new_game` the desk sends the table, play that game as it was
seated (the ruleset, seats, partnerships and target of the table's `state`), stop when
the table ends it (the round's clock may end it before the target), clear the board,
and confirm the result seat by seat, as each player would on the display. `games_done`
counts the games played to that point; `results` keeps each game's id.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from demo.players import SimulatedPlayers, State
from engine import rulesets
from engine.game import Game, Mode
from engine.players import GreedyPlayer, Player, RandomPlayer
from tablesim.table import play_table

log = logging.getLogger(__name__)

CONFIRM_TIMEOUT_S = 20.0


class SeatedPlayers(SimulatedPlayers):
    """Play every game the desk seats at this table until stopped."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.results: list[str] = []  # the game ids played, cleared and confirmed
        self.done = threading.Condition()

    @property
    def games_done(self) -> int:
        return len(self.results)

    def run(self, stop: threading.Event, games: int | None = None) -> None:
        """Play each seated game in turn until `stop` is set (or `games` were played)."""
        while not stop.is_set() and (games is None or self.games_done < games):
            if self._wait(self._seated, stop, timeout=1.0):
                self._play_seated(dict(self._state), stop)

    def _seated(self, state: State) -> bool:
        """A game the desk seated, not played here yet, waiting for its first lead."""
        return (
            state.get("round") is not None
            and state.get("game_id") not in self.results
            and state.get("hand") == 1
            and state.get("phase") == "lead"
        )

    def _play_seated(self, state: State, stop: threading.Event) -> None:
        game_id = str(state["game_id"])
        game = self._game_as_seated(state)
        log.info("demo: %s round %s seated: %s", self.prefix, state.get("round"), game.names)
        for step in play_table(game, self.players, self.surface):
            if stop.is_set() or self._over(game_id, self._state):
                break
            self._take(step, game, stop)
        self._wait(lambda s: self._over(game_id, s), stop)
        self._lift_all()
        seats = range(game.seats)
        for seat in seats:
            self._say("confirm", seat=seat)  # each player taps their name on the display
        self._wait(
            lambda s: s.get("game_id") != game_id or len(s.get("confirmed_by", [])) == game.seats,
            stop,
            CONFIRM_TIMEOUT_S,
        )
        with self.done:
            self.results.append(game_id)
            self.done.notify_all()

    def _game_as_seated(self, state: State) -> Game:
        """The full-information game the players play: the table's, as the desk seated it."""
        seats = len(state["seats"])
        groups = [team["seats"] for team in state.get("teams", [])] or None
        self.players: list[Player] = [
            GreedyPlayer(self.rng) if s % 2 == 0 else RandomPlayer(self.rng) for s in range(seats)
        ]
        rules = rulesets.load(str(state["rules"]))
        names = [str(s["name"]) for s in state["seats"]]
        return Game(rules, seats, mode=Mode.FULL, names=names, teams=groups,
                    target=state.get("target"), seed=self.rng.randrange(2**32))  # fmt: skip

    @staticmethod
    def _over(game_id: str, state: State) -> bool:
        return state.get("game_id") == game_id and state.get("phase") == "over"

    def _lift_all(self) -> None:
        for seen in self._on_board:
            self.board.lift(seen.tile)
        self._on_board.clear()
        self._laid = 0
