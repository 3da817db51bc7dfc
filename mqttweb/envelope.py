"""The envelope every JSON payload carries: `v`, `table`, `ts` (and `seq` on events).

`ts` is UTC, ISO 8601 with milliseconds and `Z`: `2026-11-22T04:14:00.123Z`. Used by
the table service (its events, state and replies) and the tournament desk (standings).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

VERSION = 1


def utc_ts(now: datetime | None = None) -> str:
    """A timestamp as the spec writes it: `YYYY-MM-DDTHH:MM:SS.mmmZ`, always UTC."""
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def parse_ts(text: str) -> datetime:
    """A `ts` as `utc_ts` writes it, as an aware UTC datetime; ValueError when it is not one."""
    if len(text) != 24 or not text.endswith("Z"):
        raise ValueError(f"{text!r} is not a time such as 2026-11-22T04:14:00.123Z")
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)


def stamp(
    table: str,
    payload: Mapping[str, Any],
    *,
    seq: int | None = None,
    now: datetime | None = None,
) -> dict[str, Any]:
    """`payload` with `v`, `table` and `ts` first (and `seq` when given).

    A `ts` already in `payload` is kept, so stamping a stamped payload changes nothing.
    """
    head: dict[str, Any] = {"v": VERSION, "table": table, "ts": payload.get("ts") or utc_ts(now)}
    if seq is not None:
        head["seq"] = seq
    return head | {k: v for k, v in payload.items() if k not in head}


def encode(payload: Mapping[str, Any]) -> bytes:
    """Compact UTF-8 JSON, as published."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
