"""An import-linter contract that import-linter does not ship: no private names across packages.

`private_names` is broken by an import such as `from engine.game import _Lazy` made from
outside the package that defines the name (here `engine`). A name is private when it
starts with one underscore (dunders such as `__version__` are public). The built-in
`private_modules` contract covers `import pkg._module`; this one covers the names taken
from a module. Both are configured in `pyproject.toml` and run by `lint-imports`.
"""

from __future__ import annotations

import re
from typing import Any, TypedDict

from importlinter.application import output
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck

_FROM_IMPORT = re.compile(r"^\s*from\s+[\w.]+\s+import\s+\(?(?P<names>[^)#]*)")


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


class PrivateNamesContract(Contract):
    """No module imports a private name from a module of another top-level package.

    Options:
        - source_packages: our top-level packages: the imports among them are checked.
    """

    type_name = "private_names"

    source_packages = fields.ListField(subfield=fields.StringField())

    def check(self, graph: Any, verbose: bool) -> ContractCheck:
        sources: set[str] = set(self.source_packages)  # type: ignore[call-overload]
        breaches: list[_Breach] = []
        for importer in sorted(graph.modules):
            if _top(importer) not in sources:
                continue
            for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                if _top(imported) == _top(importer) or _top(imported) not in sources:
                    continue
                for detail in graph.get_import_details(importer=importer, imported=imported):
                    breaches.extend(
                        _Breach(
                            importer=importer,
                            imported=imported,
                            line_number=int(detail["line_number"]),
                            name=name,
                        )
                        for name in _names(str(detail["line_contents"]))
                        if _is_private(name)
                    )
        return ContractCheck(kept=not breaches, metadata={"breaches": breaches})

    def render_broken_contract(self, check: ContractCheck) -> None:
        output.print_error("Private names taken from another package:", bold=False)
        output.new_line()
        for breach in check.metadata["breaches"]:
            output.print_error(
                f"- {breach['importer']} (l.{breach['line_number']}) takes "
                f"{breach['imported']}.{breach['name']}",
                bold=False,
            )
            output.new_line()
        output.print_error(
            "Make the name public in its own package (no underscore, documented), or move "
            "the code that needs it there.",
            bold=False,
        )
