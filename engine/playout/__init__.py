"""Whole-hand play-outs: the engine's fastest full-referee path, for Monte-Carlo work.

`play_out(game, rng)` plays the current hand of a full-information game to its end with
uniformly random legal plays and leaves the game exactly as `engine.players.play_hand`
with a `RandomPlayer(rng)` in every seat would: the same hand (it draws the same numbers
from `rng`, one per turn that has a legal play, and lists the moves in `legal_moves()`'s
order), the same layout, hands, boneyard, scores, history, journal and phase.

What it does not make is events: it returns the tiles laid, and the hand's events are
the ones its journal (`game.hand_inputs()`) makes when replayed through a game dealt the
same way (`replay_events`). The journal and the hand's turn record are made only when
read (`Game.pending` says whether they still are).

The steps, a module each:

- `plan`: which `Rules` fields and values the play-out plays itself (`RULES_PLAYED`,
  every field of `Rules`) and the flags it reads on every turn; a hand under any other
  value goes to the per-turn path, `play_hand` with `RandomPlayer`s, the same numbers;
- `access`: everything it reads and writes of a `Game` (`PlayedOut`, public names
  only): the hand taken from the game as a snapshot, and given back (`Game.restore`)
  with its end scored by the game's own code;
- `hand`: the hand being played, its tiles as bit fields over slots, the inputs taken;
- `line` and `web`: the turns, on a line of two ends (no spinner, no scoring in play)
  or on any other layout (open ends as integers);
- `record`: the inputs made into the journal and turn record when first read;
- `replay`: the events of a hand, from its journal.
"""

from __future__ import annotations

import random

from engine.game import Game, Mode, Phase
from engine.players import RandomPlayer, play_hand
from engine.playout.access import begin, finish
from engine.playout.line import play_line
from engine.playout.plan import RULES_PLAYED, Plan, plan_for, unplayed
from engine.playout.replay import replay_events
from engine.playout.web import play_web

_LEAD, _PLAY, _FULL = Phase.LEAD, Phase.PLAY, Mode.FULL


def play_out(game: Game, rng: random.Random) -> int:
    """Play the current hand to its end with uniformly random legal plays; the number
    of tiles in the layout at the end.

    The same hand, state and use of `rng` as `play_hand(game, [RandomPlayer(rng)] * n)`,
    without the events (see the module doc). Full information only.
    """
    if game.mode is not _FULL or game.hands is None:
        raise ValueError("a play-out needs a game in full information (Mode.FULL)")
    phase = game.phase
    if phase is not _LEAD and phase is not _PLAY:
        return len(game.layout.nodes)
    plan = plan_for(game.rules)
    if plan.unplayed is not None or game.turn is None:
        play_hand(game, [RandomPlayer(rng)] * game.seats)  # (rules left to the per-turn path)
        return len(game.layout.nodes)
    snap, hand = begin(game)
    layout = hand.layout
    if plan.line and (layout is None or len(layout.ends) == 2 or not layout.nodes):
        return finish(game, snap, hand, plan, play_line(hand, plan, rng.random), line=True)
    # (a line's layout always has two ends; if not, the general code copes)
    return finish(game, snap, hand, plan, play_web(game, hand, plan, rng.random), line=False)


__all__ = ["RULES_PLAYED", "Plan", "plan_for", "play_out", "replay_events", "unplayed"]
