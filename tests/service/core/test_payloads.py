"""The envelope helpers: v/table/ts/seq and the ts format."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta, timezone

from mqttweb.envelope import encode, stamp, utc_ts
from service.core.payloads import reply_payload
from tests.fixtures.spec import validate

TS = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


def test_ts_is_utc_with_milliseconds_and_z() -> None:
    assert utc_ts(datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)) == "2026-01-02T03:04:05.678Z"
    madrid = timezone(timedelta(hours=1))
    assert utc_ts(datetime(2026, 1, 2, 3, 4, 5, tzinfo=madrid)) == "2026-01-02T02:04:05.000Z"
    assert TS.fullmatch(utc_ts())


def test_stamp_puts_the_envelope_first_and_keeps_ts() -> None:
    out = stamp("kitchen", {"hand": 1, "seat": 2, "game_id": "g1"}, seq=7)
    assert list(out)[:4] == ["v", "table", "ts", "seq"]
    assert out["v"] == 1 and out["table"] == "kitchen" and out["seq"] == 7
    validate("pass", out)
    assert stamp("kitchen", out) == out


def test_reply_payload_validates() -> None:
    validate("reply", reply_payload("kitchen", "c1", True, "ignored"))
    bad = reply_payload("kitchen", "c1", False, "No game is in progress.")
    validate("reply", bad)
    assert bad["error"] == "No game is in progress." and bad["ok"] is False


def test_encode_is_compact_utf8() -> None:
    assert encode({"name": "Peña", "n": 1}) == '{"name":"Peña","n":1}'.encode()
    assert json.loads(encode({"a": [1]})) == {"a": [1]}
