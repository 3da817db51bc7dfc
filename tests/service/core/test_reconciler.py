"""The reconciler: settled snapshots of the surface -> plays, take-backs and alerts."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine import Edge, Game, OpenEnd, Phase, PlayEvent, Reason, Tile, UndoEvent, rulesets
from engine.alerts import AlertCode, Severity
from engine.geometry import Placer, TileSize
from engine.surface import SeenTile, Snapshot, Unsure
from service.core.reconciler import (
    Accepted,
    Cleared,
    Memory,
    Outcome,
    Reconciler,
    Resolved,
    SeatZone,
    SurfaceAlert,
    ZoneCounts,
)

t = Tile.parse
GRACE = 1.5


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Table:
    """A table-mode game, its reconciler and what lies on the surface."""

    def __init__(
        self, rules: str = "walnut", seats: int = 4, zones: Sequence[SeatZone] = ()
    ) -> None:
        self.game = Game(rulesets.load(rules), seats)
        self.game.start()
        self.game.name_leader(0)
        self.clock = Clock()
        self.rec = Reconciler(self.game, TileSize(), GRACE, self.clock, zones=zones)
        self.placer = Placer(900, 600)
        self.surface: list[SeenTile] = []

    def where(self, tile: str, end: OpenEnd | None) -> SeenTile:
        """Where the Placer would put `tile` at `end` of the game's layout."""
        return self.placer.place(self.game.layout, self.rec.placed(), t(tile), end)  # type: ignore[arg-type]

    def look(self, after: float = 0.2) -> list[Outcome]:
        self.clock.now += after
        return self.rec.observe(Snapshot(tuple(self.surface)))

    def lay(self, *tiles: SeenTile, after: float = 0.2) -> list[Outcome]:
        self.surface.extend(tiles)
        return self.look(after)

    def lift(self, tile: str, after: float = 0.2) -> SeenTile:
        seen = next(s for s in self.surface if s.tile is t(tile))
        self.surface.remove(seen)
        return seen

    def play(self, tile: str, end: OpenEnd | None) -> PlayEvent:
        out = self.lay(self.where(tile, end))
        assert len(out) == 1 and isinstance(out[0], Accepted), out
        event = out[0].judgement.events[0]
        assert isinstance(event, PlayEvent)
        return event

    def tick(self, after: float) -> list[Outcome]:
        self.clock.now += after
        return self.rec.tick()


@pytest.fixture
def table() -> Table:
    """walnut, 4 seats, seat 0 leads 6-6 (the spinner) and 6-4 joins its side."""
    table = Table()
    table.play("6-6", None)
    table.play("6-4", OpenEnd(0, Edge.SIDE0, 6))
    return table


def phase(game: Game) -> Phase:
    return game.phase  # read afresh (mypy would keep an earlier narrowing)


def alerts(out: Sequence[Outcome]) -> list[AlertCode]:
    return [o.code for o in out if isinstance(o, SurfaceAlert)]


def test_plays_are_accepted_for_the_turn_seat_with_their_coordinates() -> None:
    table = Table()
    lead = table.play("6-6", None)
    assert (lead.seat, lead.tile, lead.coords) == (0, "6-6", (450, 288, 450, 312))
    join = table.play("6-4", OpenEnd(0, Edge.SIDE0, 6))
    assert (join.seat, join.points, join.coords) == (1, 0, (474, 300, 498, 300))
    arm = table.play("6-3", OpenEnd(0, Edge.ARM0, 6))
    assert (arm.seat, arm.ends_total) == (2, 4 + 3)  # one-edge: the spinner counts no more
    assert table.game.layout.tiles() == [t("6-6"), t("6-4"), t("6-3")]
    assert table.look() == []  # unchanged


def test_a_quick_pair_is_two_plays(table: Table) -> None:
    first = table.where("4-1", OpenEnd(1, Edge.LOW, 4))
    layout = table.game.layout.copy()
    layout.place(t("4-1"), OpenEnd(1, Edge.LOW, 4))
    placed = [*table.rec.placed(), first]
    second = table.placer.place(layout, placed, t("6-5"), OpenEnd(0, Edge.SIDE1, 6))  # type: ignore[arg-type]
    out = table.lay(second, first)
    assert [type(o) for o in out] == [Accepted, Accepted]
    assert table.game.layout.tiles()[2:] == [t("6-5"), t("4-1")]


