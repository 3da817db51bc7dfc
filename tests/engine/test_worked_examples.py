"""Every worked example of shared/RULES.md, through `domino-table replay`.

The replay files are checked in beside this test; the expected numbers are the
leaflets' own, copied from RULES.md.
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from cli.engine import replay
from tests.engine.replaying import plays, run


def test_walnut_examples_a_to_c() -> None:
    events = run("walnut-examples.jsonl")
    assert plays(events) == [
        ("5-5", 10, 10),  # 1. lead 5-5: 5 + 5 = 10, scores 10
        ("5-0", 10, 10),  # 2. spinner (10) + 0 = 10, scores 10
        ("5-3", 3, 0),  # 3. 3 + 0 = 3, no score
        ("2-0", 5, 5),  # 4. 3 + 2 = 5, scores 5
    ]
    assert [e["seat"] for e in events if e["type"] == "play"] == [0, 1, 2, 3]
    assert [e["score"] for e in events if e["type"] == "play"] == [10, 10, 0, 5]


def test_walnut_open_ends_after_each_example() -> None:
    from engine import Game, Target, Tile, rulesets

    game = Game(rulesets.load("walnut"), 4)
    game.start()
    t = Tile.parse
    game.play(t("5-5"), seat=0)
    game.play(t("5-0"), Target(t("5-5")))
    ends = game.summary()["layout"]["open_ends"]
    # three edges of the 5-5 and the 0 are open
    assert sorted((e["tile"], e["pip"]) for e in ends) == [
        ("5-0", 0),
        ("5-5", 5),
        ("5-5", 5),
        ("5-5", 5),
    ]
    game.play(t("3-5"), Target(t("5-5")))
    game.play(t("0-2"), Target(t("5-0")))
    ends = game.summary()["layout"]["open_ends"]
    # the arms of the 5-5 (counting 0), the 3 and the 2 are open
    assert sorted((e["tile"], e["pip"], e["counts"]) for e in ends) == [
        ("2-0", 2, 2),
        ("5-3", 3, 3),
        ("5-5", 5, 0),
        ("5-5", 5, 0),
    ]


def test_walnut_blocked_hand_bonus() -> None:
    events = run("walnut-blocked.jsonl")
    (hand,) = [e for e in events if e["type"] == "hand"]
    # winner holds 3, opponents 5, 11, 13: 26 -> 25 -> 5 points
    assert hand["result"] == "blocked"
    assert hand["winner"] == 0
    assert hand["points"] == 5
    assert hand["pips"] == [3, 5, 11, 13]
    assert hand["scores"] == [15, 0, 0, 0]  # 10 for leading the 5-5, 5 for the hand


def test_revisited_illustrated_hand() -> None:
    events = run("revisited-example.jsonl", refused=True)
    assert plays(events) == [
        ("4-0", 4, 0),  # 1. lead 0-4: 4, no score
        ("6-0", 10, 10),  # 2. 6 + 4 = 10
        ("6-6", 16, 0),  # 3. the spinner: 6 + 6 + 4 = 16
        ("4-4", 20, 20),  # 4. 12 + 8 = 20
        ("6-4", 12, 0),  # 5. 8 + 4 = 12, the 6-6 no longer counts
        ("6-3", 15, 15),  # 6. 8 + 4 + 3 = 15
    ]
    # Before step 5 a tile on the spinner's arm is illegal, and changes nothing.
    (alert,) = [e for e in events if e["type"] == "alert"]
    assert alert["code"] == "CLOSED_END"
    assert alert["tile"] == "6-3"
    assert events.index(alert) == 5  # after the 4-4, before the 4-6


def test_replay_reads_stdin_and_reports_malformed_lines() -> None:
    text = "\n".join(
        [
            '{"rules": "straight-block", "seats": 2}',
            '{"seat": 0, "play": "6-6"}',
            "{not json",
            '{"seat": 1, "play": "6-x", "to": "6-6"}',
            '{"seat": 1, "play": "6-2", "to": "6-6"}',
        ]
    )
    result = CliRunner().invoke(replay, ["-"], input=text)
    assert result.exit_code == 1
    assert "line 3: not JSON" in result.stderr
    assert 'line 4: "tile" must be a tile such as "6-4", not "6-x"' in result.stderr
    kinds = [json.loads(line)["type"] for line in result.stdout.splitlines()]
    assert kinds == ["game", "play", "play"]  # the replay went on after the bad lines
