"""`play_table`: the one simulated table. Its steps, fed to a table-mode game as the
board demo and the simulated camera feed the table service, referee the very game the
players played; what they say is the MQTT command a phone would send."""

from __future__ import annotations

import random

import pytest

from engine import Game, Mode, Phase, rulesets
from engine.events import Coords
from engine.geometry import locate
from engine.layout import JoinProblem
from engine.players import RandomPlayer
from engine.surface import SeenTile
from engine.tiles import Tile
from tablesim.errors import SimulationError
from tablesim.table import (
    Action,
    Clear,
    Ending,
    Lay,
    PlaySurface,
    Reveal,
    Say,
    Step,
    play_table,
)
from tablesim.zones import Rect

ZONES_2: tuple[tuple[int, Rect], ...] = ((0, (90, 510, 810, 600)), (1, (90, 0, 810, 90)))


def players(seats: int, seed: int) -> list[RandomPlayer]:
    player = RandomPlayer(random.Random(seed))
    return [player] * seats


def full_game(rules: str, seats: int, seed: int, target: int | None = None) -> Game:
    return Game(rulesets.load(rules), seats, mode=Mode.FULL, seed=seed, target=target)


def referee(game: Game, steps: list[Step]) -> Game:
    """A table-mode game told one hand as a table would see and hear it: each tile
    joined where it lies (by geometry, as the table service does), each word as its
    command; every one must be accepted."""
    table = Game(game.rules, game.seats, mode=Mode.TABLE, target=game.target)
    table.start()
    laid: list[SeenTile] = []
    for step in steps:
        match step:
            case Lay(seen=seen):
                end = locate(table.layout, laid, seen) if laid else None
                assert not isinstance(end, JoinProblem), (step, end)
                high = seen.high_first()
                at = Coords(round(high.xa), round(high.ya), round(high.xb), round(high.yb))
                judged = table.play(seen.tile, end, coords=at)
                laid.append(seen)
            case Say(action=Action.LEAD, seat=seat) if seat is not None:
                judged = table.name_leader(seat)
            case Say(action=Action.DRAW, seat=seat):
                judged = table.draw(seat)
            case Say(action=Action.PASS, seat=seat):
                judged = table.pass_turn(seat)
            case Say(action=Action.OUT, seat=seat) if seat is not None:
                judged = table.declare_out(seat)
            case Say(action=Action.END_HAND):
                judged = table.end_hand()
            case _:
                raise AssertionError(f"not a step of a hand's play: {step}")
        assert judged.ok, (step, judged)
    return table


def test_a_hand_is_laid_and_said_step_by_step() -> None:
    """Straight-block seed 4 (as `sim_game` shows it): the 5-5 led by seat 1, then three
    plays, two knocks that block the hand, each seat's tiles told, the table cleared."""
    game = full_game("straight-block", 2, 4)
    steps = []
    for step in play_table(game, players(2, 4)):
        steps.append(step)
        if isinstance(step, Clear):
            break
    kinds = [(type(s).__name__, getattr(s, "action", None)) for s in steps]
    assert kinds == [
        ("Lay", None), ("Say", Action.LEAD), ("Lay", None), ("Lay", None), ("Lay", None),
        ("Say", Action.PASS), ("Say", Action.PASS),
        ("Say", Action.COUNT), ("Say", Action.COUNT), ("Clear", None),
    ]  # fmt: skip
    lays = [s for s in steps if isinstance(s, Lay)]
    assert [str(s.seen.tile) for s in lays] == ["5-5", "5-4", "4-4", "6-4"]
    assert [s.seat for s in lays] == [1, 0, 1, 0]
    assert [e.kind for e in lays[0].events] == ["play"]
    says = [s for s in steps if isinstance(s, Say)]
    assert says[0].body() == {"action": "lead", "seat": 1}
    assert says[1].body() == {"action": "pass", "seat": 1}
    count = says[3].body()
    assert count["action"] == "count" and count["seat"] == 0
    assert sum(Tile.parse(t).pips for t in count["tiles"]) == game.history[0].pips[0]
    assert steps[-1] == Clear(Ending.TOLD, steps[-1].events)
    assert game.hand_no == 2 and game.phase is Phase.LEAD  # the next hand is dealt


@pytest.mark.parametrize(("rules", "seats", "seed"), [("straight", 2, 15), ("walnut", 4, 4)])
def test_a_table_told_the_steps_referees_the_players_game(
    rules: str, seats: int, seed: int
) -> None:
    """Draws and going out told (straight, walnut): a table-mode game fed the steps of a
    hand accepts every one and ends the hand where the players' game did."""
    game = full_game(rules, seats, seed)
    steps: list[Step] = []
    for step in play_table(game, players(seats, seed)):
        if isinstance(step, Say) and step.action is Action.COUNT:
            break
        steps.append(step)
    table = referee(game, steps)
    assert table.phase is Phase.COUNTING and game.history
    assert table.result is game.history[0].result
    assert [p.tile for p in table.layout.nodes] == [p.tile for p in game.layout.nodes]
    said = {s.action for s in steps if isinstance(s, Say)}
    assert Action.LEAD in said and said & {Action.DRAW, Action.OUT}


def test_tiles_left_are_laid_in_the_zones_and_confirmed() -> None:
    game = full_game("straight-block", 2, 2, target=25)
    surface = PlaySurface((900, 600), ZONES_2)
    steps = list(play_table(game, players(2, 2), surface))
    reveals = [s for s in steps if isinstance(s, Reveal)]
    assert reveals and not any(isinstance(s, Say) and s.action is Action.COUNT for s in steps)
    zones = dict(ZONES_2)
    for reveal in reveals:
        x0, y0, x1, y1 = zones[reveal.seat]
        assert all(x0 <= t.centre[0] <= x1 and y0 <= t.centre[1] <= y1 for t in reveal.tiles)
    confirms = [
        i for i, s in enumerate(steps) if isinstance(s, Say) and s.body() == {"action": "confirm"}
    ]
    assert len(confirms) == sum(isinstance(s, Clear) for s in steps)
    assert all(isinstance(steps[i + 1], Clear) for i in confirms)
    assert game.phase is Phase.OVER and steps[-1] == Clear(Ending.ZONES, ())


def test_a_full_surface_has_the_hand_dealt_again() -> None:
    """Revisited, four seats, seed 2: no room for the next tile; the players say
    `redeal`, clear the table and play the same hand number dealt again."""
    game = full_game("revisited", 4, 2)
    steps = []
    for step in play_table(game, players(4, 2)):
        steps.append(step)
        if isinstance(step, Clear):
            break
    assert steps[-2] == Say(Action.REDEAL)
    cleared = steps[-1]
    assert isinstance(cleared, Clear) and cleared.ending is Ending.REDEAL
    assert [(e.kind, e.payload()["result"]) for e in cleared.events] == [("hand", "redealt")]
    assert Say(Action.REDEAL).body() == {"action": "redeal"}
    assert game.hand_no == 1 and game.phase is Phase.LEAD and not game.layout.nodes


def test_only_a_full_information_game_is_played() -> None:
    table_mode = Game(rulesets.load("straight-block"), 2, mode=Mode.TABLE)
    with pytest.raises(SimulationError, match="full-information"):
        next(play_table(table_mode, players(2, 0)))
