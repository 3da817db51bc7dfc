"""`benchmarks/vision.py` still runs on the labelled photos (each timed once): with
`--ddd-a`, every figure printed for ours (light and auto) beside the plain
threshold-and-blob baseline, and ours reads every tile right; by default, a row per
source beside the detector of the commit issue 13's work started from."""

from __future__ import annotations

import re

import pytest

from benchmarks.vision import main


@pytest.mark.photos
def test_ddd_a_figures_are_printed_beside_the_baseline(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--ddd-a", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    assert "plain threshold-and-blob baseline" in out, out
    row = re.search(r"^per-tile accuracy\s+\S+\s+([\d.]+)%\s+ok\s+([\d.]+)%\s+ok", out, re.M)
    assert row is not None, out
    assert float(row.group(1)) == 100.0 and float(row.group(2)) == 100.0, out


@pytest.mark.photos
@pytest.mark.process
def test_every_source_is_printed_beside_the_earlier_detector(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One photo per source, read by today's detector and (in a subprocess on its own
    checkout) by the commit the work started from: a row per source, two figures each."""
    assert main(["--repeats", "1", "--limit", "1"]) == 0
    out = capsys.readouterr().out
    assert "before: the detector of commit" in out, out
    for source in ("ddd-a (light)", "ddd-a (auto)", "dbu", "ie", "jr", "mf", "diverse-dev"):
        row = re.search(rf"^{re.escape(source)}\s+1?\d\s+\d+((\s+\S+){{10}})$", out, re.M)
        assert row is not None, (source, out)
    ddd = re.search(r"^ddd-a \(light\)\s+1\s+\d+\s+([\d.]+)%\s+([\d.]+)%", out, re.M)
    assert ddd is not None and ddd.groups() == ("100.0", "100.0"), out


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


@pytest.mark.process
def test_without_git_the_earlier_detector_is_refused_in_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where git is missing (an arm64 chroot made without it), the baseline's checkout
    says what is needed instead of a bare 'No such file or directory'."""
    from benchmarks.vision_sets import BEFORE, SetsError, checkout

    monkeypatch.setenv("PATH", "/nonexistent")
    refused = pytest.raises(SetsError, match=r"git is needed .* install git, or give --before none")
    with refused, checkout(BEFORE):
        pass
