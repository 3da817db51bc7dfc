"""The recipe of each shipped net, run end to end, and the record it ships with.

    OMP_NUM_THREADS=1 nice -n 19 .venv/bin/python -m training.recipe veto_a \\
        --work /tmp/veto [--jobs 2] [--out vision/learned/veto_a.onnx] [--dry-run]

A recipe (`RECIPES`) is the data a net sees and how it is trained: chunks of frames
drawn from their seeds by `training.veto_data` (written to `--work`, and kept there:
a chunk already there is not drawn again, so `veto_b` reuses `veto_a`'s), validation
frames no chunk draws, then `training.train` with its steps and seed. `--dry-run` prints
the commands and runs nothing. After training, the net is run through OpenCV's `dnn`
(`training.evaluate`, as the package runs it) on the validation patches, and the
record for `vision/learned/models.toml` is written beside the net (`NET.toml`): its
sha256 and size, the commit and command, the seeds, the data by kind and the
validation figures. A net ships with its record pasted into the manifest (the
package refuses a file whose hash the manifest does not record).

Data generation is deterministic: a frame's patches depend only on its seed and the
code (the renderer, the detector). Training is seeded too, but the same data and seed
give the same weights only with the same PyTorch build on the same kind of CPU.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import cv2

from training import veto_data
from training.evaluate import logits, odds
from training.figures import TILE_KINDS, counts, load, shares
from vision.learned.patches import ACROSS, LONG

ROOT: Final = Path(__file__).resolve().parents[1]
LOOKALIKE_EVERY: Final = 8  # training.veto_data's default
SEED: Final = 26  # training.train's default


@dataclass(frozen=True, slots=True)
class Chunk:
    """One run of `training.veto_data`: `frames` frames from seed `start`."""

    name: str
    start: int
    frames: int
    lookalike_every: int = LOOKALIKE_EVERY

    def argv(self, work: Path) -> list[str]:
        out = [str(work / f"{self.name}.npz"), "--frames", str(self.frames)]
        out += ["--start", str(self.start)]
        if self.lookalike_every != LOOKALIKE_EVERY:
            out += ["--lookalike-every", str(self.lookalike_every)]
        return out


@dataclass(frozen=True, slots=True)
class Recipe:
    """A net's data and training (`training.train`'s options)."""

    name: str
    chunks: tuple[Chunk, ...]
    val: Chunk
    steps: int
    seed: int = SEED
    batch: int = 128
    width: int = 8

    def train_argv(self, work: Path, out: Path) -> list[str]:
        return [
            *(str(work / f"{c.name}.npz") for c in self.chunks),
            "--val",
            str(work / f"{self.val.name}.npz"),
            "--out",
            str(out),
            "--steps",
            str(self.steps),
            "--seed",
            str(self.seed),
            "--batch",
            str(self.batch),
            "--width",
            str(self.width),
        ]


COMMON: Final = tuple(Chunk(f"c{s}", s, 150) for s in range(0, 2400, 150))
LOOKALIKES: Final = tuple(Chunk(f"l{s}", s, 100, 1) for s in range(2400, 3000, 100))
VALIDATION: Final = Chunk("val", 100_000, 150)
RECIPES: Final = {
    "veto_a": Recipe("veto_a", COMMON, VALIDATION, steps=3000),
    "veto_b": Recipe("veto_b", COMMON + LOOKALIKES, VALIDATION, steps=3500),
}


def _command(module: str, argv: Sequence[str]) -> str:
    return shlex.join(["python", "-m", module, *argv])


def plan(recipe: Recipe, work: Path, out: Path) -> list[str]:
    """The recipe's commands, in order (run from the repository's root)."""
    lines = [_command("training.veto_data", c.argv(work)) for c in (*recipe.chunks, recipe.val)]
    return [*lines, _command("training.train", recipe.train_argv(work, out))]


def draw(chunks: Sequence[Chunk], work: Path, jobs: int) -> None:
    """Write each chunk missing from `work`: here, one after another (`jobs` 1), or
    `jobs` at a time in child processes (one OpenCV thread each)."""
    todo = [c for c in chunks if not (work / f"{c.name}.npz").exists()]
    if jobs == 1:
        for chunk in todo:
            if veto_data.main(chunk.argv(work)) != 0:
                raise SystemExit(f"training.veto_data failed on chunk {chunk.name}")
        return
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    running: list[tuple[Chunk, subprocess.Popen[bytes]]] = []
    while todo or running:
        while todo and len(running) < jobs:
            chunk = todo.pop(0)
            argv = [sys.executable, "-m", "training.veto_data", *chunk.argv(work)]
            running.append((chunk, subprocess.Popen(argv, cwd=ROOT, env=env)))
        chunk, proc = running.pop(0)
        if proc.wait() != 0:
            for _, other in running:
                other.kill()
                other.wait()
            raise SystemExit(f"training.veto_data failed on chunk {chunk.name}")


def _commit() -> tuple[str, list[str]]:
    """HEAD's hash and the files changed since it ("unknown" outside a git checkout)."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown", []
    return head, [line[3:] for line in status.splitlines()]


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_toml(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"no TOML for {value!r}")


