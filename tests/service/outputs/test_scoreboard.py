"""Short names that fit a 32-LED matrix, and notifications cut to 60 characters."""

from __future__ import annotations

import pytest

from service.outputs.awtrix import cut, notification
from service.outputs.scoreboard import initials, short_names


@pytest.mark.parametrize(
    ("names", "shorts"),
    [
        (["Ana", "Bo"], ["Ana", "Bo"]),  # the spec's "Ana 35 Bo 60"
        (["Ximena", "Bo", "Carla", "Dev"], ["Xi", "Bo", "Ca", "De"]),
        (["Player 1", "Player 2", "Player 3", "Player 4"], ["P1", "P2", "P3", "P4"]),
        (["Carla", "Carmen", "Bo"], ["Carl", "Carm", "Bo"]),  # alike: longer until they differ
        (["Ana", "Ana"], ["Ana1", "Ana2"]),  # the same name twice: numbered
        (["Ana María", "Bo"], ["AM", "Bo"]),  # several words: their initials
        (["Ana", "Bo", "Cy", "Di", "Ed", "Flo"], ["A", "B", "C", "D", "E", "F"]),
        (["Ñoño", "Élodie"], ["Ñoñ", "Élo"]),
    ],
)
def test_short_names_are_the_first_letters_and_never_alike(
    names: list[str], shorts: list[str]
) -> None:
    assert short_names(names) == shorts


def test_a_teams_short_name_is_its_members_initials() -> None:
    assert initials(["Ana", "Bo", "Carla", "Dev"], (0, 2)) == "AC"
    assert initials(["Player 1", "Player 2"], (0, 1)) == "PP"


def test_an_alert_is_cut_to_60_characters_at_a_word() -> None:
    text = "6-4 does not match: that end shows 2. Lift it and lay a tile that fits there."
    shown = cut(text, 60)
    assert (
        len(shown) <= 60 and shown == "6-4 does not match: that end shows 2. Lift it and lay a..."
    )
    assert cut("Short.", 60) == "Short."
    note = notification(
        "alert", {"severity": "fault", "resolved": False, "message": "x" * 80}, None
    )
    assert note is not None and len(note["text"]) == 60 and note["color"] == "FF0000"
    warning = {"severity": "warning", "resolved": False, "message": "Who led?"}
    assert notification("alert", warning, None) is None
