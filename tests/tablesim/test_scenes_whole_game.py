"""`sim_whole_game`: a whole simulated game, hand after hand, as the camera table sees it.

Each scene is shown to a real `TableCore` as a perfect snapshot, and what the players
say after it as their commands, in the order the `SimSource` gives them: the table must
referee the very game the players played (every play, every hand's score, the winner),
count the hands from the seat zones (or the counts told), start each hand when the
table is cleared, and raise no alert but `LEAD_UNKNOWN`. No camera here: the camera
path runs a whole game in tests/service/camera/test_whole_game.py.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from engine import rulesets
from engine.surface import Snapshot
from service.core import commands as cmd
from service.core.table import TableConfig, TableCore
from service.core.table_events import Recorded, StateChanged
from service.store.journal import Journal
from tablesim.camera import SimSource
from tablesim.render import RenderStyle, TileStyle
from tablesim.scenes import SimGame, SimWholeGame, chain_games, sim_game, sim_whole_game
from tests.fixtures.spec import validate

ZONES_2 = {0: (90, 510, 810, 600), 1: (90, 0, 810, 90)}
ZONES_4 = {
    0: (90, 510, 810, 600),
    1: (0, 90, 90, 510),
    2: (90, 0, 810, 90),
    3: (810, 90, 900, 510),
}


@dataclass
class Refereed:
    """What the table published while the game was shown to it."""

    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    zone_counts: list[list[int]] = field(default_factory=list)

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [p for k, p in self.events if k == kind]


def referee(
    game: SimGame,
    state: Path,
    zones: dict[int, tuple[int, int, int, int]],
    target: int | None = None,
) -> tuple[Refereed, TableCore]:
    """Show `game` to a table core: scene i, then what is told after it."""
    now = itertools.count(0.0, 2.0)  # every snapshot lasts longer than the grace time
    core = TableCore(
        TableConfig(
            table="t1",
            rules=game.rules,
            seats=game.seats,
            target=game.target if isinstance(game, SimWholeGame) else target,
            zones=tuple(sorted(zones.items())),
        ),
        Journal(state, "t1"),
        rulesets.load,
        clock=lambda: float(next(now)),
    )
    out = Refereed()

    def recorded(recorded: Recorded) -> None:
        for event in recorded.events:
            validate(event.kind, event.payload)
            out.events.append((event.kind, event.payload))

    def state_changed(changed: StateChanged) -> None:
        counts = changed.payload["zone_counts"]
        if counts is not None and (not out.zone_counts or out.zone_counts[-1] != counts):
            out.zone_counts.append(counts)

    core.bus.subscribe(Recorded, recorded)
    core.bus.subscribe(StateChanged, state_changed)
    core.start()
    said = 0
    for scene, told in zip(game.scenes, game.told, strict=True):
        core.observe(Snapshot(scene))
        core.tick()  # a problem pending now would stand: none may
        for body in told:
            said += 1
            command = cmd.parse_command(json.dumps({"id": f"sim-{said}", **body}).encode())
            assert core.command(command) is None, body
    return out, core


def check_same_game(game: SimWholeGame, seen: Refereed) -> None:
    """The table's plays, hands and result are the players' own."""
    plays = seen.of("play")
    assert [(p["hand"], p["tile"], p["points"], p["ends_total"]) for p in plays] == [
        (p["hand"], p["tile"], p["points"], p["ends_total"]) for p in game.plays
    ]
    # who laid each tile; a lead the table could not attribute was named after it
    leads = {e["hand"]: e["seat"] for e in seen.of("lead")}
    for mine, its in zip(game.plays, plays, strict=True):
        assert its["seat"] == mine["seat"] or (
            its["seat"] is None and leads.get(its["hand"]) == mine["seat"]
        ), (mine, its)
    assert [{k: h[k] for k in game.hands[0]} for h in seen.of("hand")] == list(game.hands)
    over = [e for e in seen.of("game") if e["event"] == "over"]
    assert game.over is not None
    assert [(e["winner"], e["team"], e["scores"]) for e in over] == [
        (game.over["winner"], game.over["team"], game.over["scores"])
    ]
    assert {a["code"] for a in seen.of("alert")} <= {"LEAD_UNKNOWN"}


@pytest.mark.parametrize(
    ("rules", "seats", "seed", "zones"),
    [
        ("straight-block", 2, 2, ZONES_2),  # knocks; a hand blocked, one gone out
        ("straight", 2, 15, ZONES_2),  # draw-one: draws told, the table sees the end
        ("walnut", 4, 4, ZONES_4),  # draw-until-playable: `out` told; won by a play
        ("puerto-rico", 4, 1, ZONES_4),  # partners: the winning team
        ("outdoor", 3, 2, {}),  # no zones: the players tell their counts
    ],
)
def test_the_table_referees_a_whole_simulated_game(
    tmp_path: Path, rules: str, seats: int, seed: int, zones: dict[int, tuple[int, int, int, int]]
) -> None:
    target = 25 if rules in ("straight-block", "straight") else None
    game = sim_whole_game(rules, seats, seed, target=target, zones=zones)
    assert len(game.hands) >= 2 and game.over is not None
    seen, core = referee(game, tmp_path, zones)
    check_same_game(game, seen)
    assert core.game is not None and core.game.phase.value == "over"
    # each hand began on a cleared table, and the zones were counted when there are any
    counted = "zones" if zones else "told"
    assert set(game.endings) <= {counted, "won"}
    assert bool(seen.zone_counts) == bool(zones)  # the table showed what it counted
    assert game.scenes[-1] == ()  # the players clear the table at the end


def test_a_full_surface_has_the_hand_dealt_again(tmp_path: Path) -> None:
    """No room left for the next tile: the players say `redeal` and clear the table; the
    hand's plays so far were published, its score never was."""
    game = sim_whole_game("revisited", 4, 2, zones=ZONES_4)
    assert game.endings[0] == "redeal"
    first = next(i for i, s in enumerate(game.scenes) if not s)
    assert game.told[first - 1][-1] == {"action": "redeal"}
    seen, _ = referee(game, tmp_path, ZONES_4)
    check_same_game(game, seen)
    assert seen.of("hand")[0]["hand"] == 1  # the hand dealt again keeps its number


