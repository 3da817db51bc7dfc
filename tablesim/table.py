"""One scripted table: players play a game on a surface, step by step.

`play_table(game, players, surface)` plays a full-information game to its end and
yields what happens at the table, in order, as typed steps:

- `Lay(seat, seen)`: a tile laid where a player would lay it (`engine.geometry.Placer`);
- `Say(action, seat, tiles)`: what a player says because the table cannot see it
  (TABLE.md): who led, a knock, a draw, going out, a blocked hand, the tiles left, a
  confirmed count, a redeal;
- `Reveal(seat, tiles)`: a seat's tiles left at the end of a hand, laid face up in
  its zone for the table to count;
- `Clear(ending)`: the players clear the table; the hand is over (`ending` says how)
  and the next one, if any, has been dealt.

What the players say is judged by a table-mode game of their own fed exactly what a
table is fed, so they say `out` (or `end_hand`) only when the table cannot tell the
hand is over, and say nothing it would refuse. When the layout has no room left for a
tile (`GeometryError`) the players have the hand dealt again (`Say(REDEAL)`, then
`Clear(REDEAL)`): the hand's plays so far stand, not its score.

Every step carries the full game's own events (`events`). The steps are all a
consumer needs: `tablesim.scenes` renders them for the camera, `demo.players` lays
them on the board emulator and says them over MQTT. This module imports only `engine`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.events import Coords, Event, HandResult, Judgement
from engine.game import Game, Mode, Move, Phase
from engine.geometry import GeometryError, Placer, TileSize
from engine.players import Player
from engine.surface import SeenTile
from engine.tiles import Tile
from tablesim.errors import SimulationError
from tablesim.zones import Rect, lay_in_zones

__all__ = [
    "Action",
    "Clear",
    "Ending",
    "Lay",
    "PlaySurface",
    "Reveal",
    "Say",
    "Step",
    "play_table",
]


class Action(StrEnum):
    """What a player says, as the MQTT command's `action`."""

    LEAD = "lead"
    DRAW = "draw"
    PASS = "pass"
    OUT = "out"
    END_HAND = "end_hand"
    COUNT = "count"
    CONFIRM = "confirm"
    REDEAL = "redeal"


class Ending(StrEnum):
    """How a hand ended, as the table was cleared."""

    REDEAL = "redeal"  # no room left on the surface: the hand is dealt again
    WON = "won"  # a play reached the target: nothing to count
    ZONES = "zones"  # the tiles left were laid in the seat zones and counted there
    TOLD = "told"  # the players told their tiles left


@dataclass(frozen=True, slots=True)
class Lay:
    """`seat` laid a tile in the layout at `seen` (table mm)."""

    seat: int
    seen: SeenTile
    events: tuple[Event, ...] = ()


@dataclass(frozen=True, slots=True)
class Say:
    """A player says something the table cannot see."""

    action: Action
    seat: int | None = None
    tiles: tuple[Tile, ...] | None = None
    events: tuple[Event, ...] = ()

    def body(self) -> dict[str, Any]:
        """The MQTT command it is (`spec/mqtt.md`), without its `id`."""
        body: dict[str, Any] = {"action": self.action.value}
        if self.seat is not None:
            body["seat"] = self.seat
        if self.tiles is not None:
            body["tiles"] = [t.text for t in self.tiles]
        return body


@dataclass(frozen=True, slots=True)
class Reveal:
    """`seat` laid its tiles left face up in its zone, at `tiles` (table mm)."""

    seat: int
    tiles: tuple[SeenTile, ...]
    events: tuple[Event, ...] = ()


@dataclass(frozen=True, slots=True)
class Clear:
    """The players cleared the table: the hand ended (`ending`); the next is dealt."""

    ending: Ending
    events: tuple[Event, ...] = ()


Step = Lay | Say | Reveal | Clear


@dataclass(frozen=True, slots=True)
class PlaySurface:
    """Where the players lay tiles: the surface's size (mm), the seat zones (seat ->
    (x0, y0, x1, y1) mm, the table's `[zones]`; none: the players tell their counts) and
    the set's tile (length, width) in whole mm (the table's `tile_mm`)."""

    size_mm: tuple[int, int] = (900, 600)
    zones: tuple[tuple[int, Rect], ...] = ()
    tile_mm: tuple[int, int] = (48, 24)


def play_table(
    game: Game, players: Sequence[Player], surface: PlaySurface | None = None
) -> Iterator[Step]:
    """Play `game` (full information; started here if it was not) to its end, one step
    at a time; `players[seat]` chooses each of that seat's plays. Stop iterating to
    stop playing."""
    if game.mode is not Mode.FULL:
        raise SimulationError("the simulated players play a full-information game")
    game.start()
    groups = game.teams.groups
    table = Game(game.rules, game.seats, mode=Mode.TABLE, teams=groups, target=game.target)
    table.start()
    hands = _Hands(game, table, players, surface or PlaySurface())
    while game.phase is not Phase.OVER:
        yield from hands.play()


