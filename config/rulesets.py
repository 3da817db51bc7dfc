"""Checks `table.rules`: the name of a ruleset shipped with the engine, or a TOML file.

The shipped names are read from the `engine.rulesets` folder without importing the
engine, so settings can be checked even when the engine cannot be loaded.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

RULESET_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")


def shipped_rulesets() -> list[str]:
    """The names of the rulesets shipped in `engine/rulesets/`, sorted."""
    try:
        spec = importlib.util.find_spec("engine.rulesets")
    except ImportError:
        return []
    if spec is None or not spec.submodule_search_locations:
        return []
    folder = Path(next(iter(spec.submodule_search_locations)))
    return sorted(p.stem for p in folder.glob("*.toml"))


def check_rules(value: str, base_dir: object = None) -> str:
    """`value` as given when it names a shipped ruleset, else the absolute path of its file."""
    if RULESET_NAME.fullmatch(value) and not value.endswith(".toml"):
        shipped = shipped_rulesets()
        if shipped and value not in shipped:
            raise ValueError(
                f"{value!r} is not a shipped ruleset ({', '.join(shipped)}); "
                "or give the path of a ruleset .toml file"
            )
        return value
    path = Path(value).expanduser()
    if not path.is_absolute() and isinstance(base_dir, Path):
        path = base_dir / path
    if not path.is_file():
        raise ValueError(f"{path} is not a ruleset file: fix the path, or name a shipped ruleset")
    return str(path)