@pytest.mark.parametrize(
    ("seen", "code"),
    [
        (SeenTile(5, 3, 522, 300, 546, 300), AlertCode.NO_MATCH),  # at the 4 end
        (SeenTile(1, 4, 522, 300, 546, 300), AlertCode.NO_MATCH),  # the 1 touches the 4
        (SeenTile(2, 1, 100, 100, 124, 100), AlertCode.NOT_TOUCHING),  # far from the layout
        (SeenTile(6, 4, 100, 100, 124, 100), AlertCode.DUPLICATE_TILE),  # a second 6-4
    ],
)
def test_an_illegal_tile_is_an_alert_only_after_the_grace_time(
    table: Table, seen: SeenTile, code: AlertCode
) -> None:
    before = table.game.layout.tiles()
    assert table.lay(seen) == []
    assert table.tick(GRACE - 0.5) == []
    out = table.tick(0.6)
    assert alerts(out) == [code]
    alert = out[0]
    assert isinstance(alert, SurfaceAlert) and alert.tile is seen.tile and alert.message
    assert table.game.layout.tiles() == before
    assert table.look() == []  # still standing, not raised again
    table.surface.remove(seen)
    assert table.look() == [Resolved(alert.key)]
    assert table.rec.standing is None


def test_an_unknown_tile_at_an_end() -> None:
    table = Table()
    table.play("6-6", None)
    assert table.lay(SeenTile(7, 6, 486, 300, 462, 300)) == []  # no 7 in double-six
    assert alerts(table.tick(GRACE)) == [AlertCode.UNKNOWN_TILE]


def test_a_tile_on_a_spinner_arm_not_open_yet() -> None:
    table = Table("revisited")  # arms open only once both sides are covered
    table.play("6-6", None)
    table.play("6-4", OpenEnd(0, Edge.SIDE0, 6))
    on_arm = SeenTile(6, 2, 450, 264, 450, 240)
    assert table.lay(on_arm) == []
    assert alerts(table.tick(GRACE)) == [AlertCode.CLOSED_END]
    assert len(table.game.layout) == 2


def test_a_tile_adjusted_within_the_grace_time_is_no_offence(table: Table) -> None:
    right = table.where("4-1", OpenEnd(1, Edge.LOW, 4))
    askew = SeenTile(4, 1, right.xa + 14, right.ya + 9, right.xb + 14, right.yb + 9)
    assert table.lay(askew) == []  # not touching yet: being put down
    table.surface.remove(askew)
    out = table.lay(right, after=1.0)
    assert [type(o) for o in out] == [Accepted]
    assert table.tick(5) == []


def test_accepted_tiles_nudged_stay_in_place(table: Table) -> None:
    table.play("4-1", OpenEnd(1, Edge.LOW, 4))
    seen = table.lift("6-4")
    nudged = SeenTile(seen.a, seen.b, seen.xa + 4, seen.ya - 3, seen.xb + 4, seen.yb - 3)
    assert table.lay(nudged) == []
    assert table.rec.placed()[1] == nudged  # the new place is remembered
    # an earlier tile pushed away and straight back is no offence either
    table.surface.remove(nudged)
    pushed = SeenTile(seen.a, seen.b, seen.xa + 40, seen.ya, seen.xb + 40, seen.yb)
    assert table.lay(pushed) == []
    table.surface.remove(pushed)
    assert table.lay(nudged, after=1.0) == []
    assert table.tick(5) == []
    assert len(table.game.layout) == 3


def test_lifting_the_last_play_takes_it_back(table: Table) -> None:
    score = table.game.score(1)
    seen = table.lift("6-4")
    out = table.look()
    assert len(out) == 1 and isinstance(out[0], Accepted)
    assert isinstance(out[0].judgement.events[0], UndoEvent)
    assert table.game.layout.tiles() == [t("6-6")] and table.game.turn == 1
    # put back: played again by the same seat
    again = table.lay(seen)
    assert [type(o) for o in again] == [Accepted]
    assert table.game.layout.tiles() == [t("6-6"), t("6-4")] and table.game.score(1) == score


def test_the_last_play_slid_to_another_end_is_taken_back_and_played_there(table: Table) -> None:
    on_arm = table.where("6-5", OpenEnd(0, Edge.ARM0, 6))
    table.play("6-5", OpenEnd(0, Edge.SIDE1, 6))
    table.lift("6-5")
    out = table.lay(on_arm)
    assert [type(o) for o in out] == [Accepted, Accepted]
    assert isinstance(out[0], Accepted) and isinstance(out[0].judgement.events[0], UndoEvent)
    assert table.game.layout.nodes[-1].parent_edge is Edge.ARM0


