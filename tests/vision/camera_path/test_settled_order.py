"""An observation lists its tiles in the order readings first held them.

A reading that never holds long enough to be passed on (an unsure place flickering
under a glare, a cloud passing, a quick hand) is still evidence of when a tile came.
Rendered game 12 of the camera benchmark (ivory under the harsh lamp, a cloud): the
3-1 was read once before the cloud left and the next hand came, so the next
observation showed the 3-1 and the 5-3 laid after it together, and the reconciler
played the 5-3 first (the highest), the seats swapped. Now the observation lists the
3-1 first and the reconciler plays them in that order.
"""

from __future__ import annotations

from engine import Game, Tile, rulesets
from engine.geometry import TileSize
from engine.surface import SeenTile, Snapshot, Unsure
from service.core.reconciler import Reconciler
from vision.camera_path.settled import StableReadings
from vision.detector.results import UnsureReason

t = Tile.parse
LEAD = SeenTile(6, 6, 450, 288, 450, 312)
RIGHT_61 = SeenTile(6, 1, 474, 300, 498, 300)
LEFT_65 = SeenTile(6, 5, 426, 300, 402, 300)


def _tiles(seen: Snapshot | None) -> list[str]:
    assert seen is not None
    return [str(s.tile) for s in seen.tiles]


def test_a_tile_read_once_comes_before_a_tile_read_later() -> None:
    stable = StableReadings(hold=2)
    stable.offer(Snapshot((LEAD,), at=0.3))
    assert _tiles(stable.offer(Snapshot((LEAD,), at=0.4))) == ["6-6"]
    stable.interrupt()
    assert stable.offer(Snapshot((LEAD, RIGHT_61), at=1.3)) is None  # read once
    stable.interrupt()  # the next hand
    stable.offer(Snapshot((LEFT_65, LEAD, RIGHT_61), at=2.3))
    seen = stable.offer(Snapshot((LEFT_65, RIGHT_61, LEAD), at=2.4))
    assert _tiles(seen) == ["6-6", "6-1", "6-5"]


def test_a_tile_a_sure_reading_lacks_is_forgotten() -> None:
    stable = StableReadings(hold=2)
    stable.offer(Snapshot((LEAD, RIGHT_61), at=1.0))
    stable.offer(Snapshot((LEAD,), at=1.1))  # lifted: read surely without it, twice
    stable.offer(Snapshot((LEAD,), at=1.15))
    stable.offer(Snapshot((LEAD, LEFT_65), at=1.2))
    stable.offer(Snapshot((RIGHT_61, LEAD, LEFT_65), at=1.3))
    seen = stable.offer(Snapshot((RIGHT_61, LEAD, LEFT_65), at=1.4))
    assert _tiles(seen) == ["6-6", "6-5", "6-1"]


def test_a_tile_one_reading_lacks_is_kept() -> None:
    stable = StableReadings(hold=2)
    stable.offer(Snapshot((LEAD, RIGHT_61), at=1.0))
    stable.offer(Snapshot((LEAD,), at=1.1))  # a reading that does not hold
    stable.offer(Snapshot((LEFT_65, LEAD, RIGHT_61), at=1.3))
    seen = stable.offer(Snapshot((LEFT_65, LEAD, RIGHT_61), at=1.4))
    assert _tiles(seen) == ["6-6", "6-1", "6-5"]


def test_a_tile_a_reading_with_unsure_places_lacks_is_kept() -> None:
    stable = StableReadings(hold=2)
    spot = Unsure(486.0, 300.0, UnsureReason.STRAY_PIPS)
    stable.offer(Snapshot((LEAD, RIGHT_61), at=1.0))
    stable.offer(Snapshot((LEAD,), unsure=(spot,), at=1.1))  # not read, not lifted
    stable.offer(Snapshot((LEAD,), unsure=(spot,), at=1.15))
    stable.offer(Snapshot((LEFT_65, LEAD, RIGHT_61), at=1.3))
    seen = stable.offer(Snapshot((LEFT_65, LEAD, RIGHT_61), at=1.4))
    assert _tiles(seen) == ["6-6", "6-1", "6-5"]


def test_the_reconciler_plays_them_in_that_order() -> None:
    game = Game(rulesets.load("straight-block"), 2)
    game.start()
    game.name_leader(0)
    rec = Reconciler(game, TileSize(), 1.5, lambda: 0.0)
    stable = StableReadings(hold=2)
    for reading in (
        Snapshot((LEAD,), at=0.3),
        Snapshot((LEAD,), at=0.4),
        Snapshot((LEAD, RIGHT_61), at=1.3),
        Snapshot((LEFT_65, LEAD, RIGHT_61), at=2.3),
        Snapshot((LEFT_65, LEAD, RIGHT_61), at=2.4),
    ):
        if reading.at in (1.3, 2.3):
            stable.interrupt()  # a hand
        seen = stable.offer(reading)
        if seen is not None:
            rec.observe(seen)
    assert game.layout.tiles() == [t("6-6"), t("6-1"), t("6-5")]
