"""The private-names import contract, on real import graphs, and the project's contracts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp
import pytest

from devtools.import_contracts import PrivateNamesContract

ROOT = Path(__file__).resolve().parents[2]


def _contract() -> PrivateNamesContract:
    return PrivateNamesContract(
        name="private names",
        session_options={"root_packages": ["engine", "hardware"]},
        contract_options={"source_packages": ["engine", "hardware"]},
    )


def _graph(*imports: tuple[str, str, str]) -> grimp.ImportGraph:
    graph = grimp.ImportGraph()
    for importer, imported, line in imports:
        graph.add_import(importer=importer, imported=imported, line_number=3, line_contents=line)
    return graph


def test_a_private_name_taken_from_another_package_breaks_it() -> None:
    graph = _graph(("hardware.panel", "engine.game", "from engine.game import Game, _Lazy as L"))
    check = _contract().check(graph, verbose=False)
    assert not check.kept
    assert [(b["importer"], b["name"]) for b in check.metadata["breaches"]] == [
        ("hardware.panel", "_Lazy")
    ]


@pytest.mark.parametrize(
    "line",
    [
        "from engine.game import Game",  # public
        "from engine.game import __version__",  # a dunder is public
        "from engine import game",
    ],
)
def test_public_names_keep_it(line: str) -> None:
    graph = _graph(("hardware.panel", "engine.game", line))
    assert _contract().check(graph, verbose=False).kept


def test_private_names_within_a_package_keep_it() -> None:
    graph = _graph(("engine.playout", "engine.game", "from engine.game import _Lazy"))
    assert _contract().check(graph, verbose=False).kept


def test_a_parenthesised_import_is_read_name_by_name() -> None:
    graph = _graph(("hardware.panel", "engine.game", "from engine.game import (Game, _Pending,"))
    check = _contract().check(graph, verbose=False)
    assert [b["name"] for b in check.metadata["breaches"]] == ["_Pending"]


def test_the_projects_contracts_hold() -> None:
    """The same check `./run test` runs: every contract in pyproject.toml is kept."""
    lint = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run(
        [str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert "0 broken" in done.stdout
