"""The house stays readable: no module of the product over 900 lines, no function over 80.

The product is what the wheel ships (the packages `pyproject.toml` includes); tests,
benchmarks and tools are read less often and are not held to it.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_MODULE_LINES = 900
MAX_FUNCTION_LINES = 80


def product_modules() -> list[Path]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    tops = sorted({name.split(".")[0] for name in include})
    return sorted(p for top in tops for p in (ROOT / top).rglob("*.py"))


def test_the_product_is_found() -> None:
    tops = {p.relative_to(ROOT).parts[0] for p in product_modules()}
    assert {"engine", "vision", "service", "display", "firmware_bridge", "hardware"} <= tops


def test_no_module_is_over_900_lines() -> None:
    long = {
        str(p.relative_to(ROOT)): n
        for p in product_modules()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def test_no_function_is_over_80_lines() -> None:
    long: dict[str, int] = {}
    for path in product_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long[f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"] = lines
    assert long == {}
