"""Run a benchmark and write what it printed to docs/figures/, with its command, commit
and machine: the docs' figures come from here, never typed by hand.

    .venv/bin/python -m benchmarks.figures NAME [NAME...]    run those, write their pages
    .venv/bin/python -m benchmarks.figures --list            the figures and their commands
    .venv/bin/python -m benchmarks.figures --index           only rewrite docs/figures/index.md

Each figure is `docs/figures/NAME.md`: the title, what it measures, the exact command, the
commit it ran on (with "+ changes" when the tree had uncommitted ones), the machine
(processor, cores, Python, load when it started), the date, and the benchmark's output
as it printed it. Long benchmarks: `nice -n 10` in front, and say so in the page
(`--note`).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "docs" / "figures"


@dataclass(frozen=True)
class Figure:
    name: str
    title: str
    about: str
    args: tuple[str, ...]

    @property
    def command(self) -> str:
        return shlex.join([".venv/bin/python", "-m", *self.args])


FIGURES = (
    Figure(
        "serial-codec",
        "The board's serial codec",
        "Frames decoded and encoded a second against what the wire carries at 115200 baud, "
        "and the CPU an idle link with the emulated board costs.",
        ("benchmarks.serial_codec", "--seconds", "4"),
    ),
    Figure(
        "engine",
        "The rules engine",
        "Hands a second of whole simulated games, beside the two published engines run in "
        "the same process (dominoes, all-fives-domino).",
        ("benchmarks.engine", "--seconds", "3"),
    ),
    Figure(
        "vision",
        "The tile reader on labelled photos, per source",
        "Tiles found right, wrong and missed, precision and recall, for each source of the "
        "labelled photos (the file name's prefix before `__`) and ddd-a, and the time per "
        "photo.",
        ("benchmarks.vision", "--before", "none", "--repeats", "1"),
    ),
    Figure(
        "vision-looks",
        "What each of the detector's looks earns, per source",
        "Every look turned off in turn (the first readings excepted) on the labelled "
        "photos and the rendered frames: the tiles right, wrong and missed it earns on "
        "each source, with no budget of passes.",
        ("benchmarks.vision", "--looks"),
    ),
    Figure(
        "vision-time",
        "The tile reader's time per frame, per source, and the empty table",
        "CPU per frame as `vision detect` reads (tone unknown) and as the service reads "
        "(tone light, the play area, the markers left out and the tile width known), the "
        "tiles right, wrong and missed at the default budget, and an empty table beside "
        "the median frame.",
        ("benchmarks.vision", "--time"),
    ),
    Figure(
        "camera",
        "The camera path over whole rendered games",
        "Accuracy of the settled readings, false and missed plays, CPU per frame, over "
        "whole games rendered as camera frames.",
        ("benchmarks.camera", "--games", "4"),
    ),
    Figure(
        "latency",
        "From a play to its event",
        "How long a play takes from the board's frame to the MQTT event, through the real "
        "service and broker.",
        ("benchmarks.latency", "--plays", "300"),
    ),
    Figure(
        "history",
        "What keeping the record of games costs",
        "A camera table's play to its event with the record of games kept (a frame of each "
        "play drawn and written) and without it, on the same whole game, and the disk a "
        "camera game and a board game keep.",
        ("benchmarks.history",),
    ),
    Figure(
        "tournament",
        "The desk under 50 tables",
        "The real desk process seating and counting 50 simulated tables.",
        ("benchmarks.tournament", "--tables", "50", "--rounds", "3"),
    ),
)
BY_NAME = {f.name: f for f in FIGURES}


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=False
    ).stdout.strip()


def commit() -> str:
    """HEAD, and "+ changes" when files other than the docs differ from it."""
    head = _git("rev-parse", "--short=12", "HEAD") or "unknown"
    changed = _git("status", "--porcelain", "--untracked-files=no", "--", ".", ":!docs")
    return f"{head} + changes" if changed else head


def machine() -> str:
    model = platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("model name", "Model")):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (
        f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}; load average {load} at the start"
    )


def run(figure: Figure, note: str = "") -> Path:
    started = time.monotonic()
    when = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    about_machine, ran_on = machine(), commit()
    result = subprocess.run(
        [sys.executable, "-m", *figure.args], cwd=ROOT, capture_output=True, text=True,
        check=False,
    )  # fmt: skip
    took = time.monotonic() - started
    if result.returncode != 0:
        sys.stderr.write(result.stdout + result.stderr)
        raise SystemExit(f"{figure.command} failed (exit {result.returncode}): nothing written")
    lines = [
        f"# {figure.title}",
        "",
        figure.about,
        "",
        "| | |",
        "|---|---|",
        f"| command | `{figure.command}` |",
        f"| commit | `{ran_on}` |",
        f"| machine | {about_machine} |",
        f"| date | {when}, {took:.0f} s |",
    ]
    if note:
        lines.append(f"| note | {note} |")
    lines += ["", "```text", result.stdout.rstrip(), "```", ""]
    FOLDER.mkdir(parents=True, exist_ok=True)
    path = FOLDER / f"{figure.name}.md"
    path.write_text("\n".join(lines))
    return path


def index() -> Path:
    """docs/figures/index.md: every figure page there is, and the ones not yet run."""
    lines = [
        "# Figures",
        "",
        "Every figure in these docs is a page written by `python -m benchmarks.figures NAME`,",
        "which runs the benchmark and keeps what it printed, with the command, the commit and",
        "the machine. Nothing here is typed by hand: to bring a page up to date, run its",
        "command again (long ones with `nice -n 10` in front) and commit the page.",
        "",
        "| figure | what | command |",
        "|---|---|---|",
    ]
    for figure in FIGURES:
        there = (FOLDER / f"{figure.name}.md").exists()
        title = f"[{figure.title}]({figure.name}.md)" if there else f"{figure.title} (not run yet)"
        lines.append(f"| {title} | {figure.about} | `python -m benchmarks.figures {figure.name}` |")
    lines += [
        "",
        "Drawings: [the panel's wiring](panel-wiring.svg), from `config/pins.py` by",
        "`python -m devtools.wiring`; the screens in `screens/`, taken by the browser tests",
        "(`tests/display`, `tests/tournament`) and copied by `python -m devtools.screens`.",
        "",
    ]
    path = FOLDER / "index.md"
    path.write_text("\n".join(lines))
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.figures")
    parser.add_argument("names", nargs="*", metavar="NAME", help=", ".join(BY_NAME))
    parser.add_argument("--list", action="store_true", help="the figures and their commands")
    parser.add_argument("--index", action="store_true", help="only rewrite the index")
    parser.add_argument("--note", default="", help="a word on how it ran (load, nice)")
    args = parser.parse_args(argv)
    if args.list:
        for figure in FIGURES:
            print(f"{figure.name:12} {figure.command}")
        return 0
    unknown = [n for n in args.names if n not in BY_NAME]
    if unknown:
        parser.error(f"no figure {', '.join(unknown)}: choose from {', '.join(BY_NAME)}")
    for name in args.names:
        print(run(BY_NAME[name], args.note).relative_to(ROOT))
    print(index().relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
