"""What a release ships, made as a release makes it: the project's clean tree (`git
archive`), its sdist and wheel built from that tree, and the product's modules and data
files, listed from the tree itself, that the wheel must hold.

The clean tree is what `git archive` gives for the working tree's content: tracked files
and new ones git does not ignore, as they are now, without caches, venvs, build output or
anything else git ignores. It goes through a temporary index (`GIT_INDEX_FILE`), so the
repository's own index is untouched; on a clean checkout (CI) it is `git archive HEAD`.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tarfile
import tempfile
import tomllib
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parents[2]
# Top-level folders with Python packages that are for development only: never shipped.
NOT_SHIPPED = frozenset({"tests", "benchmarks", "devtools", "training"})


def _git(*args: str, env: Mapping[str, str] | None = None) -> bytes:
    return subprocess.run(
        ["git", "-C", str(ROOT), *args],
        capture_output=True, check=True, timeout=120, env={**os.environ, **(env or {})},
    ).stdout  # fmt: skip


def clean_tree(target: Path) -> Path:
    """The project as `git archive` writes it for the working tree's content, in `target`."""
    with tempfile.TemporaryDirectory() as tmp:
        index = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
        _git("read-tree", "HEAD", env=index)
        _git("add", "--all", env=index)
        tree = _git("write-tree", env=index).decode().strip()
    archive = _git("archive", "--format=tar", tree)
    target.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(target, filter="data")
    return target


def version(tree: Path) -> str:
    """The project's version, from the one place it is written (pyproject.toml)."""
    return str(tomllib.loads((tree / "pyproject.toml").read_text())["project"]["version"])


def shipped_packages(tree: Path) -> list[str]:
    """The product's top-level packages: every top-level folder with an `__init__.py`
    that is not for development only (found in the tree, not read from pyproject.toml,
    so a new package left out of the build's discovery is caught)."""
    return sorted(
        p.parent.name for p in tree.glob("*/__init__.py") if p.parent.name not in NOT_SHIPPED
    )


def shipped_files(tree: Path) -> set[str]:
    """Every file below the product's packages (modules, rulesets, configs, web pages),
    as paths relative to the tree."""
    return {
        path.relative_to(tree).as_posix()
        for package in shipped_packages(tree)
        for path in (tree / package).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def module_names(files: set[str]) -> list[str]:
    """The importable modules among `files` (`__main__` modules are run, not imported)."""
    names = []
    for file in files:
        path = PurePosixPath(file)
        if path.suffix != ".py" or path.stem == "__main__":
            continue
        parts = path.parent.parts if path.stem == "__init__" else (*path.parent.parts, path.stem)
        names.append(".".join(parts))
    return sorted(names)


@dataclass(frozen=True)
class Dists:
    """The sdist and the wheel built from a clean tree."""

    sdist: Path
    wheel: Path

    def wheel_files(self) -> set[str]:
        """The wheel's files, without its `.dist-info` folder."""
        with zipfile.ZipFile(self.wheel) as whl:
            return {n for n in whl.namelist() if ".dist-info/" not in n}


def build(tree: Path, out: Path, env: Mapping[str, str]) -> Dists:
    """`python -m build` in `tree`: the sdist, then the wheel built from that sdist (as a
    release does), each build requirement from `env`'s package source."""
    result = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(tree)],
        capture_output=True, text=True, timeout=600, check=False,
        env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1", **env},
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    [sdist] = out.glob("*.tar.gz")
    [wheel] = out.glob("*.whl")
    return Dists(sdist, wheel)
