"""Simple computer players for simulation and the demo (full-information mode)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from engine.events import Event, Judgement, Reason
from engine.game import Game, Move, Phase
from engine.scoring import play_points


class Player(Protocol):
    name: str

    def choose(self, game: Game, moves: Sequence[Move]) -> Move: ...


class RandomPlayer:
    """Any legal play, at random."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, game: Game, moves: Sequence[Move]) -> Move:
        return moves[int(self.rng.random() * len(moves))]


class GreedyPlayer:
    """The play that scores most now; then the heaviest tile (to shed pips)."""

    name = "greedy"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, game: Game, moves: Sequence[Move]) -> Move:
        scoring = game.rules.play_scoring

        def value(move: Move) -> tuple[int, int, float]:
            layout = game.layout.copy()
            layout.place(move.tile, move.end)
            return (play_points(scoring, layout.ends_total()), move.tile.pips, self.rng.random())

        return max(moves, key=value)


PLAYERS: dict[str, Callable[[random.Random], Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
}


def play_turn(game: Game, player: Player) -> Judgement:
    """The turn seat plays, draws or passes, as the rules and its hand allow."""
    moves = game.legal_moves()
    if moves:
        return Judgement(Reason.OK, tuple(game.push(player.choose(game, moves))))
    if game.can_draw():
        return game.draw()
    return game.pass_turn()


def play_hand(game: Game, players: Sequence[Player]) -> list[Event]:
    """Play the current hand to its end; the events it made."""
    events: list[Event] = []
    extend = events.extend
    # Bound once: this loop runs every turn of every simulated hand. `push`, `push_draw`
    # and `push_pass` are the game's trusted inputs (the move comes from legal_moves();
    # a draw or pass only when there is none), so nothing is judged twice.
    legal_moves, push = game.legal_moves, game.push
    while True:
        phase = game.phase
        if phase is not _PLAY and phase is not _LEAD:
            return events
        moves = legal_moves()
        if moves:
            seat = game.turn
            assert seat is not None
            extend(push(players[seat].choose(game, moves)))
        elif game.may_draw():
            extend(game.push_draw())
        else:
            extend(game.push_pass())


_LEAD, _PLAY = Phase.LEAD, Phase.PLAY


def play_game(game: Game, players: Sequence[Player], max_hands: int = 500) -> list[Event]:
    """Play a whole game to its end (or `max_hands`)."""
    events = list(game.start())
    for _ in range(max_hands):
        events.extend(play_hand(game, players))
        if game.phase is Phase.OVER:
            break
        events.extend(game.next_hand().events)
    return events
