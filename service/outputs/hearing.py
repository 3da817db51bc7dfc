"""Whether the voice can be heard, for `domino-table doctor`: espeak-ng is there, an audio
output is found (an ALSA sound card, or a PulseAudio or PipeWire server), and espeak-ng
can open it (a silent phrase, amplitude 0, played through it)."""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from service.outputs.voice import ESPEAK, audio_problem, espeak_found

CARDS = Path("/proc/asound/cards")
_CARD = re.compile(r"^\s*(\d+)\s+\[[^\]]*\]:\s*(.*?)\s*$")


@dataclass(frozen=True)
class Hearing:
    """What was found: espeak-ng's path, the audio outputs, and what stopped a silent
    phrase from playing (None: it played)."""

    espeak: str | None
    outputs: tuple[str, ...]
    problem: str | None

    @property
    def heard(self) -> bool:
        return self.espeak is not None and bool(self.outputs) and self.problem is None

    def summary(self) -> str:
        if self.espeak is None:
            return "espeak-ng is not installed"
        found = "; ".join(self.outputs) if self.outputs else "no audio output found"
        return f"espeak-ng at {self.espeak}; {found}" + (
            f" ({self.problem})" if self.problem else ""
        )


def audio_outputs(cards: Path = CARDS, environ: dict[str, str] | None = None) -> list[str]:
    """The audio outputs this machine offers: its ALSA cards, then a sound server."""
    env = os.environ if environ is None else environ
    found = []
    try:
        lines = cards.read_text().splitlines()
    except OSError:
        lines = []
    for line in lines:
        card = _CARD.match(line)
        if card is not None:
            found.append(f"sound card {card.group(1)}: {card.group(2)}")
    runtime = env.get("XDG_RUNTIME_DIR")
    if env.get("PULSE_SERVER") or (runtime and (Path(runtime) / "pulse" / "native").exists()):
        found.append("a PulseAudio or PipeWire server")
    return found


def silent_probe(timeout: float) -> str | None:
    """Play a phrase at amplitude 0: what went wrong, or None when it played."""
    try:
        done = subprocess.run(
            [ESPEAK, "-a", "0", "--stdin"],
            input=b"domino",
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"espeak-ng did not run: {exc}"
    return audio_problem(done.returncode, done.stderr)


def hearing(timeout: float, cards: Path = CARDS, environ: dict[str, str] | None = None) -> Hearing:
    espeak = espeak_found()
    if espeak is None:
        return Hearing(None, (), None)
    return Hearing(espeak, tuple(audio_outputs(cards, environ)), silent_probe(timeout))
