"""The private-names import contract, on real import graphs, and the project's contracts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp
import pytest

from devtools.import_contracts import PrivateNamesContract

ROOT = Path(__file__).resolve().parents[2]


def _contract(
    scope: str = "package", packages: tuple[str, ...] = ("engine", "hardware")
) -> PrivateNamesContract:
    return PrivateNamesContract(
        name="private names",
        session_options={"root_packages": list(packages)},
        contract_options={"source_packages": list(packages), "scope": scope},
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


def test_in_module_scope_a_private_name_is_its_modules_own() -> None:
    graph = _graph(("engine.playout", "engine.game", "from engine.game import _Lazy"))
    check = _contract("module").check(graph, verbose=False)
    assert [(b["importer"], b["imported"], b["name"]) for b in check.metadata["breaches"]] == [
        ("engine.playout", "engine.game", "_Lazy")
    ]
    public = _graph(("engine.playout", "engine.game", "from engine.game import Game"))
    assert _contract("module").check(public, verbose=False).kept


def test_the_source_is_read_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What an import's first line does not show: the rest of a parenthesised import,
    and a private attribute of a module imported under another name."""
    package = tmp_path / "pkgx"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "inner.py").write_text(
        "_SECRET = 1\nPUBLIC = 2\n\n\ndef _helper() -> int:\n    return 3\n"
    )
    (package / "user.py").write_text(
        "from pkgx.inner import (\n    PUBLIC,\n    _SECRET,\n)\n"
        "from pkgx import inner as other\n\n\ndef f() -> int:\n"
        "    return other._helper() + other.PUBLIC\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("pkgx")
    check = _contract("module", ("pkgx",)).check(graph, verbose=False)
    assert [(b["importer"], b["line_number"], b["name"]) for b in check.metadata["breaches"]] == [
        ("pkgx.user", 1, "_SECRET"),
        ("pkgx.user", 9, "_helper"),
    ]
    assert _contract("package", ("pkgx",)).check(graph, verbose=False).kept


def test_a_parenthesised_import_is_read_name_by_name() -> None:
    graph = _graph(("hardware.panel", "engine.game", "from engine.game import (Game, _Pending,"))
    check = _contract().check(graph, verbose=False)
    assert [b["name"] for b in check.metadata["breaches"]] == ["_Pending"]


@pytest.mark.process
def test_the_projects_contracts_hold() -> None:
    """The same check `./run test` runs: every contract in pyproject.toml is kept."""
    lint = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run(
        [str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert "0 broken" in done.stdout
