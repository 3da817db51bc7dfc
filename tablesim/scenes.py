"""The simulated table as a camera over it sees and hears it: scenes and what is said.

`sim_game` (one hand) and `sim_whole_game` (a game to its end) play a random legal
full-information game at `tablesim.table.play_table` and keep, after each step the
camera can see, the scene: every face-up tile on the surface. What the players say
after a scene is `told` with it, in the MQTT command shape. `tablesim.camera.SimSource`
renders the scenes as frames and gives the commands as a hand reaches in for the next.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import Game, Mode, rulesets
from engine.players import RandomPlayer
from engine.surface import SeenTile
from tablesim.errors import SimulationError
from tablesim.table import Action, Clear, Ending, Lay, PlaySurface, Reveal, Say, Step, play_table
from tablesim.zones import Rect, rect

__all__ = ["SimGame", "SimWholeGame", "chain_games", "sim_game", "sim_whole_game"]


@dataclass(frozen=True, slots=True)
class SimGame:
    """A random legal game laid out on the table, play by play.

    `scenes[i]` is every face-up tile after the `i`-th play; `told[i]` are the
    commands the players give after it (who led, passes, draws), in the MQTT command
    shape; `plays` the full game's play events as payload dicts; `size_mm` the surface
    and `tile_mm` the set's tile (length, width) they were laid out for, which the
    camera's frames show.
    """

    rules: str
    seats: int
    seed: int
    scenes: tuple[tuple[SeenTile, ...], ...]
    told: tuple[tuple[dict[str, Any], ...], ...]
    plays: tuple[dict[str, Any], ...] = field(default=())
    size_mm: tuple[float, float] = (900.0, 600.0)
    tile_mm: tuple[float, float] = (48.0, 24.0)


@dataclass(frozen=True, slots=True)
class SimWholeGame(SimGame):
    """A random legal game played to its end, hand after hand, laid out on the table.

    As `SimGame`, with every hand's scenes in turn: the plays, then (when the table has
    seat zones and the tiles fit) each seat laying its tiles left face up in its zone,
    then the cleared table. `told` holds everything the players say besides: who led,
    knocks, draws, going out or a blocked hand when the table cannot tell, the counts
    (`count` per seat without zones, `confirm` of the zones' counts), `redeal` when the
    surface is full. `hands` are the engine's own `hand` event payloads, `over` its
    `game` over payload (None: not over within `max_hands`), `endings[i]` how the `i`-th
    hand dealt ended: its tiles counted in the `zones` or `told`, `redeal` (no room left
    on the surface), `won` (a play reached the target: nothing to count).
    """

    target: int | None = None
    zones: tuple[tuple[int, Rect], ...] = ()
    hands: tuple[dict[str, Any], ...] = ()
    over: dict[str, Any] | None = None
    endings: tuple[str, ...] = ()


class _Scenes:
    """What the camera sees after each step (a scene) and hears after it (told)."""

    def __init__(self) -> None:
        self.on_table: list[SeenTile] = []
        self.scenes: list[tuple[SeenTile, ...]] = []
        self.told: list[list[dict[str, Any]]] = []
        self.events: list[dict[str, Any]] = []  # the full game's, with their `kind`
        self.endings: list[str] = []

    def take(self, step: Step) -> None:
        match step:
            case Lay(seen=seen):
                self.on_table.append(seen)
                self._show()
            case Reveal(tiles=tiles):
                self.on_table.extend(tiles)
                self._show()
            case Say():
                self.told[-1].append(step.body())
            case Clear(ending=ending):
                self.on_table.clear()
                self._show()
                self.endings.append(ending.value)
        self.events.extend({"kind": e.kind, **e.payload()} for e in step.events)

    def _show(self) -> None:
        self.scenes.append(tuple(self.on_table))
        self.told.append([])

    def of(self, kind: str) -> tuple[dict[str, Any], ...]:
        """The full game's events of one kind, as payloads."""
        return tuple(_without_kind(e) for e in self.events if e["kind"] == kind)


def sim_game(
    rules: str = "straight-block",
    seats: int = 2,
    seed: int = 0,
    *,
    plays: int | None = None,
    size_mm: tuple[float, float] = (900.0, 600.0),
    tile_mm: tuple[float, float] = (48.0, 24.0),
) -> SimGame:
    """Play a random legal full-information hand (up to `plays` plays) and lay it out
    for tiles of `tile_mm` (length, width; whole mm).

    The game shown ends with the hand's last play (or knock), or where the surface has
    no room left for the next tile."""
    game = Game(rulesets.load(rules), seats, mode=Mode.FULL, seed=seed)
    player = RandomPlayer(random.Random(seed))
    surface = PlaySurface(_whole(size_mm), tile_mm=_whole(tile_mm))
    seen = _Scenes()
    for step in _one_hand(play_table(game, [player] * seats, surface), plays):
        seen.take(step)
    return SimGame(
        rules,
        seats,
        seed,
        tuple(seen.scenes),
        _frozen(seen.told),
        seen.of("play"),
        size_mm=_sizes(surface.size_mm),
        tile_mm=_sizes(surface.tile_mm),
    )


def _whole(size: tuple[float, float]) -> tuple[int, int]:
    return (round(size[0]), round(size[1]))


def _sizes(size: tuple[int, int]) -> tuple[float, float]:
    return (float(size[0]), float(size[1]))


def _one_hand(steps: Iterable[Step], plays: int | None) -> Iterable[Step]:
    """The steps of the first hand's play (up to `plays` plays): tiles laid, and who led,
    knocked or drew."""
    laid = 0
    for step in steps:
        turn = isinstance(step, Lay) or (
            isinstance(step, Say) and step.action in (Action.DRAW, Action.PASS)
        )
        if turn and plays is not None and laid >= plays:
            return
        if not (turn or (isinstance(step, Say) and step.action is Action.LEAD)):
            return  # the hand is over, or the surface is full
        laid += isinstance(step, Lay)
        yield step


def sim_whole_game(
    rules: str = "straight-block",
    seats: int = 2,
    seed: int = 0,
    *,
    target: int | None = None,
    size_mm: tuple[float, float] = (900.0, 600.0),
    zones: Mapping[int, Sequence[float]] | Sequence[tuple[int, Sequence[float]]] = (),
    max_hands: int = 100,
    tile_mm: tuple[float, float] = (48.0, 24.0),
) -> SimWholeGame:
    """Play a random legal full-information game to its end (or `max_hands` hands) and
    lay it out as a table would see it; deterministic in `seed`.

    The players tell the table what it cannot see, as TABLE.md says (`play_table`): who
    led, knocks and draws; `out` (or `end_hand`) when the table cannot tell that the
    hand is over. At the end of a hand each seat lays its tiles face up in its zone
    (`zones`: seat -> (x0, y0, x1, y1) mm, the table's `[zones]`) and a player confirms
    the table's count; without a zone for every seat that holds tiles, or with no room
    in one clear of the layout, they tell their tiles (`count`). Then they clear the
    table, which starts the next hand. When the layout has no room left
    (`engine.geometry.GeometryError`) the players have the hand dealt again (`redeal`,
    as the board demo does) and clear the table: the hand's plays so far stand in
    `plays`, not its score. `tile_mm` is the set's tile (length, width; whole mm).
    """
    ruleset = rulesets.load(rules)
    game = Game(ruleset, seats, mode=Mode.FULL, seed=seed, target=target)
    player = RandomPlayer(random.Random(seed))
    areas = tuple(sorted((int(s), rect(r)) for s, r in dict(zones).items()))
    surface = PlaySurface(_whole(size_mm), areas, _whole(tile_mm))
    seen = _Scenes()
    for step in play_table(game, [player] * seats, surface):
        seen.take(step)
        # `max_hands` endings (redeals counted) end the game shown once a hand is played
        # out: a redeal goes on with the hand
        played_out = isinstance(step, Clear) and step.ending is not Ending.REDEAL
        if played_out and len(seen.endings) >= max_hands:
            break
    over = next((e for e in seen.of("game") if e["event"] == "over"), None)
    return SimWholeGame(
        rules,
        seats,
        seed,
        tuple(seen.scenes),
        _frozen(seen.told),
        seen.of("play"),
        size_mm=_sizes(surface.size_mm),
        tile_mm=_sizes(surface.tile_mm),
        target=game.target,
        zones=areas,
        hands=seen.of("hand"),
        over=over,
        endings=tuple(seen.endings),
    )


def chain_games(games: Sequence[SimWholeGame]) -> SimGame:
    """Whole games one after another at the same table: after each game's table is
    cleared the players start the next with `new_game` (its rules, seats and target)."""
    if not games:
        raise SimulationError("no simulated games to chain")
    scenes: list[tuple[SeenTile, ...]] = []
    told: list[tuple[dict[str, Any], ...]] = []
    for game in games:
        if told:
            body: dict[str, Any] = {"action": "new_game", "rules": game.rules, "seats": game.seats}
            if game.target is not None:
                body["target"] = game.target
            told[-1] = (*told[-1], body)
        scenes.extend(game.scenes)
        told.extend(game.told)
    first = games[0]
    plays = tuple(p for g in games for p in g.plays)
    return SimGame(
        first.rules,
        first.seats,
        first.seed,
        tuple(scenes),
        tuple(told),
        plays,
        size_mm=first.size_mm,
        tile_mm=first.tile_mm,
    )


def _frozen(told: Sequence[Sequence[dict[str, Any]]]) -> tuple[tuple[dict[str, Any], ...], ...]:
    return tuple(tuple(t) for t in told)


def _without_kind(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k != "kind"}