def _key(key: str) -> str:
    key = key.replace(" ", "_")  # a kind's name ("wrong place") as a bare key
    return key if key.replace("_", "").isalnum() else _toml(key)


def _table(name: str, fields: dict[str, object]) -> list[str]:
    return [f"[{name}]", *(f"{_key(k)} = {_toml(v)}" for k, v in fields.items()), ""]


def _seed_ranges(chunks: Sequence[Chunk]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for c in sorted(chunks, key=lambda c: c.start):
        last = out[-1] if out else None
        if last and last["lookalike_every"] == c.lookalike_every and last["to"] == c.start - 1:
            last["to"] = c.start + c.frames - 1
        else:
            out.append({"from": c.start, "to": c.start + c.frames - 1,
                        "lookalike_every": c.lookalike_every})  # fmt: skip
    return out


def record(recipe: Recipe, work: Path, out: Path, command: str, minutes: float) -> str:
    """The `[nets.NAME]` record of a net just trained, for `vision/learned/models.toml`."""
    import torch  # noqa: PLC0415 - PyTorch only where a net is trained (seconds to import)

    from training.model import TileVeto  # noqa: PLC0415 - PyTorch

    data = out.read_bytes()
    head, changed = _commit()
    _, _, kinds = load([work / f"{c.name}.npz" for c in recipe.chunks])
    val_patches, val_labels, val_kinds = load([work / f"{recipe.val.name}.npz"])
    figures = shares(odds(logits(out, val_patches)), val_labels, val_kinds)
    seen = counts(kinds)
    net = f"nets.{recipe.name}"
    lines = _table(
        net,
        {
            "file": out.name,
            "sha256": hashlib.sha256(data).hexdigest(),
            "bytes": len(data),
            "parameters": sum(p.numel() for p in TileVeto(recipe.width).parameters()),
            "input": {"name": "patches", "width": LONG, "height": ACROSS, "channels": "BGR"},
            "output": "logits",
        },
    )
    lines += _table(
        f"{net}.trained",
        {
            "commit": head,
            "uncommitted": changed,
            "command": command,
            "steps": plan(recipe, work, out),
            "seed": recipe.seed,
            "training_steps": recipe.steps,
            "minutes": round(minutes, 1),
            "torch": str(torch.__version__),
            "opencv": str(cv2.__version__),
        },
    )
    lines += _table(
        f"{net}.data",
        {
            "frames": sum(c.frames for c in recipe.chunks),
            "seeds": _seed_ranges(recipe.chunks),
            "patches": len(kinds),
            "kinds": seen,
            "tiles": sum(n for k, n in seen.items() if k in TILE_KINDS),
        },
    )
    lines += _table(
        f"{net}.validation",
        {
            "frames": recipe.val.frames,
            "seeds": _seed_ranges([recipe.val]),
            "patches": len(val_kinds),
            "kinds": counts(val_kinds),
            "right": {
                str(t): {k: round(v, 4) for k, v in row.items()} for t, row in figures.items()
            },
        },
    )
    return "\n".join(lines)


def run(recipe: Recipe, work: Path, out: Path, jobs: int, command: str) -> Path:
    """Draw the recipe's data, train its net to `out`, write `out`'s record beside it
    (`NET.toml`); return the record's path. OpenCV's and torch's thread counts, which
    the steps set to one, are put back after."""
    import torch  # noqa: PLC0415 - PyTorch only where a net is trained

    threads = cv2.getNumThreads(), torch.get_num_threads()
    try:
        return _run(recipe, work, out, jobs, command)
    finally:
        cv2.setNumThreads(threads[0])
        torch.set_num_threads(threads[1])


def _run(recipe: Recipe, work: Path, out: Path, jobs: int, command: str) -> Path:
    began = time.perf_counter()
    work.mkdir(parents=True, exist_ok=True)
    draw((*recipe.chunks, recipe.val), work, jobs)
    trained = time.perf_counter()
    from training import train  # noqa: PLC0415 - PyTorch only where a net is trained

    if train.main(recipe.train_argv(work, out)) != 0:
        raise SystemExit("training.train failed")
    minutes = (time.perf_counter() - trained) / 60
    path = out.with_suffix(".toml")
    path.write_text(record(recipe, work, out, command, minutes), encoding="utf-8")
    spent = (time.perf_counter() - began) / 60
    print(f"wrote {out} and its record {path} in {spent:.1f} min", file=sys.stderr)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", choices=sorted(RECIPES))
    parser.add_argument("--work", type=Path, required=True, help="the patches' folder")
    parser.add_argument("--out", type=Path, help="the ONNX file (default: NAME.onnx in --work)")
    parser.add_argument("--jobs", type=int, default=1, help="chunks drawn at once")
    parser.add_argument("--dry-run", action="store_true", help="print the commands only")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be 1 or more")
    recipe = RECIPES[args.name]
    out = args.out or args.work / f"{recipe.name}.onnx"
    if args.dry_run:
        print("\n".join(plan(recipe, args.work, out)))
        return 0
    given = sys.argv[1:] if argv is None else argv
    run(recipe, args.work, out, args.jobs, _command("training.recipe", given))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
