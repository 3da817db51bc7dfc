"""`benchmarks/serial_codec.py` still runs (a fraction of a second): codec rates beside
what the wire can carry, and the idle cost of a link to the emulator."""

from __future__ import annotations

import re

import pytest

from benchmarks.serial_codec import main


def test_codec_rates_are_printed_against_the_wire(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--seconds", "0.3"])
    out = capsys.readouterr().out
    for way in ("decode", "encode"):
        row = re.search(rf"^{way}: ([\d,]+) frames/s.*, ([\d,]+)x the wire", out, re.M)
        assert row is not None, out
        assert int(row.group(1).replace(",", "")) > 0
    assert re.search(r"^idle link \+ emulator: [\d.]+ % of one core", out, re.M), out
