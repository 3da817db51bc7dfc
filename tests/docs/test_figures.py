"""The docs hold what is true now, and their pictures and figures are made, not typed.

- the panel's wiring drawing is the one `devtools.wiring` draws from `config/pins.py`
  and the guide's `[panel]` example;
- every screen shown is one a browser test takes (`devtools.screens` copies them);
- every figure page was written by `benchmarks.figures` (its command, commit, machine);
- every `docs/....md` that code, scripts or settings name exists;
- no page is a lab notebook: no issue numbers, no commit hashes (the figure pages carry
  their commit, by design).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from benchmarks import figures
from devtools import screens, wiring

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
HASH = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b")


def tracked() -> list[Path]:
    out = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "--cached", "--others", "--exclude-standard"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return [ROOT / line for line in out.splitlines() if (ROOT / line).is_file()]


def test_the_wiring_drawing_is_current() -> None:
    assert wiring.OUT.read_text() == wiring.render(), "python -m devtools.wiring"


def test_the_wiring_drawing_follows_the_pin_table() -> None:
    drawn = wiring.render()
    assert "GPIO17: UNDO (hold) (11)" in drawn  # BCM 17 is header pin 11
    assert "GPIO4: alert LED (7)" in drawn
    assert "GND (39)" in drawn and "3V3 (1)" in drawn


def test_every_screen_shown_is_taken_by_a_browser_test() -> None:
    shown = sorted(p.stem for p in (DOCS / "figures" / "screens").glob("*.png"))
    assert shown == sorted(screens.NAMES)
    tests = "\n".join(p.read_text() for p in (ROOT / "tests").rglob("*.py"))
    # screenshot(page, "name") or screenshot(page, f"name-{...}"), and the desk's
    # tests' shot(page, "director") saved as tournament-director
    taken = re.findall(r'(?:screenshot|shot)\([^,()]+,\s*f?"([^"{]*)(\{?)', tests)
    for name in shown:
        assert any(
            name in (n, f"tournament-{n}") or (brace and name.startswith(n)) for n, brace in taken
        ), f"no test takes the screenshot {name}"


def test_every_figure_page_says_how_it_was_made() -> None:
    for figure in figures.FIGURES:
        page = DOCS / "figures" / f"{figure.name}.md"
        if not page.exists():
            continue
        text = page.read_text()
        assert f"| command | `{figure.command}` |" in text
        assert "| commit | `" in text and "| machine | " in text


@pytest.mark.process
def test_every_docs_page_named_in_the_code_exists() -> None:
    named = re.compile(r"\bdocs/([a-z0-9_/-]+\.md)\b")
    for path in tracked():
        if path.suffix in {".png", ".svg", ".onnx", ".pdf", ".whl"} or "requirements" in path.parts:
            continue
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        for page in named.findall(text):
            assert (DOCS / page).exists(), f"{path.relative_to(ROOT)} names docs/{page}"


def test_no_page_is_a_lab_notebook() -> None:
    for page in DOCS.rglob("*.md"):
        if page.parent.name == "figures" and page.name != "index.md":
            continue
        text = page.read_text()
        where = page.relative_to(ROOT)
        assert not re.search(r"\bissues? \d+", text, re.I), f"{where} names an issue"
        hashes = [h for h in HASH.findall(text) if not h.isdigit()]
        assert not hashes, f"{where} names commits {hashes}"
        prose = re.sub(r"```.*?```", "", text, flags=re.S)  # sample output may hold dates
        assert not re.search(r"\b20\d\d-\d\d-\d\d\b", prose), f"{where} holds a dated entry"
