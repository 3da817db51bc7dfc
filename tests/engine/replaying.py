"""Replay files of tests/engine/replays/ through `domino-table replay`, as a scorer would."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from cli.engine import replay
from engine import Judgement, Reason
from engine.events import AlertEvent
from tests.fixtures.spec import validate

REPLAYS = Path(__file__).parent / "replays"
CLOCK = "2025-01-31T20:00:00Z"


def run(name: str, *, refused: bool = False) -> list[dict[str, Any]]:
    """The events the replay of `name` prints, each checked against the MQTT schema.

    `refused`: the file holds inputs the game refuses, so the replay exits 1 (and 0 with
    --lenient, which prints the same events)."""
    path = str(REPLAYS / name)
    result = CliRunner().invoke(replay, ["--clock", CLOCK, path])
    assert result.exit_code == (1 if refused else 0), result.output
    assert not result.stderr, result.stderr  # no malformed line
    if refused:
        lenient = CliRunner().invoke(replay, ["--clock", CLOCK, "--lenient", path])
        assert lenient.exit_code == 0 and lenient.stdout == result.stdout
    events = [json.loads(line) for line in result.stdout.splitlines()]
    for event in events:
        validate(event["type"], event)
    return events


def plays(events: list[dict[str, Any]]) -> list[tuple[str, int, int]]:
    return [(e["tile"], e["ends_total"], e["points"]) for e in events if e["type"] == "play"]


def alerts(events: list[dict[str, Any]]) -> list[tuple[str, str, int | None, str | None]]:
    """Each alert as (code, severity, seat, tile)."""
    return [
        (e["code"], e["severity"], e["seat"], e["tile"]) for e in events if e["type"] == "alert"
    ]


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def judged_alerts(judged: Judgement, reason: Reason) -> list[tuple[int | None, str | None, str]]:
    """The alerts for `reason` among what the engine answered: (seat, tile, message)."""
    return [
        (e.seat, e.tile, e.message)
        for e in judged.events
        if isinstance(e, AlertEvent) and e.reason is reason
    ]