def test_the_last_play_unread_with_a_tile_against_it_is_unreadable_not_taken_back(
    table: Table,
) -> None:
    """The camera loses the last play (merged with a new neighbour, glare) while a new
    tile lies against its open end: not a take-back (the new tile would join nothing),
    not an illegal play; UNREADABLE (a warning) where it lies, until it is read again."""
    joined = table.where("4-1", OpenEnd(1, Edge.LOW, 4))  # against 6-4's open 4
    seen = table.lift("6-4")
    assert table.lay(joined) == []  # no undo, no NOT_TOUCHING
    assert table.game.layout.tiles() == [t("6-6"), t("6-4")]
    (alert,) = table.tick(GRACE)
    assert isinstance(alert, SurfaceAlert) and (alert.code, alert.tile) == (
        AlertCode.UNREADABLE,
        t("6-4"),
    )
    assert alert.severity is Severity.WARNING and alert.coords == (474, 300, 498, 300)
    assert "6-4" in alert.message
    # read again: the new tile is the next play, and the warning goes
    out = table.lay(seen)
    assert [type(o) for o in out] == [Accepted, Resolved]
    assert table.game.layout.tiles() == [t("6-6"), t("6-4"), t("4-1")]


def test_the_last_play_lifted_and_another_tile_laid_elsewhere_is_still_a_take_back(
    table: Table,
) -> None:
    elsewhere = table.where("6-5", OpenEnd(0, Edge.SIDE1, 6))  # against the spinner
    table.lift("6-4")
    out = table.lay(elsewhere)
    assert isinstance(out[0], Accepted) and isinstance(out[0].judgement.events[0], UndoEvent)
    assert table.game.layout.tiles()[-1] is t("6-5")


def test_lifting_an_earlier_tile_stands_until_it_is_put_back(table: Table) -> None:
    table.play("4-1", OpenEnd(1, Edge.LOW, 4))
    seen = table.lift("6-4")
    assert table.look() == []
    out = table.tick(GRACE)
    assert alerts(out) == [AlertCode.TILE_LIFTED]
    alert = out[0]
    assert isinstance(alert, SurfaceAlert) and alert.tile is t("6-4") and alert.reason is None
    assert alert.coords == (474, 300, 498, 300)
    assert len(table.game.layout) == 3
    # a play meanwhile changes nothing
    assert table.lay(table.where("6-5", OpenEnd(0, Edge.SIDE1, 6))) == []
    assert len(table.game.layout) == 3
    out = table.lay(seen)
    assert [type(o) for o in out] == [Accepted, Resolved]


def test_after_a_pass_lifting_the_last_play_is_no_take_back(table: Table) -> None:
    assert table.game.pass_turn().ok
    table.lift("6-4")
    assert table.look() == []
    assert alerts(table.tick(GRACE)) == [AlertCode.TILE_LIFTED]
    assert len(table.game.layout) == 2


def test_a_bad_lead_after_the_grace_time() -> None:
    table = Table()
    out = table.lay(SeenTile(6, 4, 438, 300, 462, 300), after=0)
    assert out == []
    assert alerts(table.tick(GRACE)) == [AlertCode.BAD_LEAD]  # walnut: a double leads


def test_an_unsure_snapshot_is_not_judged(table: Table) -> None:
    table.surface.append(SeenTile(2, 1, 100, 100, 124, 100))
    table.clock.now += 5
    assert table.rec.observe(Snapshot(tuple(table.surface), unsure=(Unsure(1, 2, "glare"),))) == []


def test_zones_count_each_seats_tiles_then_the_cleared_surface(table: Table) -> None:
    zones = [SeatZone(s, s * 225, 500, s * 225 + 225, 600) for s in range(4)]
    table.rec.zones = tuple(zones)
    assert table.game.end_hand().ok and phase(table.game) is Phase.COUNTING
    shown = [
        SeenTile(5, 5, 20, 540, 20, 564),
        SeenTile(3, 2, 60, 540, 60, 564),
        SeenTile(1, 0, 250, 540, 250, 564),
        SeenTile(6, 1, 700, 540, 700, 564),
    ]
    out = table.lay(*shown)
    assert len(out) == 1 and isinstance(out[0], ZoneCounts)
    counts = out[0]
    assert counts.pips == (15, 1, 0, 7)
    assert counts.tiles == ((t("5-5"), t("3-2")), (t("1-0"),), (), (t("6-1"),))
    assert table.look() == []  # reported once
    # Two tiles cannot be the hand of seat 0, dealt 5 with one played: the engine refuses
    # them as the seat's tiles (COUNT_MISMATCH); their pips score the hand.
    assert table.game.count_tiles(counts.tiles).reason is Reason.COUNT_MISMATCH
    assert table.game.count(list(counts.pips)).ok and phase(table.game) is Phase.HAND_OVER
    table.surface.clear()
    assert table.look() == [Cleared()]
    assert table.look() == []


