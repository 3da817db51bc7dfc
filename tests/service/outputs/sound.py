"""A home whose ALSA default output is the null device: espeak-ng plays there, heard by
nobody, as it would play on a table's speaker (the tests' machine may have none)."""

from __future__ import annotations

from pathlib import Path


def null_sound_home(where: Path) -> Path:
    home = where / "home"
    home.mkdir(exist_ok=True)
    (home / ".asoundrc").write_text("pcm.!default { type null }\n")
    return home
