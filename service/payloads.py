"""The table service's payloads of spec/mqtt.md (the envelope itself: `mqttweb.envelope`)."""

from __future__ import annotations

from typing import Any

from mqttweb.envelope import stamp


def reply_payload(table: str, cmd_id: str, ok: bool, error: str | None = None) -> dict[str, Any]:
    """A command reply: `{"v", "table", "ts", "id", "ok", "error"}`."""
    return stamp(table, {"id": cmd_id, "ok": ok, "error": None if ok else error})
