"""An import-linter contract that import-linter does not ship: no private names taken.

`private_names` is broken when a module takes a private name of another module: an
import such as `from engine.game import _Lazy`, however it is written (on several lines,
in parentheses, inside a function), or a private attribute of a module it imported
(`from service.camera import source as cam` and then `cam._make_it()`). A name is private
when it starts with one underscore (dunders such as `__version__` are public).

`scope` says whose a private name is: `package` (the default), its top-level package's,
so modules of one package may share it; `module`, its own module's only, so a module of
the same package taking it breaks the contract too. The built-in `private_modules`
contract covers `import pkg._module`. Both are configured in `pyproject.toml` and run
by `lint-imports`.

The names come from each import's line as the import graph holds it, and from the
importing module's source, read with `ast`, where it can be found beside its root
package (`importlib.util.find_spec`, which runs no code of ours).
"""

from __future__ import annotations

import ast
import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypedDict

from importlinter.application import output
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck

_FROM_IMPORT = re.compile(r"^\s*from\s+[\w.]+\s+import\s+\(?(?P<names>[^)#]*)")
SCOPES = ("package", "module")


class _Breach(TypedDict):
    importer: str
    imported: str
    line_number: int
    name: str


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _names(line: str) -> list[str]:
    """The names a `from x import a, b as c` line takes (the original names, not aliases)."""
    match = _FROM_IMPORT.match(line)
    if match is None:
        return []
    return [part.split()[0] for part in match.group("names").split(",") if part.strip()]


def _top(module: str) -> str:
    return module.split(".", 1)[0]


def _source(module: str) -> Path | None:
    """The file of `module` (a module, or a package's `__init__.py`), if it is there."""
    root, _, rest = module.partition(".")
    spec = importlib.util.find_spec(root)
    if spec is None or not spec.submodule_search_locations:
        return None
    base = Path(next(iter(spec.submodule_search_locations))).joinpath(
        *rest.split(".") if rest else ()
    )
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _taken(tree: ast.AST, modules: set[str]) -> Iterator[tuple[str, int, str]]:
    """(module, line, private name) for each private name `tree` takes from one of
    `modules`: imported by name, or read as an attribute of a module it imported."""
    aliases: dict[str, str] = {}  # a name bound to one of `modules` -> that module
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                if f"{node.module}.{alias.name}" in modules:
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                elif node.module in modules and _is_private(alias.name):
                    yield node.module, node.lineno, alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    aliases[alias.asname or alias.name] = alias.name
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and _is_private(node.attr)
            and isinstance(node.value, ast.Name | ast.Attribute)
        ):
            owner = aliases.get(ast.unparse(node.value))
            if owner is not None:
                yield owner, node.lineno, node.attr


class PrivateNamesContract(Contract):
    """No module takes a private name of another module (see the module's doc).

    Options:
        - source_packages: our top-level packages: the imports among them are checked.
        - scope: `package` (a private name is its top-level package's) or `module`.
    """

    type_name = "private_names"

    source_packages = fields.ListField(subfield=fields.StringField())
    scope = fields.StringField(required=False, default="package")

    def check(self, graph: Any, verbose: bool) -> ContractCheck:
        sources: set[str] = set(self.source_packages)  # type: ignore[call-overload]
        scope = str(self.scope)
        if scope not in SCOPES:
            raise ValueError(f"private_names: scope must be one of {SCOPES}, not {scope!r}")
        ours = {m for m in graph.modules if _top(m) in sources}
        found: set[tuple[str, str, int, str]] = set()
        for importer in sorted(ours):
            if scope == "module":
                others = ours - {importer}
            else:
                others = {m for m in ours if _top(m) != _top(importer)}
            for imported in graph.find_modules_directly_imported_by(importer) & others:
                for detail in graph.get_import_details(importer=importer, imported=imported):
                    line = int(detail["line_number"])
                    found.update(
                        (importer, imported, line, name)
                        for name in _names(str(detail["line_contents"]))
                        if _is_private(name)
                    )
            path = _source(importer)
            if path is not None:
                tree = ast.parse(path.read_text(encoding="utf-8"))
                found.update((importer, m, line, n) for m, line, n in _taken(tree, others))
        breaches = [
            _Breach(importer=i, imported=m, line_number=line, name=n)
            for i, m, line, n in sorted(found)
        ]
        return ContractCheck(kept=not breaches, metadata={"breaches": breaches})

    def render_broken_contract(self, check: ContractCheck) -> None:
        output.print_error("Private names taken from another module:", bold=False)
        output.new_line()
        for breach in check.metadata["breaches"]:
            output.print_error(
                f"- {breach['importer']} (l.{breach['line_number']}) takes "
                f"{breach['imported']}.{breach['name']}",
                bold=False,
            )
            output.new_line()
        output.print_error(
            "Make the name public in its own module (no underscore, documented), or move "
            "the code that needs it there.",
            bold=False,
        )
