"""`benchmarks/vision.py` still runs on the labelled photos (each timed once): every
figure printed for ours (light and auto) beside the plain threshold-and-blob baseline,
and ours reads every tile right."""

from __future__ import annotations

import re

import pytest

from benchmarks.vision import main


def test_ddd_a_figures_are_printed_beside_the_baseline(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--repeats", "1"]) == 0
    out = capsys.readouterr().out
    assert "plain threshold-and-blob baseline" in out, out
    row = re.search(r"^per-tile accuracy\s+\S+\s+([\d.]+)%\s+ok\s+([\d.]+)%\s+ok", out, re.M)
    assert row is not None, out
    assert float(row.group(1)) == 100.0 and float(row.group(2)) == 100.0, out


def test_the_renderer_time_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    """The figure `tests/vision/test_render.py` once asserted (a frame in under 100 ms)."""
    assert main(["--render", "--repeats", "2"]) == 0
    out = capsys.readouterr().out
    for style in ("clean", "harsh"):
        row = re.search(
            rf"^render {style}\s+CPU ms per frame: best ([\d.]+), median ([\d.]+)", out, re.M
        )
        assert row is not None, out
        assert 0 < float(row.group(1)) <= float(row.group(2)), out