class _Hands:
    """The players at work, hand after hand: the full game and what the table knows."""

    def __init__(
        self, game: Game, table: Game, players: Sequence[Player], surface: PlaySurface
    ) -> None:
        self.game = game
        self.table = table
        self.players = players
        self.surface = surface

    def play(self) -> Iterator[Step]:
        """One hand: its plays, then its end (or a redeal), then the table cleared."""
        game = self.game
        placer = Placer(*self.surface.size_mm, TileSize(*self.surface.tile_mm))
        coords: list[SeenTile] = []
        while game.phase in (Phase.LEAD, Phase.PLAY):
            seat = game.turn
            assert seat is not None
            moves = game.legal_moves()
            if not moves:
                yield self._draw_or_pass(seat)
                continue
            move = self.players[seat].choose(game, moves)
            try:
                where = placer.place(game.layout, coords, move.tile, move.end)
            except GeometryError:  # no room left: the hand is dealt again
                yield from self._redeal()
                return
            coords.append(where)
            yield from self._lay(seat, move, where, lead=len(coords) == 1)
        if len(game.history) < game.hand_no:  # the game was won by a play
            yield Clear(Ending.WON)
            return
        yield from self._end_hand(coords)

    def _draw_or_pass(self, seat: int) -> Say:
        game, table = self.game, self.table
        if game.can_draw():
            events = game.draw().events
            return self._said(Say(Action.DRAW, seat, events=events), table.draw(seat))
        events = game.pass_turn().events
        return self._said(Say(Action.PASS, seat, events=events), table.pass_turn(seat))

    def _lay(self, seat: int, move: Move, where: SeenTile, *, lead: bool) -> Iterator[Step]:
        yield Lay(seat, where, tuple(self.game.push(move)))
        high = where.high_first()
        at = Coords(round(high.xa), round(high.ya), round(high.xb), round(high.yb))
        judged = self.table.play(move.tile, move.end, coords=at)
        if not judged.ok:
            raise SimulationError(f"the simulated table refuses {move.tile}: {judged.reason.value}")
        if lead:
            yield self._said(Say(Action.LEAD, seat), self.table.name_leader(seat))

    def _redeal(self) -> Iterator[Step]:
        events = self.game.redeal().events
        yield self._said(Say(Action.REDEAL), self.table.redeal())
        yield Clear(Ending.REDEAL, events)

    def _end_hand(self, coords: Sequence[SeenTile]) -> Iterator[Step]:
        """Go out or block where the table cannot tell, count, clear the table."""
        game, table = self.game, self.table
        if table.phase is Phase.PLAY:
            if game.history[-1].result is HandResult.DOMINO and game.out_seat is not None:
                seat = game.out_seat
                yield self._said(Say(Action.OUT, seat), table.declare_out(seat))
            else:
                yield self._said(Say(Action.END_HAND), table.end_hand())
        assert game.hands is not None
        hands = [tuple(h) for h in game.hands]
        surface = self.surface
        laid = lay_in_zones(hands, coords, surface.zones, surface.size_mm, surface.tile_mm)
        if laid is not None:
            for seat, tiles in enumerate(laid):
                if tiles:
                    yield Reveal(seat, tiles)
            yield self._said(Say(Action.CONFIRM), table.count_tiles(hands))
            ending = Ending.ZONES
        else:
            counted = table.count([sum(t.pips for t in h) for h in hands])
            for seat, hand in enumerate(hands):
                if hand or seat != game.out_seat:  # the table scores once every seat has said
                    yield self._said(Say(Action.COUNT, seat, hand), counted)
            ending = Ending.TOLD
        self._check_scores()
        events: tuple[Event, ...] = ()
        if game.phase is Phase.HAND_OVER:
            events = game.next_hand().events
            table.next_hand()
        yield Clear(ending, events)

    def _check_scores(self) -> None:
        mine, its = self.game.history[-1], self.table.history[-1]
        if (mine.winner, mine.points, mine.scores) != (its.winner, its.points, its.scores):
            raise SimulationError(
                f"the simulated table scores hand {mine.hand} otherwise: {its} for {mine}"
            )

    @staticmethod
    def _said(say: Say, judged: Judgement) -> Say:
        """`say`, which the table judged `judged`: it must take it."""
        if not judged.ok:
            raise SimulationError(
                f"the simulated table refuses {say.body()}: {judged.reason.value} "
                "(a fault of the simulation)"
            )
        return say
