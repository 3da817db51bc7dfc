"""doctor's voice check: espeak-ng there and an audio output that can be heard."""

from __future__ import annotations

from typing import Any

from cli.doctor.findings import Finding, ok, problem, skipped
from config.settings import Settings


def check_voice(settings: Settings, timeout: float, **where: Any) -> list[Finding]:
    """Whether the voice can be heard: espeak-ng there, an audio output found and opened
    (`where`: `service.outputs.hearing.hearing`'s `cards` and `environ`, for tests)."""
    from service.outputs.hearing import hearing  # noqa: PLC0415 - only this check

    found = hearing(timeout, **where)
    if settings.outputs.voice is None:
        return [skipped("voice", f"off ([outputs.voice] is not set): {found.summary()}")]
    if found.espeak is None:
        return [problem("voice", found.summary(), "sudo apt install espeak-ng")]
    if not found.heard:
        return [
            problem(
                "voice",
                f"cannot be heard: {found.summary()}",
                "connect a speaker (the 3.5 mm jack, HDMI or USB), check that `aplay -l` lists "
                "it and that the service's user is in the audio group (docs/design/outputs.md)",
            )
        ]
    return [ok("voice", f"can be heard: {found.summary()}")]
