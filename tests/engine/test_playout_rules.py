"""The play-out's guard: every option of `Rules` is played by it or sent to the per-turn path.

`engine.playout.plan.RULES_PLAYED` names every field of `Rules` with the values the
play-out plays itself; a ruleset with any other value, or a field the table does not
name, is played by `play_hand` with `RandomPlayer`s. A play-out taken by the per-turn
path leaves the hand's turn record made (its own leaves it to be made when read,
`Game.pending`), which is how these tests see which path played.
"""

from __future__ import annotations

import dataclasses
import random
from enum import Enum

import pytest

from engine import Game, Mode, Phase, Rules, rulesets
from engine.playout import RULES_PLAYED, plan_for, play_out, unplayed
from engine.playout.plan import Handled
from engine.rules import SpinnerRule
from tests.engine.test_playout import assert_same_games, rules_named, setups


def _fields_not_in_table(rules_type: type[Rules]) -> list[str]:
    return [f.name for f in dataclasses.fields(rules_type) if f.name not in RULES_PLAYED]


def test_every_rules_field_is_played_or_falls_back() -> None:
    """A field added to `Rules` fails here until `RULES_PLAYED` says how the play-out
    honours it (or which values send a hand to the per-turn path)."""
    missing = _fields_not_in_table(Rules)
    assert not missing, (
        f"Rules fields {missing} are not in engine.playout.plan.RULES_PLAYED: say how the "
        "play-out honours each, or list the values it plays (others go to the per-turn path)"
    )
    stale = set(RULES_PLAYED) - {f.name for f in dataclasses.fields(Rules)}
    assert not stale, f"RULES_PLAYED names fields Rules no longer has: {sorted(stale)}"


@dataclasses.dataclass(frozen=True)
class _RulesWithANewOption(Rules):
    new_option: bool = False


def test_a_field_missing_from_the_table_is_found_and_played_per_turn() -> None:
    """What the guard above sees, and what happens at run time meanwhile."""
    assert _fields_not_in_table(_RulesWithANewOption) == ["new_option"]
    walnut = rulesets.load("walnut")
    fields = {f.name: getattr(walnut, f.name) for f in dataclasses.fields(walnut)}
    rules = _RulesWithANewOption(**fields)
    assert unplayed(rules) == "new_option = False"
    assert not _played_out(rules, 2).pending
    assert_same_games(rules, 2, 7)


@pytest.mark.parametrize(
    ("field", "values"),
    [(name, handled.values) for name, handled in RULES_PLAYED.items() if handled.values],
)
def test_the_values_listed_are_values_of_their_field(field: str, values: frozenset[object]) -> None:
    default = getattr(Rules(name="x"), field)
    assert all(type(value) is type(default) for value in values)
    if isinstance(default, Enum):  # (a member added later is not listed: it falls back)
        assert values <= set(type(default))


def _played_values() -> set[tuple[str, object]]:
    """(field, value) for every listed value in a ruleset `test_playout.py` plays."""
    played: set[tuple[str, object]] = set()
    for name, _ in setups():
        rules = rules_named(name)
        for field, handled in RULES_PLAYED.items():
            if handled.values is not None:
                played.add((field, getattr(rules, field)))
    return played


@pytest.mark.parametrize(
    ("field", "value"),
    [
        (name, value)
        for name, handled in RULES_PLAYED.items()
        for value in sorted(handled.values or (), key=repr)
    ],
)
def test_every_value_the_play_out_plays_is_checked_against_the_per_turn_path(
    field: str, value: object
) -> None:
    """`tests/engine/test_playout.py` plays a ruleset with each listed value."""
    assert (field, value) in _played_values(), (
        f"no ruleset in tests/engine/test_playout.py has {field} = {value!r}: add a variant"
    )


def _played_out(rules: Rules, seats: int) -> Game:
    game = Game(rules, seats, mode=Mode.FULL, seed=3)
    game.start()
    play_out(game, random.Random(3))
    assert game.phase in (Phase.HAND_OVER, Phase.OVER)
    return game


def test_a_value_the_play_out_does_not_play_goes_per_turn() -> None:
    rules = rules_named("both-out")
    assert unplayed(rules) == "both_partners_out = True"
    assert not _played_out(rules, 4).pending
    assert _played_out(rulesets.load("outdoor"), 4).pending
    assert_same_games(rules, 4, 3)


def test_the_table_decides_which_path_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    """Take a value out of the table: hands under it go per turn, and play the same."""
    walnut = rulesets.load("walnut")
    assert walnut.spinner is SpinnerRule.LEAD_DOUBLE
    assert _played_out(walnut, 2).pending
    spinner = RULES_PLAYED["spinner"]
    assert spinner.values is not None
    fewer = Handled(spinner.how, spinner.values - {SpinnerRule.LEAD_DOUBLE})
    monkeypatch.setitem(RULES_PLAYED, "spinner", fewer)
    rules = dataclasses.replace(walnut)  # (plans are kept per ruleset object)
    assert plan_for(rules).unplayed == "spinner = <SpinnerRule.LEAD_DOUBLE: 'lead-double'>"
    assert not _played_out(rules, 2).pending
    assert_same_games(rules, 2, 5)
