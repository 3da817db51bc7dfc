"""`engine.inputs`: one notation for what a table is told.

Every input has one JSON form that reads back equal (and survives `json.dumps`), a repr
that builds it again, tiles in the `6-3` notation, and JSON that is not an input is
refused with a sentence naming the field. A game takes its own inputs by type.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from engine import Edge, EdgeKind, Game, OpenEnd, Reason, Target, Tile, rulesets
from engine.events import Coords
from engine.inputs import (
    INPUTS,
    CallTime,
    Confirm,
    Correct,
    Count,
    Counts,
    Draw,
    EndHand,
    Input,
    InputError,
    Lead,
    NewGame,
    NextHand,
    Out,
    Pass,
    Play,
    Redeal,
    Rename,
    Undo,
    read,
)

TILES = st.builds(Tile, st.integers(0, 18), st.integers(0, 18))
SEATS = st.integers(0, 9)
MAYBE_SEAT = st.none() | SEATS
TEXT = st.text(min_size=1, max_size=12)
TILE_LISTS = st.lists(TILES, max_size=8).map(tuple)
PER_SEAT_TILES = st.lists(st.none() | TILE_LISTS, min_size=2, max_size=4).map(tuple)
WHERE = (
    st.none()
    | st.builds(OpenEnd, st.integers(0, 90), st.sampled_from(list(Edge)), st.integers(0, 18))
    | st.builds(
        Target, TILES, st.none() | st.integers(0, 18), st.none() | st.sampled_from(EdgeKind)
    )
)
COORDS = st.none() | st.builds(Coords, *(st.integers(-50, 2000) for _ in range(4)))


@st.composite
def new_games(draw: st.DrawFn) -> NewGame:
    seats = draw(st.integers(2, 6))
    per_seat = st.lists(TEXT, min_size=seats, max_size=seats).map(tuple)
    return NewGame(
        draw(TEXT),
        seats,
        draw(st.none() | per_seat),
        draw(st.none() | st.lists(st.integers(0, 3), min_size=seats, max_size=seats).map(tuple)),
        draw(st.none() | st.integers(1, 1000)),
        draw(st.none() | st.sampled_from(["en", "es"])),
        draw(st.none() | TEXT),
        draw(st.none() | TEXT),
        draw(st.none() | st.integers(1, 20)),
        draw(st.none() | per_seat),
        draw(st.none() | st.just("2026-11-22T04:14:00.123Z")),
    )


def counts_of(draw: st.DrawFn) -> Count:
    seat = draw(SEATS)
    if draw(st.booleans()):
        return Count(seat, tiles=draw(TILE_LISTS))
    return Count(seat, pips=draw(st.integers(0, 200)))


STRATEGIES: dict[type[Input], st.SearchStrategy[Input]] = {
    Play: st.builds(Play, TILES, WHERE, MAYBE_SEAT, COORDS),
    Pass: st.builds(Pass, MAYBE_SEAT),
    Draw: st.builds(Draw, MAYBE_SEAT, st.integers(1, 20)),
    Lead: st.builds(Lead, SEATS),
    Out: st.builds(Out, SEATS),
    Undo: st.just(Undo()),
    Correct: st.builds(Correct, TILES, TILES),
    Count: st.composite(counts_of)(),
    Counts: st.builds(
        Counts,
        st.none() | st.lists(st.none() | st.integers(0, 99), min_size=2, max_size=4).map(tuple),
        st.none() | PER_SEAT_TILES,
        MAYBE_SEAT,
        st.booleans(),
    ),
    Confirm: st.builds(Confirm, MAYBE_SEAT, st.none() | PER_SEAT_TILES),
    EndHand: st.just(EndHand()),
    NextHand: st.just(NextHand()),
    Redeal: st.just(Redeal()),
    Rename: st.builds(Rename, SEATS, TEXT),
    CallTime: st.builds(CallTime, st.none() | st.just("2026-11-22T04:14:00.123Z")),
    NewGame: new_games(),
}
ANY_INPUT = st.one_of(*STRATEGIES.values())


def test_every_input_is_drawn() -> None:
    assert set(STRATEGIES) == set(INPUTS.values())


@given(ANY_INPUT)
def test_an_input_reads_back_from_its_json_form(told: Input) -> None:
    form = told.to_json()
    assert form["action"] == told.action
    assert read(json.loads(json.dumps(form))) == told
    assert type(told).from_json(form) == told


@given(ANY_INPUT)
def test_an_inputs_repr_builds_it_again(told: Input) -> None:
    names = {name: getattr(engine, name) for name in engine.__all__}
    names |= {cls.__name__: cls for cls in INPUTS.values()}
    assert eval(repr(told), names) == told


def test_tiles_are_written_high_first_and_read_in_either_order() -> None:
    play = Play(Tile.parse("3-6"), Target(Tile.parse("2-6")), seat=1)
    assert play.to_json() == {"action": "play", "tile": "6-3", "seat": 1, "to": "6-2"}
    assert read({"action": "play", "tile": "3-6", "to": "2-6", "seat": 1}) == play
    assert Count(2, tiles=(Tile.parse("0-4"),)).to_json() == {
        "action": "count",
        "seat": 2,
        "tiles": ["4-0"],
    }


def test_a_play_names_an_open_end_or_the_tile_it_joins() -> None:
    at_end = Play(Tile.parse("5-0"), OpenEnd(0, Edge.SIDE1, 5), coords=Coords(1, 2, 3, 4))
    assert at_end.to_json() == {
        "action": "play",
        "tile": "5-0",
        "node": 0,
        "edge": "side1",
        "pip": 5,
        "xa": 1,
        "ya": 2,
        "xb": 3,
        "yb": 4,
    }
    on_arm = Play(Tile.parse("3-6"), Target(Tile.parse("6-6"), 6, EdgeKind.ARM))
    assert on_arm.to_json() == {
        "action": "play",
        "tile": "6-3",
        "to": "6-6",
        "pip": 6,
        "kind": "arm",
    }
    assert repr(on_arm) == (
        "Play(tile=Tile.parse('6-3'), where=Target(to=Tile.parse('6-6'), pip=6, "
        "kind=EdgeKind.ARM), seat=None, coords=None)"
    )


REFUSED: list[tuple[Any, str]] = [
    ([], "an input is a JSON object"),
    ({"action": "dance"}, 'Unknown action "dance"; the actions are: play, pass, draw'),
    ({"seat": 1}, "Unknown action null"),
    ({"action": "pass", "seat": -1}, '"seat" must be a seat number (0 or more), not -1.'),
    ({"action": "pass", "seat": True}, '"seat" must be a seat number (0 or more), not true.'),
    ({"action": "pass", "seat": "2"}, '"seat" must be a seat number (0 or more), not "2".'),
    ({"action": "draw", "count": 0}, '"count" must be a number of tiles (1 or more), not 0.'),
    ({"action": "lead"}, '"lead" needs "seat".'),
    ({"action": "undo", "seat": 1}, '"undo" does not take "seat" (its fields: none).'),
    ({"action": "play", "tile": "7-x"}, '"tile" must be a tile such as "6-4", not "7-x".'),
    ({"action": "play", "tile": "19-1"}, '"tile" must be a tile such as "6-4", not "19-1".'),
    ({"action": "play", "tile": "6|4"}, '"tile" must be a tile such as "6-4", not "6|4".'),
    ({"action": "play"}, '"play" needs "tile".'),
    ({"action": "play", "tile": "5-0", "edge": "arm"}, '"edge" names an open end with "node"'),
    (
        {"action": "play", "tile": "5-0", "node": 0, "edge": "north", "pip": 5},
        '"edge" must be one of "high", "low", "side0", "side1", "arm0", "arm1", not "north".',
    ),
    ({"action": "play", "tile": "5-0", "node": 0, "edge": "low"}, 'an open end is "node"'),
    ({"action": "play", "tile": "5-0", "pip": 5}, '"pip" and "kind" say where a tile joins'),
    (
        {"action": "play", "tile": "5-0", "to": "5-5", "kind": "corner"},
        '"kind" must be one of "end", "side", "arm", not "corner".',
    ),
    ({"action": "play", "tile": "5-0", "xa": 1}, 'where a tile lies is "xa", "ya", "xb"'),
    ({"action": "play", "tile": "5-0", "hand": 1}, '"play" does not take "hand"'),
    ({"action": "count", "seat": 1}, '"count" needs either "tiles" or "pips", not both.'),
    (
        {"action": "count", "seat": 1, "tiles": [], "pips": 0},
        '"count" needs either "tiles" or "pips", not both.',
    ),
    ({"action": "count", "seat": 1, "tiles": "6-6"}, '"tiles" must be a list of tiles'),
    ({"action": "counts", "pips": 3}, '"pips" must be a list with one entry per seat'),
    ({"action": "counts", "blocked": 1}, '"blocked" must be true or false, not 1.'),
    ({"action": "correct", "tile": "6-4"}, '"correct" needs "as".'),
    ({"action": "rename", "seat": 0, "name": ""}, '"name" must be a text, not "".'),
    ({"action": "new_game", "rules": "walnut"}, '"new_game" needs "seats".'),
    (
        {"action": "new_game", "rules": "walnut", "seats": 4, "teams": [0, 1]},
        '"teams" must give one entry for each of the 4 seats.',
    ),
]


@pytest.mark.parametrize(("obj", "says"), REFUSED)
def test_json_that_is_not_an_input_is_refused_with_the_reason(obj: Any, says: str) -> None:
    with pytest.raises(InputError) as refused:
        read(obj)
    assert str(refused.value).startswith(says)


def test_a_game_takes_its_own_inputs_by_type() -> None:
    told = [
        Play(Tile.parse("5-5"), seat=0),
        Play(Tile.parse("5-0"), Target(Tile.parse("5-5")), seat=1),
        Play(Tile.parse("3-5"), Target(Tile.parse("5-5")), seat=2),
        Play(Tile.parse("0-2"), Target(Tile.parse("5-0")), seat=3),
    ]
    by_type, by_call = Game(rulesets.load("walnut"), 4), Game(rulesets.load("walnut"), 4)
    by_type.start()
    by_call.start()
    for one in told:
        assert isinstance(one, Play)
        assert by_type.tell(one) == by_call.play(one.tile, one.where, seat=one.seat)
    assert by_type.summary() == by_call.summary()
    assert [p["tile"] for p in by_type.summary()["layout"]["tiles"]] == ["5-5", "5-0", "5-3", "2-0"]
    assert by_type.scores() == (10, 10, 0, 5)
    refused = by_type.tell(Pass(seat=2))
    assert refused.reason is Reason.OUT_OF_TURN
    counted = by_type.tell(Count(0, tiles=(Tile.parse("9-9"),)))  # a seat's count too
    assert counted.reason is Reason.UNKNOWN_TILE


@pytest.mark.parametrize("told", [Confirm(), Rename(0, "Ana"), NewGame("walnut", 2)])
def test_the_tables_own_inputs_are_not_a_games(told: Input) -> None:
    game = Game(rulesets.load("walnut"), 2)
    game.start()
    with pytest.raises(TypeError, match=f"a game is not told '{told.action}'"):
        game.tell(told)
