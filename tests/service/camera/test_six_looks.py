"""Sets in six looks, each enrolled from its filled mat rendered on the table, then a
game read through the camera path with the set model: at least 99.5 % of plays right
(issue 31). The looks: black with white pips, black with ringed halves (once the
renderer has that set), pink with yellow pips, ivory on white, a double-twelve with
coloured pips on wood, and wooden. `benchmarks/enrolled_games.py` prints the same per
look over whole games."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.enrolled_games import Look, enrolled, looks, read_game
from tablesim.scenes import sim_game

PLAYS = 8  # the first plays of a hand: every kind of tile and turn, in a few minutes


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("look", looks(), ids=lambda lk: lk.name)
def test_a_game_of_an_enrolled_set_is_read_right(look: Look, tmp_path: Path) -> None:
    pipeline = enrolled(look, tmp_path)
    assert pipeline.model is not None and pipeline.model.source == "mat"
    assert len({h.value for h in pipeline.model.halves}) == look.domino_set.max_pip + 1
    game = sim_game(look.rules, look.seats, 3, plays=PLAYS, tile_mm=look.style.tile_set.size_mm)
    tally = read_game(game, look.style, pipeline, seed=3)
    assert tally.plays >= PLAYS - 1
    assert tally.share >= 0.995, (look.name, tally)
    assert tally.wrong == 0, (look.name, tally)