def test_the_last_play_read_as_another_tile_is_no_take_back(table: Table) -> None:
    seen = table.lift("6-4")
    misread = SeenTile(6, 1, seen.xa, seen.ya, seen.xb, seen.yb)
    assert table.lay(misread) == []
    assert len(table.game.layout) == 2
    out = table.tick(GRACE)
    assert alerts(out) == [AlertCode.TILE_LIFTED]
    # the players correct the reading from the display: the surface is legal again
    assert table.game.correct(t("6-4"), t("6-1")).ok
    assert table.look() == [Resolved(out[0].key)]  # type: ignore[union-attr]
    assert table.rec.placed()[1] == misread


def test_a_new_illegal_position_replaces_the_standing_alert(table: Table) -> None:
    wrong = SeenTile(5, 3, 522, 300, 546, 300)
    table.lay(wrong)
    (first,) = table.tick(GRACE)
    assert isinstance(first, SurfaceAlert) and first.code == AlertCode.NO_MATCH
    table.surface.remove(wrong)
    far = SeenTile(2, 1, 100, 100, 124, 100)
    assert table.lay(far) == []  # its own grace time
    assert table.tick(GRACE) == [Resolved(first.key), table.rec.standing]
    assert table.rec.standing is not None and table.rec.standing.code == AlertCode.NOT_TOUCHING


def test_a_play_taken_back_by_command_is_not_played_again_while_it_lies_there(
    table: Table,
) -> None:
    assert table.game.undo().ok  # the UNDO button: 6-4 still lies on the table
    assert table.look() == []
    assert table.tick(5) == []
    assert table.game.layout.tiles() == [t("6-6")]
    seen = table.lift("6-4")
    assert table.look() == []
    again = table.lay(seen)  # put down again: a play
    assert [type(o) for o in again] == [Accepted]
    assert table.game.layout.tiles() == [t("6-6"), t("6-4")]


def test_a_corrected_reading_keeps_its_place() -> None:
    table = Table()
    table.play("6-6", None)
    table.play("6-4", OpenEnd(0, Edge.SIDE0, 6))  # really a 6-1, misread as 6-4
    assert table.game.correct(t("6-4"), t("6-1")).ok
    assert table.look() == []  # the camera still reads 6-4 there: no alert
    assert table.tick(5) == []
    assert table.game.layout.tiles() == [t("6-6"), t("6-1")]
    # and the next tile joins the corrected tile's open end (its 1)
    out = table.lay(SeenTile(1, 3, 522, 300, 546, 300))
    assert [type(o) for o in out] == [Accepted]


def test_a_corrected_reading_keeps_its_place_after_a_restart() -> None:
    """A restart reads the reconciler's memory back without where the tiles lie: the
    first snapshot after it says where they lie, a corrected tile where its misreading
    lies (it was taken back, and the misreading played again)."""
    table = Table()
    table.play("6-6", None)
    table.play("6-4", OpenEnd(0, Edge.SIDE0, 6))  # really a 6-1, misread as 6-4
    assert table.game.correct(t("6-4"), t("6-1")).ok
    assert table.look() == []
    kept = Memory.from_dict(table.rec.memory().as_dict())
    assert kept.placed == {} and kept.aliases == {t("6-4"): t("6-1")}
    table.rec = Reconciler(table.game, TileSize(), GRACE, table.clock)  # a restart
    table.rec.recall(kept)
    assert table.look() == []  # the camera still reads 6-4 there: nothing taken back
    assert table.tick(5) == []
    assert table.game.layout.tiles() == [t("6-6"), t("6-1")]
    assert table.rec.placed()[1] == next(s for s in table.surface if s.tile is t("6-4"))
    out = table.lay(SeenTile(1, 3, 522, 300, 546, 300))  # the next joins the 6-1's 1
    assert [type(o) for o in out] == [Accepted]


def test_a_pair_with_one_illegal_tile_changes_nothing(table: Table) -> None:
    legal = table.where("4-1", OpenEnd(1, Edge.LOW, 4))
    wrong = SeenTile(5, 2, 426, 300, 402, 300)  # at the 6-6's other side
    assert table.lay(legal, wrong) == []
    assert alerts(table.tick(GRACE)) == [AlertCode.NO_MATCH]
    assert len(table.game.layout) == 2
    table.surface.remove(wrong)
    out = table.look()
    assert [type(o) for o in out] == [Accepted, Resolved]
    assert table.game.layout.tiles()[-1] is t("4-1")