def test_tiles_laid_for_counting_lie_clear_of_the_layout_and_each_other() -> None:
    game = sim_whole_game("walnut", 4, 0, zones=ZONES_4)
    assert "zones" in game.endings
    for scene in game.scenes:
        boxes = [
            (min(t.xa, t.xb) - 12, min(t.ya, t.yb) - 12, max(t.xa, t.xb) + 12, max(t.ya, t.yb) + 12)
            for t in scene
        ]
        assert all(b[0] >= 0 and b[1] >= 0 and b[2] <= 900 and b[3] <= 600 for b in boxes)
        for one, two in itertools.combinations(boxes, 2):  # touching, never on top
            overlap_x = min(one[2], two[2]) - max(one[0], two[0])
            overlap_y = min(one[3], two[3]) - max(one[1], two[1])
            assert min(overlap_x, overlap_y) <= 0.5, (one, two)


def test_the_one_hand_game_is_unchanged() -> None:
    """`sim_game` (one hand; benchmarks and tests rely on it) is what it was."""
    hand = sim_game("straight-block", 2, seed=4)
    assert [p["tile"] for p in hand.plays] == ["5-5", "5-4", "4-4", "6-4"]
    assert hand.told == (
        ({"action": "lead", "seat": 1},),
        (),
        (),
        ({"action": "pass", "seat": 1}, {"action": "pass", "seat": 0}),
    )
    assert sim_whole_game("straight-block", 2, 4, target=25) == sim_whole_game(
        "straight-block", 2, 4, target=25
    )


def test_the_players_speak_after_the_play_they_follow_is_seen() -> None:
    """A knock after a play is told as the next hand reaches in: after every frame of
    that play lying still, before any frame of the next scene without a hand (were it
    told while the hand laying the play was still in view, the table would hear the
    knock before the play and refuse it as out of turn)."""
    hand = sim_game("straight-block", 2, seed=4, plays=3)
    told: tuple[tuple[dict[str, Any], ...], ...] = (
        ({"action": "lead", "seat": 1},),
        ({"action": "pass", "seat": 1},),  # (a made-up knock after the second play)
        (),
    )
    game = SimGame(hand.rules, hand.seats, hand.seed, hand.scenes, told)
    heard: list[tuple[int, dict[str, Any]]] = []  # (the frame being read, the command)
    shown: list[tuple[int, bool]] = []  # (scene, hand in view) of each frame read
    source = SimSource(
        game, fps=10, pace_s=0.3, style=RenderStyle.clean(TileStyle.IVORY), hand_frames=4,
        tell=lambda body: heard.append((len(shown), body)),
    )  # fmt: skip
    while not source.finished:
        if source.read() is not None:
            assert source.last is not None
            shown.append((source.last.scene_index, source.last.hand_visible))
    said = [(scene, body) for scene, told in enumerate(game.told) for body in told]
    assert len(heard) == 2
    for (scene, body), (frame, command) in zip(said, heard, strict=False):
        assert command == {"id": command["id"], **body}
        before = shown[:frame]
        assert (scene, False) in before  # the scene was seen lying still
        assert all(s <= scene or hand for s, hand in before)  # and nothing after it yet


def test_games_one_after_another_each_begin_with_new_game(tmp_path: Path) -> None:
    games = [sim_whole_game("straight-block", 2, seed, zones=ZONES_2, target=10) for seed in (2, 3)]
    chained = chain_games(games)
    assert len(chained.scenes) == sum(len(g.scenes) for g in games)
    end_of_first = len(games[0].scenes) - 1
    assert chained.told[end_of_first][-1] == {
        "action": "new_game", "rules": "straight-block", "seats": 2, "target": 10
    }  # fmt: skip
    seen, core = referee(chained, tmp_path, ZONES_2, target=10)
    assert [(p["hand"], p["tile"]) for p in seen.of("play")] == [
        (p["hand"], p["tile"]) for g in games for p in g.plays
    ]
    hands = [h for g in games for h in g.hands]
    assert [{k: h[k] for k in hands[0]} for h in seen.of("hand")] == hands
    over = [(e["winner"], e["scores"]) for e in seen.of("game") if e["event"] == "over"]
    assert over == [(g.over["winner"], g.over["scores"]) for g in games if g.over is not None]
    assert len(over) == 2 and core.game is not None and core.game.phase.value == "over"
    assert {a["code"] for a in seen.of("alert")} <= {"LEAD_UNKNOWN"}
