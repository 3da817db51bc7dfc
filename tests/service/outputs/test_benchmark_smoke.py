"""`benchmarks/outputs.py` still runs (a few plays): the outputs' CPU per play beside the
same games without them, and espeak-ng's per phrase."""

from __future__ import annotations

import re

import pytest

from benchmarks.outputs import main

pytestmark = pytest.mark.broker


def test_the_outputs_cost_is_printed_against_the_game_without_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--plays", "6", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    for label in ("worker thread", "whole process"):
        row = re.search(rf"^{label} \(us\)\s+(\d+)\s+(\d+)\s+(\d+)\s+(-?\d+)\s+([\d.]+)$",
                        out, re.M)  # fmt: skip
        assert row is not None, out
        assert int(row.group(1)) > 0 and int(row.group(2)) > 0
    handlers = re.search(r"^outputs handlers \(us\)\s+(\d+)\s+(\d+)\s+(\d+)", out, re.M)
    assert handlers is not None and int(handlers.group(1)) == 0 < int(handlers.group(3)), out
    assert re.search(r"^espeak-ng: \d+ phrases spoken, \d+ ms CPU each", out, re.M), out
