"""One short walnut game for two on the emulated board, as steps a power cut can fall in.

The game is worked out in full information first (seed 4, target 20: nine tiles, a
draw and the lead named, then a play reaches 20 and ends the game at once), so the test
knows every step and the game's end before the table sees any of it. Each step is a tile
laid on the board (done once the table's state shows it) or a command with a fixed id
(done once its reply is seen): after a cut a step is done again, and a command is sent
again under its id, which the table never applies twice.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import Game, Mode, Phase, Tile, rulesets
from engine.geometry import Placer
from engine.players import RandomPlayer
from engine.surface import SeenTile
from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.messages import TileAt
from tests.fixtures.mqtt_recorder import Seen
from tests.power.rig import Watch, latest_state

RULES, SEATS, TARGET, SEED = "walnut", 2, 20, 4
W, H = 900, 600


@dataclass(frozen=True)
class Step:
    """A tile laid (`tile`) or a command (`body`, with its id)."""

    n: int
    tile: TileAt | None = None
    laid: int = 0  # tiles on the layout once this step is done
    body: dict[str, Any] | None = None

    @property
    def name(self) -> str:
        if self.tile is not None:
            return f"lay {Tile(self.tile.a, self.tile.b).text}"
        assert self.body is not None
        return str(self.body["action"])

    def do(self, board: BoardEmulator, watch: Watch) -> None:
        if self.tile is not None:
            if self.tile not in board.surface():
                board.place(self.tile)
        else:
            assert self.body is not None
            watch.send(self.body)

    def done(self, watch: Watch) -> Callable[[list[Seen]], bool]:
        if self.tile is not None:

            def laid(seen: list[Seen]) -> bool:
                state = latest_state(seen)
                return state is not None and len(state["layout"]["tiles"]) >= self.laid

            return laid
        assert self.body is not None
        answered = watch.reply(str(self.body["id"]))

        def replied(seen: list[Seen]) -> bool:
            reply = answered(seen)
            if reply is None:
                return False
            assert reply["ok"], (self.body, reply)
            return True

        return replied


@dataclass(frozen=True)
class Plan:
    steps: tuple[Step, ...]
    layout: tuple[tuple[str, int], ...]  # (tile, seat) in play order
    scores: tuple[int, ...]


def plan() -> Plan:
    """The game's steps and its end, from a full-information game of the same rules."""
    full = Game(rulesets.load(RULES), SEATS, mode=Mode.FULL, seed=SEED, target=TARGET)
    full.start()
    player = RandomPlayer(random.Random(SEED))
    placer = Placer(W, H)
    coords: list[SeenTile] = []
    steps: list[Step] = []
    layout: list[tuple[str, int]] = []

    def add(**kw: Any) -> None:
        steps.append(Step(len(steps) + 1, **kw))

    while full.phase in (Phase.LEAD, Phase.PLAY):
        seat = full.turn
        assert seat is not None
        moves = full.legal_moves()
        if moves:
            move = player.choose(full, moves)
            seen = placer.place(full.layout, coords, move.tile, move.end)
            assert full.play(move.tile, move.end).ok
            coords.append(seen)
            layout.append((move.tile.text, seat))
            at = TileAt(seen.a, seen.b, round(seen.xa), round(seen.ya), round(seen.xb),
                        round(seen.yb))  # fmt: skip
            add(tile=at, laid=len(layout))
            if len(layout) == 1:  # the table cannot know who led: it asks
                add(body={"id": "lead", "action": "lead", "seat": seat})
        elif full.can_draw():
            n = 0
            while not full.legal_moves() and full.can_draw():
                assert full.draw().ok
                n += 1
            add(body={"id": f"draw-{len(steps)}", "action": "draw", "seat": seat, "count": n})
        else:
            assert full.pass_turn().ok
            add(body={"id": f"pass-{len(steps)}", "action": "pass", "seat": seat})
    assert full.phase is Phase.OVER, full.phase
    return Plan(tuple(steps), tuple(layout), tuple(full.scores()))


def ended_as_planned(state: dict[str, Any], game: Plan) -> None:
    """`state` is the planned game's end: every tile by its seat, the scores, over."""
    assert state["phase"] == "over", state["phase"]
    laid = tuple((t["tile"], t["seat"]) for t in state["layout"]["tiles"])
    assert laid == game.layout, (laid, game.layout)
    assert tuple(s["score"] for s in state["seats"]) == game.scores
