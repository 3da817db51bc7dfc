"""Rulesets as data: the shipped files, a house's own file, and bad files."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.engine import rules, simulate
from engine import Game, Mode, Rules, RulesError, rulesets
from engine.players import RandomPlayer, play_game

SHIPPED = ["outdoor", "puerto-rico", "revisited", "straight", "straight-block", "walnut", "wooden"]


def test_every_leaflet_is_shipped() -> None:
    assert rulesets.names() == SHIPPED


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_ruleset_documents_its_decisions(name: str) -> None:
    r = rulesets.load(name)
    assert r.title and r.source
    if name != "straight-block":
        assert r.decisions, f"{name} must write down its decisions"


def test_puerto_rico_is_the_partnership_block_game() -> None:
    r = rulesets.load("puerto-rico")
    assert r.players == (4, 4) and r.hand_size(4) == 7 and not r.draws
    assert r.teams_for(4) == ((0, 2), (1, 3)) and r.win_target == 200


def test_a_house_file_needs_no_code(tmp_path: Path) -> None:
    house = tmp_path / "fives-and-threes.toml"
    house.write_text(
        'name = "kitchen"\nplayers = [2, 4]\n[deal]\nset = "double-six"\nhand = 7\n'
        '[play]\nscoring = "fives-and-threes"\n[match]\ntarget = 61\n'
    )
    r = Rules.parse(house.read_text(), source=str(house))
    game = Game(r, 2, mode=Mode.FULL, seed=3)
    import random

    events = play_game(game, [RandomPlayer(random.Random(1))] * 2)
    assert events[-1].payload()["event"] == "over"
    result = CliRunner().invoke(simulate, ["--rules", str(house), "--players", "2", "--summary"])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            'name = "x"\n[deal]\nhand = 7\n[play]\nscoring = "sixes"\n',
            ["play.scoring", "'sixes'", "'fives'"],
        ),
        ('name = "x"\n[deal]\nhand = 7\n[play]\nmust_ply = true\n', ["play.must_ply", "unknown"]),
        ('name = "x"\n[deal]\nhand = 20\n', ["deal.hand", "40 tiles", "28"]),
        ('name = "x"\n[deal]\nhand = 7\nset = "double-seven"\n', ["deal.set", "double-seven"]),
        ('name = "x"\n[deal]\nhand = 7\n[lead]\nrule = "set-double"\n', ["lead.double"]),
        ('name = "x"\n[deal]\nhand = 7\n[match]\ntarget = -5\n', ["match.target", "1 to"]),
        ('name = "x"\nplayers = [1, 4]\n[deal]\nhand = 7\n', ["players"]),
        ("name = \n", ["not valid TOML"]),
    ],
)
def test_a_bad_file_names_file_key_and_what_is_allowed(text: str, words: list[str]) -> None:
    with pytest.raises(RulesError) as caught:
        Rules.parse(text, source="house.toml")
    message = str(caught.value)
    assert message.startswith("house.toml: ")
    for word in words:
        assert word in message


def test_rules_commands() -> None:
    listed = CliRunner().invoke(rules, ["list"])
    assert listed.exit_code == 0
    assert [line.split()[0] for line in listed.output.splitlines()] == SHIPPED
    shown = CliRunner().invoke(rules, ["show", "walnut"])
    assert shown.exit_code == 0 and 'kind = "lead-double"' in shown.output
    missing = CliRunner().invoke(rules, ["show", "chess"])
    assert missing.exit_code == 2 and "no ruleset named 'chess'" in missing.output
