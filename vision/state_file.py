"""A small JSON file in the state directory, written whole or not at all.

The calibration (`calibration.json`) and the enrolled set's look (`set.json`) are
written the same way: into a temporary file beside the target, then renamed over it,
so that a crash or a full disk leaves the old file, never half of a new one.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def write_json(path: Path, data: Any) -> None:
    """Write `data` as indented JSON to `path` atomically, making its folder if needed.

    Raises `OSError` as the file system gave it; callers say what could not be saved."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)
