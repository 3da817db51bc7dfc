"""A small JSON file in the state directory, written whole or not at all.

The calibration (`calibration.json`) and the enrolled set's look (`set.json`) are
written through `durable.write_file`: into a temporary file beside the target, fsynced,
renamed over it, the folder fsynced; so a crash, a power cut or a full disk leaves the
old file or the new one, never half of a new one or an empty one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from durable import make_dirs, write_file


def write_json(path: Path, data: Any) -> None:
    """Write `data` as indented JSON to `path` durably, making its folder if needed.

    Raises `OSError` as the file system gave it; callers say what could not be saved."""
    make_dirs(path.parent)
    write_file(path, json.dumps(data, indent=2) + "\n")
