"""New tiles judged together are played in the order the camera first saw them.

When no snapshot between two plays was judged (an unsure place stood in each), the
next judged snapshot holds both new tiles. Their order decides which seat played
which: the reconciler plays them in the order they first showed in any snapshot,
judged or not, and tiles first seen together in the order the snapshot lists them.
Before, it always guessed (doubles first, highest first): a 5-3 laid before a 0-0 was
played after it (rendered game 2 of the camera benchmark).
"""

from __future__ import annotations

from engine import Game, PlayEvent, Tile, rulesets
from engine.geometry import TileSize
from engine.surface import SeenTile, Snapshot, Unsure
from service.core.reconciler import Accepted, Outcome, Reconciler

t = Tile.parse

LEAD = SeenTile(6, 6, 450, 288, 450, 312)  # crosswise at the centre
RIGHT_61 = SeenTile(6, 1, 474, 300, 498, 300)  # joins the 6-6's right side
LEFT_65 = SeenTile(6, 5, 426, 300, 402, 300)  # joins its left side


class Clock:
    now = 100.0

    def __call__(self) -> float:
        return self.now


def _table() -> tuple[Game, Reconciler, Clock]:
    game = Game(rulesets.load("straight-block"), 2)
    game.start()
    game.name_leader(0)
    clock = Clock()
    return game, Reconciler(game, TileSize(), 1.5, clock), clock


def _look(rec: Reconciler, clock: Clock, *tiles: SeenTile, unsure: bool = False) -> list[Outcome]:
    clock.now += 1.0
    spots = (Unsure(300.0, 300.0, "pips of a tile that was not read"),) if unsure else ()
    return rec.observe(Snapshot(tuple(tiles), unsure=spots))


def _plays(outcomes: list[Outcome]) -> list[tuple[str, int | None]]:
    out = []
    for o in outcomes:
        assert isinstance(o, Accepted), o
        for e in o.judgement.events:
            if isinstance(e, PlayEvent):
                out.append((str(e.tile), e.seat))
    return out


def test_tiles_judged_together_are_played_in_the_order_first_seen() -> None:
    game, rec, clock = _table()
    assert _plays(_look(rec, clock, LEAD)) == [("6-6", 0)]
    # The 6-1 is laid; the snapshot holds an unsure place elsewhere: not judged.
    assert _look(rec, clock, LEAD, RIGHT_61, unsure=True) == []
    # The 6-5 is laid; only now is a snapshot read surely: both are new.
    assert _plays(_look(rec, clock, LEFT_65, LEAD, RIGHT_61)) == [("6-1", 1), ("6-5", 0)]
    assert game.layout.tiles() == [t("6-6"), t("6-1"), t("6-5")]


def test_a_tile_a_sure_snapshot_no_longer_holds_is_forgotten() -> None:
    """A tile seen and then lifted before anything was judged counts from when it is
    laid again: the 6-5, seen later, then goes first."""
    _, rec, clock = _table()
    _look(rec, clock, LEAD)
    assert _look(rec, clock, LEAD, RIGHT_61, unsure=True) == []
    assert _look(rec, clock, LEAD, LEFT_65, unsure=True) == []  # 6-1 not read: kept
    # a sure snapshot without the 6-1 would judge the 6-5 at once; make it illegal
    # instead (a 5-0 on nothing) so that nothing is played and the 6-1 is forgotten
    stray = SeenTile(5, 0, 100, 100, 124, 100)
    assert not [o for o in _look(rec, clock, LEAD, stray) if isinstance(o, Accepted)]
    assert _look(rec, clock, LEAD, LEFT_65, unsure=True) == []
    assert _plays(_look(rec, clock, LEFT_65, LEAD, RIGHT_61)) == [("6-5", 1), ("6-1", 0)]
